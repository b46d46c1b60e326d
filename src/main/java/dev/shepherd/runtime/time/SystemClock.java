package dev.shepherd.runtime.time;

/**
 * The JVM's clocks as a {@link RuntimeClock}: monotonic time from {@link System#nanoTime()}, wall
 * time from {@link System#currentTimeMillis()}. The only reader of the wall clock in the runtime
 * and the cluster package.
 *
 * <p>The monotonic origin is the wall time when this class loaded, so monotonic milliseconds are
 * positive, read like epoch milliseconds in logs and equal the wall time until someone steps the
 * wall clock; nothing relies on that equality.
 *
 * <p>The wall clock's offset is kept steady: reading two clocks one after the other differs by a
 * millisecond now and then, so a fresh difference replaces the kept offset only when it moved by
 * more than {@link #STEP_MS}. Displayed times therefore do not jitter between two reads, and a
 * time converted to wall time and back (the HA journal does) comes back the same; a step of the
 * wall clock (seconds, as NTP or a resumed virtual machine make it) is taken at once.
 */
public final class SystemClock implements RuntimeClock {
  static final SystemClock INSTANCE = new SystemClock();
  /** A change of the wall clock's offset smaller than this is reading noise, not a step. */
  static final long STEP_MS = 20;

  private final long originNanos = System.nanoTime();
  private final long originMs = System.currentTimeMillis();
  private volatile long offset;

  private SystemClock() {}

  @Override
  public long monotonicMs() {
    return originMs + (System.nanoTime() - originNanos) / 1_000_000;
  }

  @Override
  public long wallMs() {
    return System.currentTimeMillis();
  }

  @Override
  public long wallOffsetMs() {
    long kept = offset;
    long seen = observedOffset();
    if (Math.abs(seen - kept) > STEP_MS) {
      offset = seen;
      return seen;
    }
    return kept;
  }

  /**
   * The wall clock's offset as read now, from a wall reading between two monotonic ones that are
   * close together (a thread descheduled between the readings would otherwise skew it).
   */
  private long observedOffset() {
    long seen = 0;
    for (int attempt = 0; attempt < 3; attempt++) {
      long before = System.nanoTime();
      long wall = System.currentTimeMillis();
      long after = System.nanoTime();
      seen = wall - (originMs + (before + (after - before) / 2 - originNanos) / 1_000_000);
      if (after - before < 1_000_000) {
        break;
      }
    }
    return seen;
  }
}
