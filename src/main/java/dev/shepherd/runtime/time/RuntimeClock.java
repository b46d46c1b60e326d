package dev.shepherd.runtime.time;

import dev.shepherd.runtime.ha.JournalTimes;

/**
 * The runtime's one source of time: a monotonic clock for everything that measures or schedules
 * (the core's events, job timeouts, restart backoff, retry and submit delays, drain deadlines,
 * host heartbeats, the HA lease), and the wall clock only to label what a person reads. An NTP
 * correction or a resumed virtual machine steps the wall clock by seconds, backwards or forwards;
 * a deadline measured on it would move by as much, so none is.
 *
 * <p>Monotonic milliseconds belong to one JVM: another JVM's have another origin, so they are
 * never compared across JVMs (what crosses them, such as the HA journal, carries wall time; see
 * {@link JournalTimes}). {@link #system()} is the production clock; tests use a fake one whose two
 * clocks they set apart.
 */
public interface RuntimeClock {

  /**
   * Milliseconds from an arbitrary origin, never going back and moving at the rate of real time
   * whatever the wall clock does: what the core's events carry and every deadline is measured on.
   */
  long monotonicMs();

  /** Epoch milliseconds as the wall clock says now: for display only, since it may jump. */
  long wallMs();

  /**
   * How far the wall clock is ahead of the monotonic one ({@code wall = monotonic + offset}): it
   * stays put while nobody steps the wall clock, and moves by the step when someone does.
   */
  long wallOffsetMs();

  /**
   * The epoch milliseconds a person reads for the monotonic instant {@code monotonicMs} (past or
   * future), as the wall clock says now: the one conversion every displayed time goes through.
   */
  default long wallAt(long monotonicMs) {
    return monotonicMs + wallOffsetMs();
  }

  /** The monotonic instant the wall clock now calls {@code wallMs}: {@link #wallAt}'s inverse. */
  default long monotonicAt(long wallMs) {
    return wallMs - wallOffsetMs();
  }

  /** The JVM's clocks: {@link System#nanoTime()} for monotonic time, the system clock for wall. */
  static RuntimeClock system() {
    return SystemClock.INSTANCE;
  }
}
