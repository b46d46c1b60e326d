package dev.shepherd.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The world of one failover simulation: simulated time on a seeded, single-threaded task queue,
 * a network that delays (and so reorders) every message, the cluster's view of its members (a
 * killed member leaves after {@link #KILL_DETECT_MS}, a paused one after {@link #DETECT_MS}), the
 * leader lock, the pool's address (the coordinators consuming it) and the replicated store. No
 * threads, no clock: a seed replays a run exactly.
 */
final class SimWorld {
  /** A member silent this long is removed by the others (Hazelcast's max-no-heartbeat). */
  static final long DETECT_MS = 5_000;
  /** A killed member's connections are refused: it is removed this fast. */
  static final long KILL_DETECT_MS = 500;
  /** The coordinator's lease: well inside {@link #DETECT_MS}. */
  static final long LEASE_MS = 2_000;

  /** One task at a time, in time order, then in the order scheduled. */
  private record Task(long at, long seq, Runnable run) {}

  final SplittableRandom rnd;
  final SimStore store = new SimStore(this);
  private final PriorityQueue<Task> tasks = new PriorityQueue<>((a, b) -> a.at != b.at
      ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
  private long seq;
  /** Tasks run so far. */
  long executed;
  private long now;
  /** The coordinators whose consumers of the pool's address the cluster knows. */
  final List<SimNode> consumers = new ArrayList<>();
  /** Who holds the leader lock, or null. */
  SimNode lockHolder;
  final List<String> violations = new ArrayList<>();
  /** What takeovers recovered, summed: waiting jobs (J3, J4), dead letters (J5), outcomes (J6). */
  long waitingRecovered;
  long deadRecovered;
  long recentRecovered;
  final List<String> trace = new ArrayList<>();
  private final boolean tracing;

  SimWorld(long seed, boolean tracing) {
    this.rnd = new SplittableRandom(seed);
    this.tracing = tracing;
  }

  long now() {
    return now;
  }

  void at(long time, Runnable task) {
    tasks.add(new Task(Math.max(time, now), seq++, task));
  }

  void after(long delay, Runnable task) {
    at(now + delay, task);
  }

  /** Runs tasks until {@code until}, or until {@code done} holds (checked every second). */
  void runUntil(long until, java.util.function.BooleanSupplier done) {
    long nextCheck = now + 1_000;
    while (!tasks.isEmpty() && tasks.peek().at <= until) {
      Task task = tasks.poll();
      now = task.at;
      executed++;
      task.run.run();
      if (now >= nextCheck) {
        nextCheck = now + 1_000;
        if (done.getAsBoolean()) {
          return;
        }
      }
    }
    now = Math.max(now, until);
  }

  /** A network delay: mostly a few ms, sometimes hundreds (messages overtake each other). */
  long delay() {
    int draw = rnd.nextInt(100);
    return draw < 90 ? 1 + rnd.nextInt(8) : draw < 98 ? 10 + rnd.nextInt(90) : 100 + rnd.nextInt(400);
  }

  /** Sends {@code task} to run on {@code node} after a network delay. */
  void send(SimNode node, Runnable task) {
    after(delay(), () -> node.deliver(task));
  }

  /**
   * Sends to the pool's address: the cluster picks one of the consumers it knows at the time of
   * sending (round robin, as the event bus does); with none, the message is lost.
   */
  void sendToPool(java.util.function.Consumer<SimCoordinator> handler) {
    if (consumers.isEmpty()) {
      return;
    }
    SimNode target = consumers.get(rnd.nextInt(consumers.size()));
    send(target, () -> handler.accept((SimCoordinator) target));
  }

  /** A node is gone from the cluster's view: its lock and its consumers go with it. */
  void removed(SimNode node) {
    consumers.remove(node);
    if (lockHolder == node) {
      lockHolder = null;
      log(node + " removed: lock released");
    }
  }

  /** A coordinator took over from {@code image}. */
  void recovered(dev.shepherd.core.DurableImage image) {
    waitingRecovered += image.jobs().stream().filter(j -> j.dueAt() > 0).count();
    deadRecovered += image.dead().size();
    recentRecovered += image.recent().size();
  }

  void violation(String what) {
    violations.add("t=" + now + " " + what);
  }

  void log(String line) {
    if (tracing) {
      trace.add("t=" + now + " " + line);
    }
  }

  /** A trace line built only when tracing (a replayed seed). */
  void log(java.util.function.Supplier<String> line) {
    if (tracing) {
      trace.add("t=" + now + " " + line.get());
    }
  }
}
