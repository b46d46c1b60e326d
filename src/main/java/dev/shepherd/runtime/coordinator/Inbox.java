package dev.shepherd.runtime.coordinator;

import io.netty.util.internal.PlatformDependent;
import io.vertx.core.Context;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The only way into a pool's state: one turn at a time, whoever runs it. Every entry (a submit
 * from an in-JVM caller, a completion from an incarnation, a bus message, a timer) queues its task
 * here; a turn drains a bounded batch of them, then hands the coordinator's outbox over ({@code
 * endOfTurn}). The turn flag ({@code turn}, taken with a compare-and-set, released with a volatile
 * write) gives each turn the writes of the turns before it, so the single-writer rule holds
 * whichever thread runs the turn.
 *
 * <p>Off ({@link CallerRuns}), every turn runs on the coordinator's context: one context task
 * drains everything that queued up meanwhile. On, the thread that queues a task runs the turn
 * itself when no turn is under way, nothing else waits and the pool is quiet (flat combining,
 * for a pool with at most a job per slot in flight): at one in flight a
 * job then crosses submitter -> incarnation -> submitter, not the coordinator's event loop too. A
 * caller runs at most {@link #CALLER_BUDGET} tasks; what is left then goes to the coordinator's
 * context, so a caller is never kept long. A turn runs the pool's own code only: jobs' handlers
 * run on their incarnations' contexts.
 */
public final class Inbox {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Inbox.class);
  private static final int BATCH = 4096;
  /** The most tasks a caller's thread runs before it hands the rest to the context. */
  static final int CALLER_BUDGET = 64;

  /** The coordinator's context's next turn. */
  private final Executor context;
  private final Runnable drain = this::drain;
  /**
   * Many threads offer, one turn at a time polls: Netty's multi-producer single-consumer queue
   * (JCTools', as Netty's event loops use for their tasks), chunks of slots, where a linked queue
   * allocated a node per hand-in and paid a compare-and-set per poll. A poll is made only under
   * the turn flag, whose release and next take order one turn's polls before the next's, whatever
   * thread runs it; {@code isEmpty} is safe from any thread.
   */
  private final Queue<Runnable> queue = PlatformDependent.newMpscQueue();
  /** A drain is queued on the context. */
  private final AtomicBoolean scheduled = new AtomicBoolean();
  /** A turn is under way (on any thread). */
  private final AtomicBoolean turn = new AtomicBoolean();
  private volatile boolean callerRuns;
  /** The pool was quiet at the end of the last turn (see {@link #quiet(boolean)}). */
  private volatile boolean quiet = true;

  private final Runnable endOfTurn;
  /** Runs before each batch's tasks, and again every {@link #CLOCK_EVERY} of them. */
  private final Runnable startOfTurn;
  /** Tasks after which a long batch starts its turn again (the coordinator reads its clock). */
  static final int CLOCK_EVERY = 64;

  /** {@code endOfTurn} runs after each batch (the coordinator hands its outbox over). */
  public Inbox(Context context, Runnable endOfTurn) {
    this(PoolPorts.turns(context), () -> { }, endOfTurn, false);
  }

  /**
   * {@code turns} runs a task on the coordinator's context after what is queued there; {@code
   * callerRuns} lets the thread that hands a task in run the turn itself.
   */
  Inbox(Executor turns, Runnable endOfTurn, boolean callerRuns) {
    this(turns, () -> { }, endOfTurn, callerRuns);
  }

  /**
   * The same, with {@code startOfTurn} run before each batch's tasks (and again every {@link
   * #CLOCK_EVERY} of them in a long batch).
   */
  Inbox(Executor turns, Runnable startOfTurn, Runnable endOfTurn, boolean callerRuns) {
    this.context = turns;
    this.startOfTurn = startOfTurn;
    this.endOfTurn = endOfTurn;
    this.callerRuns = callerRuns;
  }

  /** Whether callers run turns themselves. */
  boolean callerRuns() {
    return callerRuns;
  }

  /**
   * Turns caller-runs off from now on (a pool whose entries are not all turns, such as a highly
   * available one); before the pool starts.
   */
  void onContextOnly() {
    callerRuns = false;
  }

  /**
   * Whether the pool is quiet ({@code true}: so few jobs in flight that a caller's turn of one
   * task saves crossings rather than losing a batch), as its last turn left it; the turn's end
   * says so. Only in a quiet pool does a caller run the turn itself.
   */
  void quiet(boolean quiet) {
    this.quiet = quiet;
  }

  /** From any thread; with caller-runs on, may run the turn, this task included, right here. */
  public void offer(Runnable task) {
    // Only a caller that finds nothing waiting, in a quiet pool, runs the turn:
    // under load the context's batches carry the work, as they do with caller-runs off (a
    // caller's turn of one task would flush one hand-over, and wake one thread, per job). Both
    // are hints only; the flag and the recheck after each release keep the turns one at a time
    // and lose nothing.
    boolean idle = quiet && queue.isEmpty();
    queue.offer(task);
    if (callerRuns && idle) {
      runAsCaller();
    } else {
      schedule();
    }
  }

  /**
   * An entry that arrives as a task of the coordinator's own context (a bus message's handler):
   * under load, with caller-runs on, it runs at once when no other turn is under way, after the
   * hand-ins queued before it, and the turn's end (the outbox's flush) is left to a drain queued
   * behind the context's waiting tasks. A burst of messages then costs what it costs with
   * caller-runs off: each handler run in its own task, one flush for the burst, and no hop through
   * the queue. In a quiet pool, with caller-runs off, or while another turn is under way, it is
   * handed in as any entry ({@link #offer}). Call it on the coordinator's context only.
   */
  public <T> void onContext(Consumer<T> handler, T value) {
    if (!callerRuns || quiet || !turn.compareAndSet(false, true)) {
      offer(() -> handler.accept(value));
      return;
    }
    try {
      Runnable earlier;
      int ran = 0;
      while (ran++ < BATCH && (earlier = queue.poll()) != null) {
        run(earlier);
      }
      try {
        handler.accept(value);
      } catch (RuntimeException | AssertionError e) {
        LOG.error("coordinator task failed", e);
      }
    } finally {
      turn.set(false);
    }
    schedule();
  }

  private void schedule() {
    if (scheduled.compareAndSet(false, true)) {
      context.execute(drain);
    }
  }

  /**
   * Runs turns on this thread while no other turn is under way, work is queued and the pool stays
   * quiet, up to {@link #CALLER_BUDGET} tasks. A task queued while another turn held the flag is seen by that turn's
   * recheck after its release, so none is left behind.
   */
  private void runAsCaller() {
    int budget = CALLER_BUDGET;
    while (!queue.isEmpty() && turn.compareAndSet(false, true)) {
      int ran;
      try {
        ran = runBatch(budget);
      } finally {
        turn.set(false);
      }
      budget -= ran;
      if (budget <= 0 || !quiet) {
        if (!queue.isEmpty()) {
          schedule();
        }
        return;
      }
    }
  }

  /** A turn on the coordinator's context. */
  private void drain() {
    if (!callerRuns) {
      // Only the context runs turns: the flag is always free here.
      turn.set(true);
      runBatch(BATCH);
      turn.set(false);
      scheduled.set(false);
      if (!queue.isEmpty()) {
        schedule();
      }
      return;
    }
    scheduled.set(false);
    if (!turn.compareAndSet(false, true)) {
      // A caller's turn is under way: its recheck after its release takes what is queued.
      return;
    }
    // While this batch runs, hand-ins need no further drain: the recheck below takes them, as
    // with caller-runs off (clearing the mark first let hand-ins queue a drain each under load:
    // a saturated pool then answered 15-20% fewer jobs per second than with caller-runs off).
    boolean marked = scheduled.compareAndSet(false, true);
    try {
      runBatch(BATCH);
    } finally {
      turn.set(false);
    }
    if (marked) {
      scheduled.set(false);
    }
    if (!queue.isEmpty()) {
      schedule();
    }
  }

  /** Under the turn flag: one task, whose failure is logged and ends nothing else. */
  private static void run(Runnable task) {
    try {
      task.run();
    } catch (RuntimeException | AssertionError e) {
      LOG.error("coordinator task failed", e);
    }
  }

  /** Under the turn flag: runs up to {@code max} tasks, then the end of the turn. */
  private int runBatch(int max) {
    Runnable task;
    int ran = 0;
    startOfTurn.run();
    while (ran < max && (task = queue.poll()) != null) {
      run(task);
      if (++ran % CLOCK_EVERY == 0) {
        startOfTurn.run();
      }
    }
    try {
      endOfTurn.run();
    } catch (RuntimeException e) {
      LOG.error("coordinator's end of turn failed", e);
    }
    return ran;
  }
}
