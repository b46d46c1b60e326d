package dev.shepherd.runtime.coordinator;

import dev.shepherd.runtime.time.Scheduler;
import java.util.concurrent.Executor;

/**
 * A pool's timers as entries into its state: each task, when due, runs as a turn of the pool's
 * {@link Inbox} (through {@code turns}) rather than straight on the context, so that with
 * caller-runs on ({@link CallerRuns}) no timer runs beside a caller's turn.
 */
final class TurnScheduler implements Scheduler {
  private final Scheduler timers;
  private final Executor turns;

  TurnScheduler(Scheduler timers, Executor turns) {
    this.timers = timers;
    this.turns = turns;
  }

  @Override
  public long at(long deadline, Runnable task) {
    return timers.at(deadline, () -> turns.execute(task));
  }

  @Override
  public long after(long delayMs, Runnable task) {
    return timers.after(delayMs, () -> turns.execute(task));
  }

  @Override
  public long every(long periodMs, Runnable task) {
    return timers.every(periodMs, () -> turns.execute(task));
  }

  @Override
  public boolean cancel(long id) {
    return timers.cancel(id);
  }
}
