package dev.shepherd.runtime.coordinator;

import dev.shepherd.runtime.time.RuntimeClock;

/**
 * The pool's monotonic clock as its turns read it: once at the start of each batch of the inbox
 * (and every {@link Inbox#CLOCK_EVERY} tasks of it), so that a job costs no clock read of its own
 * (three a job, some 9% of the turn's time, before); outside a batch, read afresh. Written and read
 * by the thread that runs the turn, under the inbox's turn flag.
 */
final class TurnClock {
  /** {@link #now} outside a batch of the inbox. */
  private static final long NO_TURN = Long.MIN_VALUE;
  private final RuntimeClock clock;
  private long turnNow = NO_TURN;
  /** The wall clock as this batch first asked for it, or {@link #NO_TURN} until then. */
  private long turnWall = NO_TURN;

  TurnClock(RuntimeClock clock) {
    this.clock = clock;
  }

  /** A batch starts, or a long one goes on: the clock is read for what follows. */
  void start() {
    turnNow = clock.monotonicMs();
    turnWall = NO_TURN;
  }

  /** The batch is over: readings are fresh again. */
  void end() {
    turnNow = NO_TURN;
    turnWall = NO_TURN;
  }

  /** Within a batch, the batch's reading; else the clock's. */
  long now() {
    long t = turnNow;
    return t != NO_TURN ? t : clock.monotonicMs();
  }

  /**
   * The clock read now, which the rest of the batch, if any, shares from then on: a timer that
   * fires inside a batch sees its own due time, and no later event of the batch an earlier one.
   */
  long fresh() {
    long t = clock.monotonicMs();
    if (turnNow != NO_TURN) {
      turnNow = t;
      turnWall = NO_TURN;
    }
    return t;
  }

  /**
   * The wall clock's epoch milliseconds, for what a person reads (the history's per-second
   * outcome counts, a slot's last exit): within a batch, read once, when first asked, and shared
   * by the rest of it (a read per answer was 3% of an in-JVM pool's coordinator); else read now.
   */
  long wallNow() {
    if (turnNow == NO_TURN) {
      return clock.wallMs();
    }
    long w = turnWall;
    if (w == NO_TURN) {
      w = clock.wallMs();
      turnWall = w;
    }
    return w;
  }
}
