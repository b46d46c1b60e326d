package dev.shepherd.core;

import java.util.List;

/**
 * The ring of recently answered jobs (J6), so that a submitter who did not wait can look its
 * job's outcome up: the latest answers by id, oldest first, bounded in count and bytes, the
 * oldest forgotten first. An answer for an id already remembered replaces the earlier one and
 * counts as the newest. O(1) per answer.
 */
final class RecentOutcomes {
  private final KeptByAge<RecentOutcome> kept;

  RecentOutcomes(Retention limits) {
    this.kept = new KeptByAge<>(limits, RecentOutcome::bytes);
  }

  boolean enabled() {
    return kept.enabled();
  }

  int size() {
    return kept.size();
  }

  long bytes() {
    return kept.bytes();
  }

  RecentOutcome get(String job) {
    return kept.get(job);
  }

  /** Remembers {@code entry}; returns the ids forgotten to make room, oldest first. */
  List<String> add(RecentOutcome entry) {
    return kept.add(entry.job(), entry);
  }

  /** Puts a recovered entry back (A3), oldest first, without forgetting any. */
  void restore(RecentOutcome entry) {
    kept.restore(entry.job(), entry);
  }

  /** The remembered entries, oldest first. */
  List<RecentOutcome> all() {
    return kept.all();
  }
}
