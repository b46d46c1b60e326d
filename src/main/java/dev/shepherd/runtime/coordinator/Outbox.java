package dev.shepherd.runtime.coordinator;

import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work the coordinator hands to other contexts (assignments to incarnations, answers to in-JVM
 * submitters), collected over one coordinator turn and handed over grouped by destination: one
 * task per destination context however many items queued up, in the order they were sent.
 * Confined to the coordinator's context.
 *
 * <p>Every job passes through it twice (its assignment, its answer), so a send costs a list
 * append: the turn's destinations are few (a pool's slots and its submitters' contexts), found by
 * the last one used or a short scan, and a map only once a turn has many.
 */
public final class Outbox {
  private static final Logger LOG = LoggerFactory.getLogger(Outbox.class);
  /** Destinations in one turn past which they are found through a map rather than a scan. */
  private static final int SCANNED = 8;

  private final Executor later;
  private final Runnable flushTask = this::flush;
  private boolean scheduled;
  /** This turn's destinations, in the order first sent to, and each one's tasks. */
  private final ArrayList<Context> targets = new ArrayList<>(SCANNED);
  private final ArrayList<ArrayList<Runnable>> tasks = new ArrayList<>(SCANNED);
  private IdentityHashMap<Context, ArrayList<Runnable>> byTarget;
  private Context lastTarget;
  private ArrayList<Runnable> lastTasks;

  public Outbox(Context home) {
    this(PoolPorts.turns(home));
  }

  /**
   * {@code later} runs a task on the coordinator's context after what is queued there: the
   * turn's end, for an owner whose turns do not end with {@link #flush} themselves.
   */
  Outbox(Executor later) {
    this.later = later;
  }

  /** Queues {@code task} to run on {@code target} after the coordinator's current turn. */
  public void send(Context target, Runnable task) {
    ArrayList<Runnable> list = target == lastTarget ? lastTasks : tasksFor(target);
    list.add(task);
    if (!scheduled) {
      scheduled = true;
      later.execute(flushTask);
    }
  }

  private ArrayList<Runnable> tasksFor(Context target) {
    ArrayList<Runnable> list = null;
    if (byTarget != null) {
      list = byTarget.get(target);
    } else {
      for (int i = 0; i < targets.size(); i++) {
        if (targets.get(i) == target) {
          list = tasks.get(i);
          break;
        }
      }
    }
    if (list == null) {
      list = new ArrayList<>(16);
      targets.add(target);
      tasks.add(list);
      if (byTarget != null) {
        byTarget.put(target, list);
      } else if (targets.size() > SCANNED) {
        byTarget = new IdentityHashMap<>();
        for (int i = 0; i < targets.size(); i++) {
          byTarget.put(targets.get(i), tasks.get(i));
        }
      }
    }
    lastTarget = target;
    lastTasks = list;
    return list;
  }

  /**
   * Hands everything queued over now. The inbox calls it at the end of each batch; for bus
   * messages the flush queued by {@link #send} runs after the messages already queued on the
   * coordinator's event loop, so a burst of them is handed over together.
   */
  public void flush() {
    scheduled = false;
    if (targets.isEmpty()) {
      return;
    }
    for (int i = 0; i < targets.size(); i++) {
      ArrayList<Runnable> list = tasks.get(i);
      targets.get(i).runOnContext(v -> runAll(list));
    }
    targets.clear();
    tasks.clear();
    byTarget = null;
    lastTarget = null;
    lastTasks = null;
  }

  /** Runs {@code tasks} in order; one that throws is logged, and the rest still run. */
  static void runAll(List<Runnable> tasks) {
    for (int i = 0; i < tasks.size(); i++) {
      run(tasks.get(i));
    }
  }

  /** Runs {@code task}; if it throws, logs it. */
  static void run(Runnable task) {
    try {
      task.run();
    } catch (RuntimeException e) {
      LOG.error("a task handed over by a coordinator failed", e);
    }
  }
}
