package dev.shepherd.core;

/**
 * How much a pool remembers of something it keeps for operators (the dead-letter set, recent
 * outcomes): at most {@code capacity} entries and {@code maxBytes} of their payloads and
 * results, the oldest forgotten first. A capacity of 0 keeps nothing.
 */
public record Retention(int capacity, long maxBytes) {
  public Retention {
    if (capacity < 0) {
      throw new ConfigException("capacity", capacity, "must not be negative (0 = keep nothing)");
    }
    if (maxBytes < 1) {
      throw new ConfigException("maxBytes", maxBytes, "must be at least 1");
    }
  }

  /** A retention whose errors name {@code field} (such as {@code deadLetter}). */
  public static Retention of(String field, int capacity, long maxBytes) {
    if (capacity < 0) {
      throw new ConfigException(field + ".capacity", capacity,
          "must not be negative (0 = keep nothing)");
    }
    if (maxBytes < 1) {
      throw new ConfigException(field + ".maxBytes", maxBytes, "must be at least 1");
    }
    return new Retention(capacity, maxBytes);
  }

  /** Keeps nothing. */
  public static final Retention NONE = new Retention(0, Long.MAX_VALUE);
}
