package dev.shepherd.runtime;

import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work the coordinator hands to other contexts (assignments to incarnations, answers to in-JVM
 * submitters), grouped by destination and handed over once per coordinator turn: one task per
 * destination context however many items queued up. Confined to the coordinator's context.
 */
public final class Outbox {
  private static final Logger LOG = LoggerFactory.getLogger(Outbox.class);

  /** The coordinator's context's next turn. */
  private final Executor home;
  private final Runnable flush = this::flush;
  private final Map<Context, ArrayList<Runnable>> pending = new HashMap<>();
  private boolean scheduled;

  public Outbox(Context home) {
    this(PoolPorts.turns(home));
  }

  /** {@code turns} runs a task on the coordinator's context after what is queued there. */
  Outbox(Executor turns) {
    this.home = turns;
  }

  /** Queues {@code task} to run on {@code target} after the coordinator's current turn. */
  public void send(Context target, Runnable task) {
    ArrayList<Runnable> tasks = pending.get(target);
    if (tasks == null) {
      tasks = new ArrayList<>(8);
      pending.put(target, tasks);
    }
    tasks.add(task);
    if (!scheduled) {
      scheduled = true;
      home.execute(flush);
    }
  }

  /**
   * Hands everything queued over now. The inbox calls it at the end of each batch; for bus
   * messages the task scheduled by {@link #send} runs after the messages already queued on the
   * coordinator's event loop, so a burst of them is handed over together.
   */
  public void flush() {
    scheduled = false;
    if (pending.isEmpty()) {
      return;
    }
    for (Map.Entry<Context, ArrayList<Runnable>> entry : pending.entrySet()) {
      ArrayList<Runnable> tasks = entry.getValue();
      entry.getKey().runOnContext(v -> runAll(tasks));
    }
    pending.clear();
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
