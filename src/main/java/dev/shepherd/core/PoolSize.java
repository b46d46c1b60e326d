package dev.shepherd.core;

/**
 * How many local slots a pool wants and how many assignments each runs at once (F6 in
 * docs/rules.md): what a resize sets and the status shows. A worker host's slots are not counted:
 * their host advertises them (H3).
 *
 * @param instances the pool's own slots, {@code w-0 … w-(instances-1)}: 0 to {@link
 *     #MAX_INSTANCES}, 0 only for a pool that may run on worker hosts alone (H2)
 * @param maxConcurrency each local slot's capacity (C1): 1 to {@link #MAX_CONCURRENCY}
 */
public record PoolSize(int instances, int maxConcurrency) {
  /** The most local slots a pool may have, as the configuration's {@code worker.instances}. */
  public static final int MAX_INSTANCES = 10_000;
  /** The largest capacity of a local slot, as the configuration's {@code worker.maxConcurrency}. */
  public static final int MAX_CONCURRENCY = 1_000_000;

  /** Throws a {@link ConfigException} naming {@code instances} or {@code maxConcurrency}. */
  public PoolSize {
    if (instances < 0 || instances > MAX_INSTANCES) {
      throw new ConfigException("instances", instances,
          "must be between 0 and " + MAX_INSTANCES);
    }
    if (maxConcurrency < 1 || maxConcurrency > MAX_CONCURRENCY) {
      throw new ConfigException("maxConcurrency", maxConcurrency, "must be between 1 and "
          + MAX_CONCURRENCY + " (a worker that runs nothing can never be selected)");
    }
  }
}
