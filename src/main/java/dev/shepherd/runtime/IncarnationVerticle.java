package dev.shepherd.runtime;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One incarnation of a slot: the verticle that hosts the user's {@link JobHandler} on its own
 * context and threading model. A handler that throws, or an exception that reaches this context,
 * is a crash, reported once; an {@link #exit()} is a normal exit; an undeploy by the pool is
 * neither.
 */
final class IncarnationVerticle extends VerticleBase implements WorkerContext {
  private final LocalSlot slot;
  private final int number;
  private final Class<? extends JobHandler> type;
  private final boolean unordered;
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile boolean stoppedByPool;
  private volatile boolean exiting;
  /** The undeploy this incarnation started itself by {@link #exit()}. */
  private volatile Future<Void> exitUndeploy;
  private volatile JobHandler handler;
  private String deploymentId;
  /** Coordinator context only: assignments handed over and not yet completed. */
  private int inFlight;
  private Promise<Void> idle;
  /** Incarnation context only: completions of the current turn. */
  private List<Completion> completions;

  IncarnationVerticle(LocalSlot slot, int number, Class<? extends JobHandler> type,
      boolean unordered) {
    this.slot = slot;
    this.number = number;
    this.type = type;
    this.unordered = unordered;
  }

  @Override
  public int incarnation() {
    return number;
  }

  // ---- verticle lifecycle (incarnation context) ----------------------------------------------

  @Override
  public Future<?> start() throws Exception {
    context.exceptionHandler(this::crash);
    handler = type.getConstructor().newInstance();
    Future<Void> started = handler.start(this);
    return started == null ? Future.succeededFuture() : started;
  }

  @Override
  public Future<?> stop() {
    Future<Void> released;
    if (stoppedByPool) {
      released = Future.succeededFuture();
    } else if (exiting) {
      if (ended.compareAndSet(false, true)) {
        slot.exited(this);
      }
      released = Future.succeededFuture();
    } else {
      released = slot.releasedExternally(this);
    }
    return released.compose(v -> {
      JobHandler h = handler;
      Future<Void> stopped = h == null ? null : h.stop();
      return stopped == null ? Future.succeededFuture() : stopped;
    });
  }

  // ---- assignments ----------------------------------------------------------------------------

  /**
   * Coordinator context: hand one job to this incarnation's context, batched with the others of
   * the coordinator's turn (an unordered WORKER incarnation runs each on the worker pool).
   */
  void deliver(Job job) {
    inFlight++;
    if (unordered) {
      context.executeBlocking(() -> {
        run(job, false);
        return null;
      }, false);
    } else {
      slot.coordinator().outbox().send(context, () -> run(job, true));
    }
  }

  private void run(Job job, boolean onContext) {
    if (ended.get()) {
      return;
    }
    long start = System.nanoTime();
    Future<Object> result;
    Job ready = job;
    BadRequest undecodable = null;
    if (job.payload() instanceof RawJson raw) {
      // Decoded here, on the incarnation's context, so the coordinator never builds the tree.
      try {
        ready = job.withPayload(raw.decodeForWorker());
      } catch (BadRequest e) {
        undecodable = e;
      }
    }
    try {
      result = undecodable != null ? Future.failedFuture(undecodable) : handler.handle(ready);
    } catch (Throwable t) {
      crash(t);
      return;
    }
    if (result == null) {
      crash(new NullPointerException("JobHandler.handle returned null instead of a Future"));
      return;
    }
    result.onComplete(ar -> {
      Completion completion = new Completion(job.assignment(), start,
          ar.succeeded() ? ar.result() : null, ar.failed() ? ar.cause() : null);
      if (onContext && Vertx.currentContext() == context) {
        batch(completion);
      } else {
        slot.completed(this, List.of(completion));
      }
    });
  }

  /** Completions of one turn of this context go to the coordinator together. */
  private void batch(Completion completion) {
    if (completions == null) {
      completions = new ArrayList<>(4);
      context.runOnContext(v -> {
        List<Completion> done = completions;
        completions = null;
        slot.completed(this, done);
      });
    }
    completions.add(completion);
  }

  /** One finished assignment: its result, or the failure the handler returned. */
  record Completion(long assignment, long startNanos, Object result, Throwable failure) {}

  private void crash(Throwable cause) {
    if (!stoppedByPool && ended.compareAndSet(false, true)) {
      slot.crashed(this, cause);
    }
  }

  // ---- coordinator-side bookkeeping -----------------------------------------------------------

  void deployed(String id) {
    this.deploymentId = id;
  }

  String deploymentId() {
    return deploymentId;
  }

  void stopByPool() {
    stoppedByPool = true;
    ended.set(true);
    if (idle != null) {
      idle.tryComplete();
    }
  }

  boolean stoppedByPool() {
    return stoppedByPool;
  }

  boolean exitedItself() {
    return exiting;
  }

  /** Once {@link #exitedItself()}: completes when that undeploy has finished. */
  Future<Void> exitUndeploy() {
    return exitUndeploy;
  }

  void finishedOne() {
    inFlight--;
    if (inFlight <= 0 && idle != null) {
      idle.tryComplete();
    }
  }

  void whenIdle(Promise<Void> promise) {
    idle = promise;
    if (inFlight <= 0 || stoppedByPool) {
      promise.tryComplete();
    }
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
    return slot.id();
  }

  @Override
  public void exit() {
    exiting = true;
    exitUndeploy = vertx.undeploy(deploymentID());
  }
}
