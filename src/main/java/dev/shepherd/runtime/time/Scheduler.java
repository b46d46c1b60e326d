package dev.shepherd.runtime.time;

/**
 * Timers on one context (a pool's, a host's, a leadership's), measured on the {@link
 * RuntimeClock}'s monotonic time: every task runs on that context, as its other work does. In
 * production the context's Vert.x timers run them ({@link RuntimeTime#system()}); tests put a
 * deterministic one in, which runs them when the test moves its fake clock. A task's id is
 * never negative, so -1 can stand for "no timer".
 */
public interface Scheduler {

  /**
   * Runs {@code task} once the monotonic clock reaches {@code deadline} (soon, if it has already);
   * returns the timer's id.
   */
  long at(long deadline, Runnable task);

  /** Runs {@code task} {@code delayMs} from now: {@link #at} the monotonic time plus the delay. */
  long after(long delayMs, Runnable task);

  /** Runs {@code task} every {@code periodMs}, the first time {@code periodMs} from now. */
  long every(long periodMs, Runnable task);

  /** Cancels the timer {@code id}: true when it was pending (a periodic one is always pending). */
  boolean cancel(long id);
}
