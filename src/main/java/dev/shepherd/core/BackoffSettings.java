package dev.shepherd.core;

/**
 * Restart backoff (S5 in docs/rules.md): the n-th consecutive replacement of a slot waits {@code
 * min(maxMs, initialMs * multiplier^(n-1))}, spread by {@code ±jitter} (a fraction) drawn from a
 * source seeded with {@code seed}, so runs are reproducible, and never more than {@code maxMs}. A
 * slot that ran {@code resetAfterMs} without stopping starts again from {@code initialMs}.
 */
public record BackoffSettings(
    long initialMs, long maxMs, double multiplier, double jitter, long resetAfterMs, long seed) {
  public BackoffSettings {
    if (initialMs < 1) {
      throw new ConfigException("restartBackoff.initialMs", initialMs, "must be at least 1");
    }
    if (maxMs < initialMs) {
      throw new ConfigException("restartBackoff.maxMs", maxMs, "must be at least initialMs");
    }
    if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
      throw new ConfigException("restartBackoff.multiplier", multiplier, "must be at least 1.0");
    }
    if (!(jitter >= 0.0 && jitter <= 1.0)) {
      throw new ConfigException("restartBackoff.jitter", jitter, "must be between 0.0 and 1.0");
    }
    if (resetAfterMs < 1) {
      throw new ConfigException("restartBackoff.resetAfterMs", resetAfterMs, "must be at least 1");
    }
  }

  /** The delay before the {@code failures}-th consecutive replacement, before jitter. */
  long baseDelay(int failures) {
    double delay = initialMs * Math.pow(multiplier, Math.max(0, failures - 1));
    return (long) Math.min((double) maxMs, delay);
  }
}
