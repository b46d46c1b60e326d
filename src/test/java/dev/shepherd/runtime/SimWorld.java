package dev.shepherd.runtime;

import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The world of one failover simulation: simulated time on a seeded, single-threaded task queue,
 * a network that delays (and so reorders) every message, drops some of the hosts' heartbeats and
 * registrations and loses what crosses a partition, the cluster's view of its members (a killed member leaves after {@link
 * #KILL_DETECT_MS}, a paused or cut-off one after {@link #DETECT_MS}), the leader lock, the
 * addresses the coordinators consume (the pool's, by the cluster's view) and the replicated
 * store. No threads, no clock: a seed replays a run exactly.
 */
final class SimWorld {
  /** A member silent this long is removed by the others (Hazelcast's max-no-heartbeat). */
  static final long DETECT_MS = 5_000;
  /** A killed member's connections are refused: it is removed this fast. */
  static final long KILL_DETECT_MS = 500;
  /** The wall clock's reading at simulated time 0. */
  static final long EPOCH_MS = 1_800_000_000_000L;

  /** One task at a time, in time order, then in the order scheduled. */
  static final class Task {
    final long at;
    final long seq;
    final Runnable run;
    boolean cancelled;

    Task(long at, long seq, Runnable run) {
      this.at = at;
      this.seq = seq;
      this.run = run;
    }
  }

  final SplittableRandom rnd;
  final SimStore store = new SimStore(this);
  private final PriorityQueue<Task> tasks = new PriorityQueue<>((a, b) -> a.at != b.at
      ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
  private long seq;
  /** Tasks run so far. */
  long executed;
  private long now;
  /** The coordinators whose consumers of the pool's addresses the cluster knows. */
  final List<SimPoolNode> consumers = new ArrayList<>();
  /** The nodes that receive at an address of their own (submitters' replies, hosts' commands). */
  private final Map<String, SimNode> addresses = new HashMap<>();
  /** Who holds the leader lock, or null. */
  SimNode lockHolder;
  final List<String> violations = new ArrayList<>();
  /** What takeovers recovered, summed: waiting jobs (J3, J4), dead letters (J5), outcomes (J6). */
  long waitingRecovered;
  long deadRecovered;
  long recentRecovered;
  /** Faults injected. */
  long kills;
  long pauses;
  long partitions;
  long clockSteps;
  long dropped;
  /** Jobs handed to local slots' incarnations, and those incarnations' crashes. */
  long localRuns;
  long localCrashes;
  final List<String> trace = new ArrayList<>();
  private final boolean tracing;

  SimWorld(long seed, boolean tracing) {
    this.rnd = new SplittableRandom(seed);
    this.tracing = tracing;
  }

  long now() {
    return now;
  }

  Task at(long time, Runnable task) {
    Task t = new Task(Math.max(time, now), seq++, task);
    tasks.add(t);
    return t;
  }

  Task after(long delay, Runnable task) {
    return at(now + delay, task);
  }

  /** Runs tasks until {@code until}, or until {@code done} holds (checked every second). */
  void runUntil(long until, java.util.function.BooleanSupplier done) {
    long nextCheck = now + 1_000;
    while (!tasks.isEmpty() && tasks.peek().at <= until) {
      Task task = tasks.poll();
      if (task.cancelled) {
        continue;
      }
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

  /** {@code node} receives what is sent to {@code address}. */
  void listen(String address, SimNode node) {
    addresses.put(address, node);
  }

  /**
   * Sends {@code body} from {@code from} to the node listening at {@code address} (it hands it to
   * {@link SimNode#receive}); lost when nobody listens, when a partition lies between the two, or,
   * now and then, when it is a message the hosts' protocol sends again anyway (a registration, a
   * heartbeat, a request to register again). Commands and reports are not dropped at random: a
   * lost deploy command leaves a host's slot installing for good (no creation deadline for host
   * slots yet), which is a gap of the protocol, not of the failover this simulation checks.
   */
  void sendTo(SimNode from, String address, Object body, Consumer<Message<Object>> replies) {
    SimNode to = addresses.get(address);
    if (to == null || cut(from, to)) {
      return;
    }
    if (to instanceof SimHost && !(body instanceof io.vertx.core.buffer.Buffer) && drop()) {
      return;
    }
    SimMessage message = new SimMessage(this, from, to, address, body, replies);
    send(to, () -> {
      if (!cut(from, to)) {
        to.receive(message);
      }
    });
  }

  /**
   * Sends {@code body} to one of the pool's addresses: the cluster picks one of the consumers it
   * knows at the time of sending (as the event bus does); with none, a request fails {@code
   * NO_HANDLERS} (its {@code replies} get the {@link ReplyException}) and a send is lost.
   */
  void sendToPool(SimNode from, String address, Object body,
      Consumer<Message<Object>> replies) {
    if (consumers.isEmpty()) {
      if (replies != null) {
        // The sender's node knows of no consumer: the request fails at once (NO_HANDLERS).
        SimMessage failure = new SimMessage(this, from, from, address,
            new ReplyException(ReplyFailure.NO_HANDLERS, "No handlers for address " + address),
            null);
        after(1, () -> from.deliver(() -> replies.accept(failure)));
      }
      return;
    }
    List<SimPoolNode> reachable = new ArrayList<>(consumers.size());
    for (SimPoolNode c : consumers) {
      if (!cut(from, c)) {
        reachable.add(c);
      }
    }
    if (reachable.isEmpty()) {
      return;
    }
    SimPoolNode target = reachable.get(rnd.nextInt(reachable.size()));
    if (from instanceof SimHost && (address.endsWith(".register")
        || address.endsWith(".heartbeat")) && drop()) {
      return;
    }
    SimMessage message = new SimMessage(this, from, target, address, body, replies);
    send(target, () -> {
      if (!cut(from, target)) {
        target.receive(message);
      }
    });
  }

  /** One message in fifty is lost. */
  private boolean drop() {
    if (rnd.nextInt(50) == 0) {
      dropped++;
      return true;
    }
    return false;
  }

  /**
   * Whether a partition lies between two nodes: a cut-off coordinator reaches neither the other
   * coordinators, the store nor the hosts (its submitters are on its side).
   */
  static boolean cut(SimNode a, SimNode b) {
    return (a.partitioned && !(b instanceof SimSubmitter))
        || (b.partitioned && !(a instanceof SimSubmitter));
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

  boolean tracing() {
    return tracing;
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
