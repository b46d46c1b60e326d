package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.Timer;
import dev.shepherd.runtime.time.Scheduler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The pool's timers ({@code Effect.StartTimer}/{@code CancelTimer}) on one timer of the pool's
 * {@link Scheduler}: they are kept by expiry (the core's monotonic milliseconds), the scheduler's
 * timer is armed for the earliest, and each due one is handed back as {@link
 * PoolEvent.TimerFired}. A job's deadline costs an entry while it waits and nothing
 * more; cancelling removes it. Runs on the coordinator's context only.
 */
final class Timers {
  private final Scheduler scheduler;
  /** The monotonic clock the expiries are on. */
  private final LongSupplier clock;
  private final Consumer<PoolEvent.TimerFired> fire;
  private final TreeMap<Long, LinkedHashSet<Timer>> byExpiry = new TreeMap<>();
  private final Map<Timer, Long> expiries = new HashMap<>();
  private long armedFor = Long.MAX_VALUE;
  private long armed = -1;
  private boolean closed;

  Timers(Scheduler scheduler, LongSupplier clock, Consumer<PoolEvent.TimerFired> fire) {
    this.scheduler = scheduler;
    this.clock = clock;
    this.fire = fire;
  }

  void start(Timer timer, long at) {
    cancel(timer);
    expiries.put(timer, at);
    byExpiry.computeIfAbsent(at, k -> new LinkedHashSet<>()).add(timer);
    arm();
  }

  void cancel(Timer timer) {
    Long at = expiries.remove(timer);
    if (at == null) {
      return;
    }
    LinkedHashSet<Timer> due = byExpiry.get(at);
    due.remove(timer);
    if (due.isEmpty()) {
      byExpiry.remove(at);
    }
  }

  /** Timers waiting (for status and tests). */
  int size() {
    return expiries.size();
  }

  /** Stops firing: the pool has stopped. */
  void close() {
    closed = true;
    if (armed >= 0) {
      scheduler.cancel(armed);
      armed = -1;
    }
  }

  private void arm() {
    if (closed || byExpiry.isEmpty()) {
      return;
    }
    long first = byExpiry.firstKey();
    if (armed >= 0 && armedFor <= first) {
      return;
    }
    if (armed >= 0) {
      scheduler.cancel(armed);
    }
    armedFor = first;
    armed = scheduler.at(first, this::expire);
  }

  private void expire() {
    armed = -1;
    armedFor = Long.MAX_VALUE;
    long now = clock.getAsLong();
    List<Timer> due = new ArrayList<>();
    while (!byExpiry.isEmpty() && byExpiry.firstKey() <= now) {
      for (Timer timer : byExpiry.pollFirstEntry().getValue()) {
        expiries.remove(timer);
        due.add(timer);
      }
    }
    for (Timer timer : due) {
      if (!closed) {
        fire.accept(new PoolEvent.TimerFired(timer, now));
      }
    }
    arm();
  }
}
