package dev.shepherd.runtime.slot;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.JobRateLimitedException;
import dev.shepherd.runtime.OnException;
import dev.shepherd.runtime.WorkerContext;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.payload.RawJson;
import dev.shepherd.runtime.trace.AttemptSpan;
import dev.shepherd.runtime.trace.JobTrace;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One incarnation of a slot: the verticle that hosts the user's {@link JobHandler} on its own
 * context and threading model, and reports to its {@link IncarnationOwner}. It reads what the
 * handler does by J1 (docs/rules.md), the same for local slots and worker hosts and in every
 * threading model: a returned future's failure, of any kind, and an {@link Exception} thrown by
 * {@code handle} (unless {@link OnException#CRASH}) fail the job ({@link JobErrors}), except a
 * {@link JobRateLimitedException}, which asks for a hold (F4), thrown or returned; an {@link
 * Error} thrown by {@code handle}, a null future, an exception that reaches this context outside
 * any job's future, and {@link #crash} are a crash, reported once. An {@link #exit()} is a normal
 * exit; a stop by its slot is neither.
 */
public final class IncarnationVerticle extends VerticleBase
    implements WorkerContext, Incarnation {
  private static final Logger LOG = LoggerFactory.getLogger(IncarnationVerticle.class);

  /**
   * Where an incarnation is in its life. Moves happen on several threads (a crash on the
   * incarnation's, a stop on its owner's), through {@link #moveTo} alone. Legal moves: RUNNING
   * to EXITING, RELEASED, CRASHED or STOPPED; EXITING to EXITED, CRASHED or STOPPED; RELEASED to
   * CRASHED or STOPPED; CRASHED and EXITED to STOPPED; STOPPED is final.
   */
  enum Life {
    /** Deploying or deployed: runs what it is handed. */
    RUNNING,
    /** Undeploying itself ({@link #exit()}): still runs what it is handed until its stop. */
    EXITING,
    /** Undeployed by someone other than its slot: finishes what it holds. */
    RELEASED,
    /**
     * Its crash was reported: runs nothing more, and reports no completion (the pool has
     * interrupted what it held).
     */
    CRASHED,
    /** Its normal exit was reported: runs nothing more. */
    EXITED,
    /** Stopped by its slot: runs and reports nothing more. */
    STOPPED;

    boolean runsJobs() {
      return this == RUNNING || this == EXITING || this == RELEASED;
    }

    boolean mayMoveTo(Life next) {
      return switch (this) {
        case RUNNING -> next != RUNNING && next != EXITED;
        case EXITING -> next == EXITED || next == CRASHED || next == STOPPED;
        case RELEASED -> next == CRASHED || next == STOPPED;
        case CRASHED, EXITED -> next == STOPPED;
        case STOPPED -> false;
      };
    }
  }

  private final IncarnationOwner owner;
  private final int number;
  private final Supplier<? extends JobHandler> handlers;
  /**
   * Whether jobs run side by side on the worker pool; a resize may change it (F6 in
   * docs/rules.md).
   */
  private volatile boolean unordered;
  private final OnException onException;
  private final AtomicReference<Life> life = new AtomicReference<>(Life.RUNNING);
  /**
   * Whether its crash was reported: from then on it reports no completion, also once its slot has
   * stopped it (its life is then STOPPED, no longer CRASHED).
   */
  private volatile boolean crashed;
  /** The undeploy this incarnation started itself by {@link #exit()}. */
  private volatile Future<Void> exitUndeploy;
  private volatile JobHandler handler;
  private String deploymentId;
  /** Owner's context only: the jobs handed over and not yet completed. */
  private final AssignedJobs assigned = new AssignedJobs();
  /** Incarnation context only: completions of the current turn. */
  private List<Incarnation.Completion> completions;
  /** Guards {@link #started} and {@link #crashBeforeStart}: a crash may come from any thread. */
  private final Object startLock = new Object();
  /** Whether the handler's start completed, so a crash is a crash and not a failed start. */
  private boolean started;
  /** The first crash asked for before the handler's start completed: it fails the start. */
  private Throwable crashBeforeStart;

  /**
   * Incarnation {@code number} of {@code owner}'s slot, running the handler {@code handlers}
   * makes for it (called once, on the incarnation's context, as it deploys); {@code unordered}
   * runs each assignment on the worker pool (a WORKER incarnation with capacity above 1); {@code
   * onException} says what an exception thrown by {@code handle} means.
   */
  public IncarnationVerticle(IncarnationOwner owner, int number,
      Supplier<? extends JobHandler> handlers, boolean unordered, OnException onException) {
    this.owner = owner;
    this.number = number;
    this.handlers = handlers;
    this.unordered = unordered;
    this.onException = onException;
  }

  @Override
  public int incarnation() {
    return number;
  }

  /**
   * F6 (docs/rules.md): from the next job on, runs each on the worker pool ({@code true}: a
   * WORKER incarnation whose capacity a resize raised above 1) or one after another.
   */
  @Override
  public void unordered(boolean sideBySide) {
    this.unordered = sideBySide;
  }

  /** The one place the life changes; false when {@code next} is not legal from where it is. */
  private boolean moveTo(Life next) {
    Life current;
    do {
      current = life.get();
      if (!current.mayMoveTo(next)) {
        return false;
      }
    } while (!life.compareAndSet(current, next));
    return true;
  }

  // ---- verticle lifecycle (incarnation context) ----------------------------------------------

  @Override
  public Future<?> start() throws Exception {
    context.exceptionHandler(this::crash);
    // A factory that throws, or makes nothing, fails the creation (P2) as a failed start does.
    JobHandler made = handlers.get();
    if (made == null) {
      throw new NullPointerException("the handler factory " + handlers + " returned null");
    }
    handler = made;
    Future<Void> starting = handler.start(this);
    return (starting == null ? Future.<Void>succeededFuture() : starting).compose(v -> {
      Throwable failure;
      synchronized (startLock) {
        started = true;
        failure = crashBeforeStart;
      }
      // The pool has not seen this incarnation yet: a crash now is a creation that failed (P2).
      return failure == null ? Future.succeededFuture() : Future.failedFuture(failure);
    });
  }

  @Override
  public Future<?> stop() {
    Future<Void> released;
    if (moveTo(Life.EXITED)) {
      owner.exited(this);
      released = Future.succeededFuture();
    } else if (life.get() == Life.STOPPED || exitUndeploy != null) {
      released = Future.succeededFuture();
    } else {
      moveTo(Life.RELEASED);
      released = owner.releasedExternally(this);
    }
    return released.compose(v -> {
      JobHandler h = handler;
      Future<Void> stopped = h == null ? null : h.stop();
      return stopped == null ? Future.succeededFuture() : stopped;
    });
  }

  // ---- assignments ----------------------------------------------------------------------------

  /**
   * Owner's context, once deployed: hands one job to this incarnation's context, batched with the
   * others of the owner's turn (an unordered WORKER incarnation runs each on the worker pool).
   */
  @Override
  public void deliver(Job job) {
    JobControl.get().runsOn(job, context);
    assigned.add(job);
    if (unordered) {
      context.executeBlocking(() -> {
        run(job, false);
        return null;
      }, false);
    } else {
      owner.handOver(context, () -> run(job, true));
    }
  }

  private void run(Job job, boolean onContext) {
    if (!life.get().runsJobs()) {
      return;
    }
    long start = System.nanoTime();
    Future<?> result;
    BadRequest undecodable = null;
    if (job.payload() instanceof RawJson raw) {
      // Decoded here, on the incarnation's context, so the coordinator never builds the tree.
      try {
        JobControl.get().decodedAs(job, raw.decodeForWorker());
      } catch (BadRequest e) {
        undecodable = e;
      }
    }
    Object trace = JobControl.get().trace(job);
    AttemptSpan span = null;
    try {
      if (undecodable != null) {
        result = Future.failedFuture(undecodable);
      } else if (trace == null) {
        result = handler.handle(job);
      } else {
        // T1 (docs/rules.md): the attempt's span is current while the handler runs.
        span = AttemptSpan.start((JobTrace) trace, job.id(), job.attempt(), owner.worker(),
            (ContextInternal) context);
        JobControl.get().traced(job, span);
        result = span.call(() -> handler.handle(job));
      }
    } catch (Exception e) {
      if (onException == OnException.CRASH && !(e instanceof JobRateLimitedException)) {
        if (span != null) {
          span.interrupted("WORKER_STOPPED", e);
        }
        crash(e);
        return;
      }
      if (LOG.isDebugEnabled()) {
        LOG.debug("{} incarnation {}: job {} failed by a thrown exception",
            LogText.quote(owner.worker()), number, LogText.quote(job.id()), e);
      }
      result = Future.failedFuture(e);
    } catch (Throwable t) {
      if (span != null) {
        span.interrupted("WORKER_STOPPED", t);
      }
      crash(t);
      return;
    }
    if (result == null) {
      crash(new NullPointerException("JobHandler.handle returned null instead of a Future"));
      return;
    }
    AttemptSpan attempt = span;
    result.onComplete(ar -> {
      if (attempt != null) {
        ended(attempt, ar.failed() ? ar.cause() : null);
      }
      if (crashed) {
        return;
      }
      Incarnation.Completion completion = new Incarnation.Completion(job, job.assignment(), start,
          ar.succeeded() ? ar.result() : null, ar.failed() ? ar.cause() : null);
      if (onContext && Vertx.currentContext() == context) {
        batch(completion);
      } else {
        owner.completed(this, List.of(completion));
      }
    });
  }

  /** The attempt's span ends with what its handler answered (T1 in docs/rules.md). */
  private static void ended(AttemptSpan span, Throwable failure) {
    if (failure == null) {
      span.completed();
    } else if (failure instanceof JobRateLimitedException) {
      span.rateLimited();
    } else {
      span.failed(String.valueOf(JobErrors.of(failure).code()), failure);
    }
  }

  /** Completions of one turn of this context go to the owner together. */
  private void batch(Incarnation.Completion completion) {
    if (completions == null) {
      completions = new ArrayList<>(4);
      context.runOnContext(v -> {
        List<Incarnation.Completion> done = completions;
        completions = null;
        if (!crashed) {
          owner.completed(this, done);
        }
      });
    }
    completions.add(completion);
  }

  /**
   * {@inheritDoc}
   *
   * <p>From any thread; the first crash of an incarnation is reported (and logged by its owner),
   * later ones and a crash after its slot stopped it are ignored. One that comes before the
   * handler's start completed fails that start instead.
   */
  @Override
  public void crash(Throwable cause) {
    Throwable reported = cause != null ? cause
        : new IllegalStateException("crash requested by the worker, without a cause");
    synchronized (startLock) {
      if (!started) {
        if (crashBeforeStart == null) {
          crashBeforeStart = reported;
        }
        return;
      }
    }
    if (moveTo(Life.CRASHED)) {
      crashed = true;
      owner.crashed(this, reported);
    }
  }

  // ---- owner-side bookkeeping -----------------------------------------------------------------

  @Override
  public void deployed(String id) {
    this.deploymentId = id;
  }

  @Override
  public String deploymentId() {
    return deploymentId;
  }

  /** Its slot stops it: nothing it does afterwards is reported, and it runs nothing more. */
  @Override
  public void stopBySlot() {
    moveTo(Life.STOPPED);
    for (Job job : assigned.all()) {
      if (JobControl.get().trace(job) instanceof AttemptSpan span) {
        span.interrupted("WORKER_STOPPED", null);
      }
    }
    assigned.released();
  }

  @Override
  public boolean stoppedBySlot() {
    return life.get() == Life.STOPPED;
  }

  /** Whether it started undeploying itself ({@link #exit()}). */
  public boolean exitedItself() {
    return exitUndeploy != null;
  }

  /** Once {@link #exitedItself()}: completes when that undeploy has finished. */
  public Future<Void> exitUndeploy() {
    return exitUndeploy;
  }

  /** Owner context: {@code job}, handed over here, completed (its answer is on the way). */
  @Override
  public void finishedOne(Job job) {
    assigned.remove(job);
  }

  /** Owner context: the job of {@code assignment} was cancelled while running. */
  @Override
  public void cancel(long assignment) {
    Job job = assigned.get(assignment);
    if (job != null) {
      JobControl.get().cancel(job);
    }
  }

  @Override
  public void whenIdle(Promise<Void> promise) {
    assigned.whenIdle(promise, stoppedBySlot());
  }

  // ---- WorkerContext --------------------------------------------------------------------------

  @Override
  public Vertx vertx() {
    return vertx;
  }

  @Override
  public Context context() {
    return context;
  }

  @Override
  public JsonObject config() {
    return super.config();
  }

  @Override
  public String worker() {
    return owner.worker();
  }

  @Override
  public void exit() {
    moveTo(Life.EXITING);
    exitUndeploy = vertx.undeploy(deploymentID());
  }
}
