package dev.shepherd.core;

/**
 * What every group of a pool has unless an override ({@link GroupSettings}) says otherwise (F1,
 * F2, F4 in docs/rules.md).
 *
 * @param concurrency jobs of one group running at once, at most; 0 = unlimited
 * @param queueCapacity jobs of one group held in the backlog's bound at most; 0 = unlimited
 * @param weight a group's share under contention, 1 to {@link #MAX_WEIGHT}; default 1
 * @param rateLimit each group's own token bucket, or null for none
 */
public record GroupDefaults(int concurrency, int queueCapacity, int weight, RateLimit rateLimit) {
  /** The largest weight. */
  public static final int MAX_WEIGHT = 1000;

  /** Unlimited groups of weight 1 without a rate limit. */
  public static final GroupDefaults NONE = new GroupDefaults(0, 0, 1, null);

  public GroupDefaults {
    if (concurrency < 0) {
      throw new ConfigException("groups.concurrency", concurrency,
          "must not be negative (0 = unlimited)");
    }
    if (queueCapacity < 0) {
      throw new ConfigException("groups.queueCapacity", queueCapacity,
          "must not be negative (0 = unlimited)");
    }
    if (weight < 1 || weight > MAX_WEIGHT) {
      throw new ConfigException("groups.weight", weight, "must be between 1 and " + MAX_WEIGHT);
    }
  }
}
