package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.Timer;
import dev.shepherd.runtime.time.Scheduler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The pool's timers ({@code Effect.StartTimer}/{@code CancelTimer}) on one timer of the pool's
 * {@link Scheduler}: they are kept by expiry (the core's monotonic milliseconds), the scheduler's
 * timer is armed for the earliest, and each due one is handed back as {@link
 * PoolEvent.TimerFired}, in order of expiry, then of start. Runs on the coordinator's context
 * only.
 *
 * <p>Every dispatched job starts a deadline and nearly every one is cancelled by its answer, so
 * both are kept cheap: a timer whose expiry is no earlier than the last one queued (a job's
 * deadline under the pool's timeout, as time moves on) joins the end of a FIFO queue; only the
 * others go into a heap. A cancel marks the entry dead where it lies (one map removal); dead
 * entries are dropped as they reach the front, and all at once when they outnumber the live ones,
 * so memory stays within twice the live timers whatever the timeout.
 */
final class Timers {
  /** Dead entries tolerated before a sweep, beyond as many as there are live ones. */
  private static final int SWEEP_SLACK = 64;

  private static final class Entry {
    final Timer timer;
    final long at;
    /** Start order: of two timers due at the same time, the one started first fires first. */
    final long seq;
    boolean live = true;

    Entry(Timer timer, long at, long seq) {
      this.timer = timer;
      this.at = at;
      this.seq = seq;
    }

    boolean before(Entry other) {
      return at < other.at || (at == other.at && seq < other.seq);
    }
  }

  private final Scheduler scheduler;
  /** The monotonic clock the expiries are on. */
  private final LongSupplier clock;
  private final Consumer<PoolEvent.TimerFired> fire;
  private final HashMap<Timer, Entry> live = new HashMap<>();
  /** Entries in start order whose expiries never decrease. */
  private final ArrayDeque<Entry> inOrder = new ArrayDeque<>();
  /** Entries that would have broken {@link #inOrder}'s order. */
  private final PriorityQueue<Entry> outOfOrder =
      new PriorityQueue<>((a, b) -> a.before(b) ? -1 : b.before(a) ? 1 : 0);
  /** Cancelled or restarted entries still queued. */
  private int dead;
  private long started;
  private long armedFor = Long.MAX_VALUE;
  private long armed = -1;
  private boolean closed;

  Timers(Scheduler scheduler, LongSupplier clock, Consumer<PoolEvent.TimerFired> fire) {
    this.scheduler = scheduler;
    this.clock = clock;
    this.fire = fire;
  }

  /** Starts {@code timer} to expire at {@code at}; a timer already started is started anew. */
  void start(Timer timer, long at) {
    Entry entry = new Entry(timer, at, started++);
    Entry replaced = live.put(timer, entry);
    if (replaced != null) {
      buried(replaced);
    }
    Entry last = inOrder.peekLast();
    if (last == null || last.at <= at) {
      inOrder.addLast(entry);
    } else {
      outOfOrder.add(entry);
    }
    arm();
  }

  void cancel(Timer timer) {
    Entry entry = live.remove(timer);
    if (entry != null) {
      buried(entry);
    }
  }

  /** Timers waiting (for status and tests). */
  int size() {
    return live.size();
  }

  /** Entries held, live or dead (for tests: never more than about twice the live ones). */
  int held() {
    return inOrder.size() + outOfOrder.size();
  }

  /** Stops firing: the pool has stopped. */
  void close() {
    closed = true;
    if (armed >= 0) {
      scheduler.cancel(armed);
      armed = -1;
    }
  }

  private void buried(Entry entry) {
    entry.live = false;
    dead++;
    if (dead > live.size() + SWEEP_SLACK) {
      inOrder.removeIf(e -> !e.live);
      outOfOrder.removeIf(e -> !e.live);
      dead = 0;
    }
  }

  /** The live entry due first, dropping dead ones at either front; null when none waits. */
  private Entry first() {
    Entry a = inOrder.peekFirst();
    while (a != null && !a.live) {
      inOrder.pollFirst();
      dead--;
      a = inOrder.peekFirst();
    }
    Entry b = outOfOrder.peek();
    while (b != null && !b.live) {
      outOfOrder.poll();
      dead--;
      b = outOfOrder.peek();
    }
    if (a == null) {
      return b;
    }
    return b == null || a.before(b) ? a : b;
  }

  private void arm() {
    if (closed) {
      return;
    }
    Entry first = first();
    if (first == null) {
      return;
    }
    if (armed >= 0 && armedFor <= first.at) {
      return;
    }
    if (armed >= 0) {
      scheduler.cancel(armed);
    }
    armedFor = first.at;
    armed = scheduler.at(first.at, this::expire);
  }

  private void expire() {
    armed = -1;
    armedFor = Long.MAX_VALUE;
    long now = clock.getAsLong();
    List<Timer> due = new ArrayList<>();
    Entry next;
    while ((next = first()) != null && next.at <= now) {
      if (next == inOrder.peekFirst()) {
        inOrder.pollFirst();
      } else {
        outOfOrder.poll();
      }
      next.live = false;
      live.remove(next.timer);
      due.add(next.timer);
    }
    for (Timer timer : due) {
      if (!closed) {
        fire.accept(new PoolEvent.TimerFired(timer, now));
      }
    }
    arm();
  }
}
