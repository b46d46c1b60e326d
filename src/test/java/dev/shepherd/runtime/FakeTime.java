package dev.shepherd.runtime;

import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.RuntimeTime;
import dev.shepherd.runtime.time.Scheduler;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A fake {@link RuntimeClock} and a deterministic {@link Scheduler} for tests: the monotonic and
 * the wall clock stand still until the test moves them, {@link #advance} both (real time passing),
 * {@link #stepWall} the wall clock alone (an NTP correction, a resumed virtual machine). Timers
 * run only when {@link #advance} reaches their deadline, in deadline order, each on its context
 * with the clock at its deadline; {@code advance} returns once every task it started (and every
 * task those set already due) has run, so what the test reads next is what the timers did.
 *
 * <p>The clocks start far apart (monotonic {@value #MONOTONIC_START}, wall {@value #WALL_START}),
 * so a time shown without its conversion to wall time cannot pass for one. Call {@code advance}
 * from the test's thread, never from a context (it waits for the contexts).
 */
public final class FakeTime implements RuntimeClock {
  /** Where the monotonic clock starts. */
  public static final long MONOTONIC_START = 5_000_000;
  /** Where the wall clock starts: 2026-01-01T00:00:00Z. */
  public static final long WALL_START = 1_767_225_600_000L;
  /** How long {@link #advance} waits for a task it started before it gives up. */
  private static final long TASK_WAIT_MS = 10_000;

  private record Key(long deadline, long id) implements Comparable<Key> {
    @Override
    public int compareTo(Key other) {
      int byDeadline = Long.compare(deadline, other.deadline);
      return byDeadline != 0 ? byDeadline : Long.compare(id, other.id);
    }
  }

  private static final class Task {
    final long id;
    final Context context;
    final Runnable body;
    final long period;
    long deadline;
    volatile boolean cancelled;

    Task(long id, Context context, Runnable body, long period, long deadline) {
      this.id = id;
      this.context = context;
      this.body = body;
      this.period = period;
      this.deadline = deadline;
    }
  }

  private final Object lock = new Object();
  private final TreeMap<Key, Task> queue = new TreeMap<>();
  private final Map<Long, Task> live = new HashMap<>();
  private long monotonic;
  private long wall;
  private long nextId;
  /** Tasks handed to their context and not yet run. */
  private int dispatched;

  /** Clocks at {@link #MONOTONIC_START} and {@link #WALL_START}. */
  public FakeTime() {
    this(MONOTONIC_START, WALL_START);
  }

  /** Clocks at {@code monotonic} and {@code wall} (another JVM's clocks have another origin). */
  public FakeTime(long monotonic, long wall) {
    this.monotonic = monotonic;
    this.wall = wall;
  }

  /** A fake time installed as the time of {@code vertx} (before anything is deployed on it). */
  public static FakeTime install(Vertx vertx) {
    return new FakeTime().installOn(vertx);
  }

  /** Installs this as the time of {@code vertx} (before anything is deployed on it). */
  public FakeTime installOn(Vertx vertx) {
    RuntimeTime.install(vertx, runtimeTime());
    return this;
  }

  /** This clock with its deterministic schedulers, as a Vert.x instance's time. */
  public RuntimeTime runtimeTime() {
    return new RuntimeTime(this, this::scheduler);
  }

  @Override
  public long monotonicMs() {
    synchronized (lock) {
      return monotonic;
    }
  }

  @Override
  public long wallMs() {
    synchronized (lock) {
      return wall;
    }
  }

  @Override
  public long wallOffsetMs() {
    synchronized (lock) {
      return wall - monotonic;
    }
  }

  /** Steps the wall clock alone by {@code ms} (negative: back); the monotonic one stays. */
  public void stepWall(long ms) {
    synchronized (lock) {
      wall += ms;
    }
  }

  /** Timers waiting for their deadline (periodic ones included). */
  public int pending() {
    synchronized (lock) {
      return queue.size();
    }
  }

  /**
   * Lets {@code ms} pass on both clocks, running every timer due by then in deadline order (a
   * timer set meanwhile runs too if it falls due in that time); returns when all of them ran.
   */
  public void advance(long ms) {
    long target;
    synchronized (lock) {
      target = monotonic + ms;
    }
    while (true) {
      awaitDispatched();
      synchronized (lock) {
        Map.Entry<Key, Task> first = queue.firstEntry();
        if (first == null || first.getKey().deadline() > target) {
          moveTo(target);
          return;
        }
        queue.remove(first.getKey());
        Task task = first.getValue();
        moveTo(task.deadline);
        if (task.period > 0) {
          task.deadline += task.period;
          queue.put(new Key(task.deadline, task.id), task);
        }
        dispatch(task);
      }
    }
  }

  private void moveTo(long deadline) {
    if (deadline > monotonic) {
      wall += deadline - monotonic;
      monotonic = deadline;
    }
  }

  private Scheduler scheduler(Context context) {
    return new Scheduler() {
      @Override
      public long at(long deadline, Runnable task) {
        return schedule(context, deadline, 0, task);
      }

      @Override
      public long after(long delayMs, Runnable task) {
        return schedule(context, monotonicMs() + delayMs, 0, task);
      }

      @Override
      public long every(long periodMs, Runnable task) {
        long period = Math.max(1, periodMs);
        return schedule(context, monotonicMs() + period, period, task);
      }

      @Override
      public boolean cancel(long id) {
        synchronized (lock) {
          Task task = live.remove(id);
          if (task == null) {
            return false;
          }
          task.cancelled = true;
          queue.remove(new Key(task.deadline, task.id));
          return true;
        }
      }
    };
  }

  private long schedule(Context context, long deadline, long period, Runnable body) {
    synchronized (lock) {
      Task task = new Task(nextId++, context, body, period, deadline);
      live.put(task.id, task);
      if (period == 0 && deadline <= monotonic) {
        dispatch(task); // already due: soon, as a Vert.x timer of 1 ms would
      } else {
        queue.put(new Key(deadline, task.id), task);
      }
      return task.id;
    }
  }

  /** Hands {@code task} to its context; called holding the lock. */
  private void dispatch(Task task) {
    dispatched++;
    task.context.runOnContext(v -> {
      try {
        if (!task.cancelled) {
          task.body.run();
        }
      } finally {
        synchronized (lock) {
          if (task.period == 0) {
            live.remove(task.id);
          }
          dispatched--;
          lock.notifyAll();
        }
      }
    });
  }

  private void awaitDispatched() {
    long until = System.nanoTime() + TASK_WAIT_MS * 1_000_000;
    synchronized (lock) {
      while (dispatched > 0) {
        long left = (until - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          throw new AssertionError(dispatched + " timer tasks did not run within "
              + TASK_WAIT_MS + " ms: is a context blocked?");
        }
        try {
          lock.wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted while timers ran", e);
        }
      }
    }
  }
}
