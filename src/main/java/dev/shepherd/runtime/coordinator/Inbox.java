package dev.shepherd.runtime.coordinator;

import io.vertx.core.Context;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Work handed to the coordinator from other threads (in-JVM submitters, local slots), run on the
 * coordinator's context in batches: one context task drains everything that queued up meanwhile.
 */
public final class Inbox {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Inbox.class);
  private static final int BATCH = 4096;

  /** The coordinator's context's next turn. */
  private final Executor context;
  private final Runnable drain = this::drain;
  private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean scheduled = new AtomicBoolean();

  private final Runnable endOfTurn;

  /** {@code endOfTurn} runs after each batch (the coordinator hands its outbox over). */
  public Inbox(Context context, Runnable endOfTurn) {
    this(PoolPorts.turns(context), endOfTurn);
  }

  /** {@code turns} runs a task on the coordinator's context after what is queued there. */
  Inbox(Executor turns, Runnable endOfTurn) {
    this.context = turns;
    this.endOfTurn = endOfTurn;
  }

  /** From any thread. */
  public void offer(Runnable task) {
    queue.offer(task);
    if (scheduled.compareAndSet(false, true)) {
      context.execute(drain);
    }
  }

  private void drain() {
    Runnable task;
    int ran = 0;
    while (ran < BATCH && (task = queue.poll()) != null) {
      try {
        task.run();
      } catch (RuntimeException | AssertionError e) {
        LOG.error("coordinator task failed", e);
      }
      ran++;
    }
    endOfTurn.run();
    scheduled.set(false);
    if (!queue.isEmpty() && scheduled.compareAndSet(false, true)) {
      context.execute(drain);
    }
  }
}
