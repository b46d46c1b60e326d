package dev.shepherd.runtime;

import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.Scheduler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A process of the simulation: it runs what reaches it while it runs, keeps it while it is paused
 * ({@code kill -STOP}) and runs it in order on resume, and drops everything once killed. A pause
 * longer than {@link SimWorld#DETECT_MS} gets it removed from the cluster; when it resumes it is
 * isolated (its store operations fail for want of a majority) until it merges back. A partition
 * cuts a running node off the same way ({@link SimWorld#cut}).
 *
 * <p>Each process has its own clocks, as a JVM has: a monotonic one with an origin of its own
 * (so monotonic times of two nodes never compare) and a wall clock that a clock step moves, and
 * timers on them ({@link #scheduler()}) that run as the node's other work does.
 */
abstract class SimNode {
  enum State { RUNNING, PAUSED, DEAD }

  final SimWorld world;
  final String name;
  State state = State.RUNNING;
  /** Removed from the cluster while paused or cut off, and not merged back yet. */
  boolean isolated;
  /** Cut off by a partition ({@link SimWorld#cut}). */
  boolean partitioned;
  private long pausedAt;
  private int pauses;
  private final List<Runnable> held = new ArrayList<>();
  /** Where this node's monotonic clock starts, in simulated time. */
  private final long origin;
  /** How far this node's wall clock is off the world's (a clock step moves it). */
  private long skew;
  private final RuntimeClock clock = new RuntimeClock() {
    @Override
    public long monotonicMs() {
      return world.now() + origin;
    }

    @Override
    public long wallMs() {
      return SimWorld.EPOCH_MS + world.now() + skew;
    }

    @Override
    public long wallOffsetMs() {
      return SimWorld.EPOCH_MS + skew - origin;
    }
  };
  private final Map<Long, SimWorld.Task> timers = new HashMap<>();
  private long timerIds;
  private final Scheduler scheduler = new Scheduler() {
    @Override
    public long at(long deadline, Runnable task) {
      return after(deadline - clock.monotonicMs(), task);
    }

    @Override
    public long after(long delayMs, Runnable task) {
      long id = timerIds++;
      timers.put(id, world.after(Math.max(1, delayMs), () -> {
        timers.remove(id);
        deliver(task);
      }));
      return id;
    }

    @Override
    public long every(long periodMs, Runnable task) {
      long id = timerIds++;
      repeat(id, Math.max(1, periodMs), task);
      return id;
    }

    private void repeat(long id, long period, Runnable task) {
      timers.put(id, world.after(period, () -> {
        repeat(id, period, task);
        deliver(task);
      }));
    }

    @Override
    public boolean cancel(long id) {
      SimWorld.Task task = timers.remove(id);
      if (task == null) {
        return false;
      }
      task.cancelled = true;
      return true;
    }
  };

  SimNode(SimWorld world, String name) {
    this.world = world;
    this.name = name;
    this.origin = world.rnd.nextLong(1_000_000_000L);
    this.skew = world.rnd.nextInt(200) - 100;
  }

  RuntimeClock clock() {
    return clock;
  }

  Scheduler scheduler() {
    return scheduler;
  }

  /** Steps this node's wall clock by {@code deltaMs} (an NTP correction, a resumed VM). */
  void stepClock(long deltaMs) {
    world.log(() -> this + "'s wall clock steps " + deltaMs + " ms");
    skew += deltaMs;
  }

  /** Runs {@code task} now, later (paused), or never (dead). */
  void deliver(Runnable task) {
    switch (state) {
      case RUNNING -> task.run();
      case PAUSED -> held.add(task);
      case DEAD -> { }
    }
  }

  /** A message for one of this node's addresses. */
  void receive(SimMessage message) {}

  /** A timer of this process. */
  void timer(long delay, Runnable task) {
    world.after(delay, () -> deliver(task));
  }

  void kill() {
    if (state == State.DEAD) {
      return;
    }
    world.log(this + " killed");
    world.kills++;
    state = State.DEAD;
    held.clear();
    world.after(SimWorld.KILL_DETECT_MS, () -> world.removed(this));
  }

  void pause(long duration) {
    if (state != State.RUNNING) {
      return;
    }
    world.log(this + " paused for " + duration + " ms");
    world.pauses++;
    state = State.PAUSED;
    pausedAt = world.now();
    int pause = ++pauses;
    world.after(SimWorld.DETECT_MS, () -> {
      if (state == State.PAUSED && pauses == pause) {
        isolated = true;
        world.removed(this);
      }
    });
    world.after(duration, this::resume);
  }

  /**
   * Cuts this running node off for {@code duration} ({@link SimWorld#cut}); past {@link
   * SimWorld#DETECT_MS} the cluster removes it, and once healed it merges back.
   */
  void partition(long duration) {
    if (state == State.DEAD || partitioned) {
      return;
    }
    world.log(this + " cut off for " + duration + " ms");
    world.partitions++;
    partitioned = true;
    isolated = true;
    boolean[] removed = {false};
    world.after(SimWorld.DETECT_MS, () -> {
      if (partitioned) {
        removed[0] = true;
        world.removed(this);
        lostMajority();
      }
    });
    world.after(duration, () -> {
      partitioned = false;
      world.log(this + " healed");
      if (!removed[0]) {
        isolated = false;
        return;
      }
      timer(500 + world.rnd.nextInt(1_000), () -> {
        isolated = false;
        merged();
      });
    });
  }

  private void resume() {
    if (state != State.PAUSED) {
      return;
    }
    world.log(this + " resumed after " + (world.now() - pausedAt) + " ms"
        + (isolated ? ", isolated" : ""));
    state = State.RUNNING;
    List<Runnable> backlog = new ArrayList<>(held);
    held.clear();
    backlog.forEach(Runnable::run);
    if (isolated) {
      // Its Hazelcast finds itself alone, then merges back into the cluster.
      timer(500 + world.rnd.nextInt(4_000), () -> {
        isolated = false;
        merged();
      });
    }
  }

  /** Hazelcast merged this member back (its lifecycle said MERGING, then MERGED). */
  void merged() {}

  /** The others left this member's view of the cluster: fewer than a majority remain. */
  void lostMajority() {}

  @Override
  public String toString() {
    return name;
  }
}
