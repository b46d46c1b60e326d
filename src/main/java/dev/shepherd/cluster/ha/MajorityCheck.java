package dev.shepherd.cluster.ha;

/**
 * Whether the split-brain protection's size ({@code SHEPHERD_CLUSTER_MAJORITY}) is still a
 * majority of the cluster it protects. Worker hosts and applications' clustered Vert.x instances
 * are members too, so a cluster grows past what its nodes were configured for; once it has twice
 * that many members, a split into two equal sides leaves each side "a majority", and each can
 * claim the pool (docs/high-availability.md, "Majority").
 */
final class MajorityCheck {
  private MajorityCheck() {}

  /**
   * What to tell an operator about a cluster of {@code members} whose majority is set to {@code
   * majority}, or null while it is one (a size under 2 is warned about on its own).
   */
  static String warning(int members, int majority) {
    if (majority < 2 || members < 2 * majority) {
      return null;
    }
    return "the cluster has " + members + " members and SHEPHERD_CLUSTER_MAJORITY is " + majority
        + ": two sides of a split with " + majority + " members each could both lead the pool;"
        + " set it to " + (members / 2 + 1) + " on every member (worker hosts and other"
        + " clustered applications count)";
  }
}
