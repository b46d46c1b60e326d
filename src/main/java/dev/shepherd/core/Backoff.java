package dev.shepherd.core;

/**
 * A growing delay (J3 in docs/rules.md): the n-th wait is {@code min(maxMs, initialMs *
 * multiplier^(n-1))}, spread by {@code ±jitter} (a fraction) drawn from the pool's seeded source,
 * so runs replay exactly, and never more than {@code maxMs}.
 * {@code initialMs} 0 means no wait at all.
 */
public record Backoff(long initialMs, double multiplier, long maxMs, double jitter) {

  /** No wait. */
  public static final Backoff NONE = new Backoff(0, 1.0, 0, 0.0);

  public Backoff {
    check("backoff", initialMs, multiplier, maxMs, jitter);
  }

  /** A backoff whose errors name {@code field} (such as {@code retryBackoff}). */
  public static Backoff of(String field, long initialMs, double multiplier, long maxMs,
      double jitter) {
    check(field, initialMs, multiplier, maxMs, jitter);
    return new Backoff(initialMs, multiplier, maxMs, jitter);
  }

  private static void check(String field, long initialMs, double multiplier, long maxMs,
      double jitter) {
    if (initialMs < 0) {
      throw new ConfigException(field + ".initialMs", initialMs, "must not be negative");
    }
    if (maxMs < initialMs) {
      throw new ConfigException(field + ".maxMs", maxMs, "must be at least initialMs");
    }
    if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
      throw new ConfigException(field + ".multiplier", multiplier, "must be at least 1.0");
    }
    if (!(jitter >= 0.0 && jitter <= 1.0)) {
      throw new ConfigException(field + ".jitter", jitter, "must be between 0.0 and 1.0");
    }
  }

  /** Whether it never waits. */
  public boolean none() {
    return initialMs == 0;
  }

  /** The {@code n}-th delay (n from 1), with {@code draw} uniform in [0, 1) for the jitter. */
  long delay(int n, double draw) {
    if (initialMs == 0) {
      return 0;
    }
    double base = Math.min((double) maxMs, initialMs * Math.pow(multiplier, Math.max(0, n - 1)));
    return Math.min(maxMs, Math.max(1, Math.round(base * (1 + jitter * (2 * draw - 1)))));
  }
}
