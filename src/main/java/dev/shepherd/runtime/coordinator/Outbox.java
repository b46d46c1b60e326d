package dev.shepherd.runtime.coordinator;

import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work the coordinator hands to other contexts (assignments to incarnations, answers to in-JVM
 * submitters), collected over one coordinator turn ({@link TurnBuffer}) and handed over grouped by
 * destination: one task per destination context however many items queued up. Confined to the
 * coordinator's context.
 */
public final class Outbox {
  private static final Logger LOG = LoggerFactory.getLogger(Outbox.class);

  /** One task for one context. */
  private record Handover(Context target, Runnable task) {}

  private final TurnBuffer<Handover> turn;
  /** Reused by each flush: the turn's tasks by destination, in the order they were sent. */
  private final Map<Context, ArrayList<Runnable>> byTarget = new HashMap<>();

  public Outbox(Context home) {
    this(PoolPorts.turns(home));
  }

  /** {@code turns} runs a task on the coordinator's context after what is queued there. */
  Outbox(Executor turns) {
    this.turn = new TurnBuffer<>(turns, TurnBuffer.UNCAPPED, this::handOver);
  }

  /** Queues {@code task} to run on {@code target} after the coordinator's current turn. */
  public void send(Context target, Runnable task) {
    turn.add(new Handover(target, task));
  }

  /**
   * Hands everything queued over now. The inbox calls it at the end of each batch; for bus
   * messages the flush queued by {@link #send} runs after the messages already queued on the
   * coordinator's event loop, so a burst of them is handed over together.
   */
  public void flush() {
    turn.flush();
  }

  private void handOver(ArrayList<Handover> items) {
    for (int i = 0; i < items.size(); i++) {
      Handover h = items.get(i);
      ArrayList<Runnable> tasks = byTarget.get(h.target());
      if (tasks == null) {
        tasks = new ArrayList<>(8);
        byTarget.put(h.target(), tasks);
      }
      tasks.add(h.task());
    }
    for (Map.Entry<Context, ArrayList<Runnable>> entry : byTarget.entrySet()) {
      ArrayList<Runnable> tasks = entry.getValue();
      entry.getKey().runOnContext(v -> runAll(tasks));
    }
    byTarget.clear();
  }

  private static void runAll(ArrayList<Runnable> tasks) {
    for (int i = 0; i < tasks.size(); i++) {
      try {
        tasks.get(i).run();
      } catch (RuntimeException e) {
        LOG.error("a task handed over by a coordinator failed", e);
      }
    }
  }
}
