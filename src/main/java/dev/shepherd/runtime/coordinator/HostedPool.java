package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.PoolError;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolState;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.Sender;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.spi.cluster.ClusterManager;
import java.util.ArrayList;
import java.util.function.Consumer;

/**
 * A pool as an extension that runs some of its slots on worker hosts sees it ({@link
 * PoolExtension}): what such an extension may read (the pool's name, addresses, host settings,
 * state and time), where it may listen (the bus, the cluster), and the only things it may do to
 * the pool (give and take back slot handles, report facts, take batches of completions, run on
 * the pool's context). Every method is called on the pool's context, except {@link #execute}.
 */
public interface HostedPool {

  String name();

  /** The traces of the pool's jobs (T1 in docs/rules.md), or null while tracing is off. */
  default dev.shepherd.runtime.trace.JobTraces traces() {
    return null;
  }

  /** The pool's event-bus addresses (its hosts' register, heartbeat, deregister, completed). */
  Addresses addresses();

  /** How long a host may be silent before it is lost (H5 in docs/rules.md). */
  long heartbeatTimeoutMs();

  /** The term that fences the pool's commands to its hosts (0 without high availability). */
  long term();

  PoolState state();

  /** The pool's monotonic time, on which every host lease is measured. */
  long now();

  /**
   * A buffer of this pool's context's turns (commands to one host leave as one message), flushed
   * at once whenever it holds {@code cap} items.
   */
  <T> TurnBuffer<T> turnBuffer(int cap, Consumer<ArrayList<T>> flush);

  /**
   * What the pool sends on without waiting for a reply (commands to a host, its heartbeat
   * answers): the event bus in production, the simulated network under the failover simulation.
   */
  Sender sender();

  EventBus eventBus();

  /** The cluster this node is in, or null when its Vert.x is not clustered. */
  ClusterManager clusterManager();

  /** Runs {@code task} on the pool's context; any thread. */
  void execute(Runnable task);

  /** Adds an observer of the pool's notices and stats. */
  void observe(PoolObserver observer);

  void unobserve(PoolObserver observer);

  /**
   * Gives the pool the handle of a slot it was not configured with (a worker host's), before the
   * event that makes the pool deploy it. False, and nothing changes, when the id has a handle.
   */
  boolean addSlot(SlotHandle handle);

  /** Takes back a handle given with {@link #addSlot} that the pool never came to know. */
  void removeSlot(SlotHandle handle);

  /**
   * Applies a fact reported from outside the JVM's own slots (a worker host's report, its
   * registration, loss or departure) and returns the refusal, or null.
   */
  PoolError report(PoolEvent fact);

  /**
   * A job ran on {@code worker}, a worker host's slot, for {@code runNanos} as the host measured
   * it: the pool's observers hear it as they hear a local slot's run (T3 in docs/rules.md).
   */
  default void ran(String worker, long runNanos) {}

  /**
   * Hands the batch form of {@code <prefix>.completed} (a body with {@code host} or {@code
   * items}) to {@code handler} (null: to nobody), on the pool's context.
   */
  void handleCompletionBatches(Handler<Message<Object>> handler);
}
