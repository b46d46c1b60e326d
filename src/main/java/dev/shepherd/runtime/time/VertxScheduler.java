package dev.shepherd.runtime.time;

import io.vertx.core.Context;
import io.vertx.core.internal.ContextInternal;

/**
 * The production {@link Scheduler}: the context's own Vert.x timers, which Netty runs on {@link
 * System#nanoTime()}, so a step of the wall clock moves none of them. A deadline becomes the
 * delay from the clock's monotonic time now. Set from the context itself (as every caller does),
 * a timer goes through {@link io.vertx.core.Vertx#setTimer}, which ties it to the verticle that
 * owns the context (undeploying it cancels the timer), as the callers' timers always were.
 */
final class VertxScheduler implements Scheduler {
  private final ContextInternal context;
  private final RuntimeClock clock;

  VertxScheduler(Context context, RuntimeClock clock) {
    this.context = (ContextInternal) context;
    this.clock = clock;
  }

  @Override
  public long at(long deadline, Runnable task) {
    return after(deadline - clock.monotonicMs(), task);
  }

  @Override
  public long after(long delayMs, Runnable task) {
    // Vert.x refuses a delay below 1 ms; a deadline already past runs at the next tick.
    long delay = Math.max(1, delayMs);
    return onContext() ? context.owner().setTimer(delay, id -> task.run())
        : context.setTimer(delay, id -> task.run());
  }

  @Override
  public long every(long periodMs, Runnable task) {
    long period = Math.max(1, periodMs);
    return onContext() ? context.owner().setPeriodic(period, id -> task.run())
        : context.setPeriodic(period, id -> task.run());
  }

  /** Whether the caller runs on this context (or a duplicate of it, as bus handlers do). */
  private boolean onContext() {
    ContextInternal current = ContextInternal.current();
    return current != null && current.unwrap() == context.unwrap();
  }

  @Override
  public boolean cancel(long id) {
    return id >= 0 && context.owner().cancelTimer(id);
  }
}
