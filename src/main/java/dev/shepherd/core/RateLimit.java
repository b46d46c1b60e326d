package dev.shepherd.core;

/**
 * A token bucket (F4 in docs/rules.md): {@code permits} starts per {@code perMs} milliseconds. The
 * bucket starts full ({@code permits} tokens), refills continuously at {@code permits} per {@code
 * perMs}, and every start takes one token; a job without a token waits, it is never rejected.
 *
 * @param permits tokens the bucket holds when full, and adds per {@code perMs}; 1 to 1,000,000
 * @param perMs the refill period in milliseconds; 1 to 86,400,000 (a day)
 */
public record RateLimit(int permits, long perMs) {
  /** The largest {@code permits}. */
  public static final int MAX_PERMITS = 1_000_000;
  /** The largest {@code perMs}. */
  public static final long MAX_PER_MS = 86_400_000L;

  public RateLimit {
    if (permits < 1 || permits > MAX_PERMITS) {
      throw new ConfigException("rateLimit.permits", permits,
          "must be between 1 and " + MAX_PERMITS);
    }
    if (perMs < 1 || perMs > MAX_PER_MS) {
      throw new ConfigException("rateLimit.perMs", perMs, "must be between 1 and " + MAX_PER_MS);
    }
  }
}
