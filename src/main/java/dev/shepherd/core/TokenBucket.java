package dev.shepherd.core;

/**
 * The state of one {@link RateLimit} (F4 in docs/rules.md): a token bucket refilled from the
 * events' time, with no timer of its own. Kept in fixed point: one token is {@code perMs} units,
 * and every millisecond adds {@code permits} units, up to {@code permits} tokens.
 */
final class TokenBucket {
  final RateLimit limit;
  private long level;
  private long last;

  /** A full bucket at {@code now}. */
  TokenBucket(RateLimit limit, long now) {
    this.limit = limit;
    this.level = capacity();
    this.last = now;
  }

  private long capacity() {
    return (long) limit.permits() * limit.perMs();
  }

  private long levelAt(long now) {
    long elapsed = now - last;
    if (elapsed <= 0) {
      return level;
    }
    // A whole period refills an empty bucket; beyond it the product could overflow.
    if (elapsed >= limit.perMs()) {
      return capacity();
    }
    return Math.min(capacity(), level + elapsed * limit.permits());
  }

  /** Whether a start may take a token at {@code now}. */
  boolean has(long now) {
    return levelAt(now) >= limit.perMs();
  }

  /** A start takes a token at {@code now}; {@link #has} said there is one. */
  void take(long now) {
    level = levelAt(now) - limit.perMs();
    last = Math.max(last, now);
  }

  /** The first instant at or after {@code now} with a token. */
  long nextAt(long now) {
    long missing = limit.perMs() - levelAt(now);
    if (missing <= 0) {
      return now;
    }
    return now + (missing + limit.permits() - 1) / limit.permits();
  }

  /** Its own state (not read at any time), for fingerprints. */
  String describe() {
    return limit + " level=" + level + "/" + capacity() + "@" + last;
  }
}
