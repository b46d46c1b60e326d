package dev.shepherd.core;

/**
 * What a pool may hold in memory beyond the count of queued jobs: the bytes of queued payloads,
 * and the affinity bindings of keys that no job uses any more.
 *
 * <p>A binding is <em>in use</em> while its key has a queued or running job; P4 and P5
 * (docs/rules.md) hold for it exactly as written. Once its key has no job the binding is
 * <em>idle</em>, and the pool keeps only the {@code maxIdleKeys} idle bindings used most recently
 * (the selector's choices) plus the {@code maxRebalancedKeys} idle bindings an operator set by
 * rebalance, forgetting the least recently used beyond that. A forgotten key is unseen again: its
 * next job is bound by the selector, which for RENDEZVOUS (the default) is the same slot as long as
 * that slot can take it.
 *
 * @param backlogMaxBytes the payload bytes the backlog may hold (P3: beyond it a job that must
 *     queue is {@code rejected(BACKLOG_FULL)}); {@link Long#MAX_VALUE} for no limit
 * @param maxIdleKeys idle bindings made by the selector that are remembered
 * @param maxRebalancedKeys idle bindings made by rebalance that are remembered
 */
public record PoolLimits(long backlogMaxBytes, int maxIdleKeys, int maxRebalancedKeys) {

  /** No byte limit; 10,000 idle bindings of each kind (about 4 MB at ~350 B a key). */
  public static final PoolLimits DEFAULT = new PoolLimits(Long.MAX_VALUE, 10_000, 10_000);

  public PoolLimits {
    if (backlogMaxBytes < 1) {
      throw new ConfigException("backlogMaxBytes", backlogMaxBytes, "must be at least 1");
    }
    if (maxIdleKeys < 0) {
      throw new ConfigException("affinity.maxIdleKeys", maxIdleKeys, "must not be negative");
    }
    if (maxRebalancedKeys < 0) {
      throw new ConfigException("affinity.maxRebalancedKeys", maxRebalancedKeys,
          "must not be negative");
    }
  }
}
