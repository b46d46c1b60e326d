package dev.shepherd.core;

/**
 * An override of one group's flow settings (F1, F2, F4, F5 in docs/rules.md), configured or set by
 * an operator at run time ({@link PoolEvent.SetGroup}); every null field inherits the pool's
 * {@link GroupDefaults}.
 *
 * @param concurrency jobs of the group running at once, at most; 0 = unlimited (F1)
 * @param queueCapacity jobs of the group held in the backlog's bound (queued or waiting) at most;
 *     0 = unlimited, still inside the pool's {@code backlogCapacity} (F1)
 * @param weight its share under contention, 1 to {@link GroupDefaults#MAX_WEIGHT} (F2)
 * @param rateLimit the group's token bucket (F4)
 * @param paused {@code true} pauses the group, {@code false} resumes it, null leaves it as it is
 *     (F5); not inherited
 */
public record GroupSettings(Integer concurrency, Integer queueCapacity, Integer weight,
    RateLimit rateLimit, Boolean paused) {

  /** An override that changes nothing. */
  public static final GroupSettings INHERIT = new GroupSettings(null, null, null, null, null);

  public GroupSettings {
    if (concurrency != null && concurrency < 0) {
      throw new ConfigException("groups.concurrency", concurrency,
          "must not be negative (0 = unlimited)");
    }
    if (queueCapacity != null && queueCapacity < 0) {
      throw new ConfigException("groups.queueCapacity", queueCapacity,
          "must not be negative (0 = unlimited)");
    }
    if (weight != null && (weight < 1 || weight > GroupDefaults.MAX_WEIGHT)) {
      throw new ConfigException("groups.weight", weight,
          "must be between 1 and " + GroupDefaults.MAX_WEIGHT);
    }
  }
}
