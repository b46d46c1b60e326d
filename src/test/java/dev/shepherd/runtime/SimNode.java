package dev.shepherd.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * A process of the simulation: it runs what reaches it while it runs, keeps it while it is paused
 * ({@code kill -STOP}) and runs it in order on resume, and drops everything once killed. A pause
 * longer than {@link SimWorld#DETECT_MS} gets it removed from the cluster; when it resumes it is
 * isolated (its store operations fail for want of a majority) until it merges back.
 */
abstract class SimNode {
  enum State { RUNNING, PAUSED, DEAD }

  final SimWorld world;
  final String name;
  State state = State.RUNNING;
  /** Removed from the cluster while paused and not merged back yet. */
  boolean isolated;
  private long pausedAt;
  private int pauses;
  private final List<Runnable> held = new ArrayList<>();

  SimNode(SimWorld world, String name) {
    this.world = world;
    this.name = name;
  }

  /** Runs {@code task} now, later (paused), or never (dead). */
  void deliver(Runnable task) {
    switch (state) {
      case RUNNING -> task.run();
      case PAUSED -> held.add(task);
      case DEAD -> { }
    }
  }

  /** A timer of this process. */
  void timer(long delay, Runnable task) {
    world.after(delay, () -> deliver(task));
  }

  void kill() {
    if (state == State.DEAD) {
      return;
    }
    world.log(this + " killed");
    state = State.DEAD;
    held.clear();
    world.after(SimWorld.KILL_DETECT_MS, () -> world.removed(this));
  }

  void pause(long duration) {
    if (state != State.RUNNING) {
      return;
    }
    world.log(this + " paused for " + duration + " ms");
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

  @Override
  public String toString() {
    return name;
  }
}
