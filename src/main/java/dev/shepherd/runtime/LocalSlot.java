package dev.shepherd.runtime;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Exit;
import dev.shepherd.core.JobError;
import dev.shepherd.core.PoolEvent;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A slot whose incarnations run in this JVM. Assignments are handed straight to the current
 * incarnation's context and completions come back through the coordinator's inbox: no event-bus
 * hop, no JSON copy. Lives on the coordinator's context; the incarnation reports from its own.
 */
final class LocalSlot implements SlotHandle, IncarnationOwner {
  private static final Logger LOG = LoggerFactory.getLogger(LocalSlot.class);
  /**
   * How long the pool's stop waits for an incarnation stopped while still deploying: a start()
   * that never ends must not hold the stop forever (it is undeployed if it ever starts).
   */
  static final long DEPLOYING_STOP_WAIT_MS = 2_000;

  private final String id;
  private final Coordinator coordinator;
  private final PoolConfig config;
  /** What makes each incarnation's handler. */
  private final Supplier<? extends JobHandler> handlers;
  /**
   * Where incarnations are deployed from: a context outside the PoolVerticle's deployment, so
   * incarnations are not its children. Vert.x undeploys children before their parent, and a
   * WORKER incarnation busy in a job runs its stop() only after that job: undeploying the pool
   * would then start the graceful stop late and keep dispatching queued jobs meanwhile (P16 in
   * docs/rules.md). As top-level deployments they are stopped by the pool itself, after its drain.
   */
  private final ContextInternal deployFrom;
  /** The newest incarnation asked for, until it is stopped. */
  private IncarnationVerticle current;
  private final List<Future<?>> undeploys = new ArrayList<>();
  /** Incarnations stopped while still deploying: completed once they are undeployed too. */
  private final Map<IncarnationVerticle, Promise<Void>> stoppedWhileDeploying = new HashMap<>();

  LocalSlot(String id, Coordinator coordinator, PoolConfig config) {
    this.id = id;
    this.coordinator = coordinator;
    this.config = config;
    this.handlers = config.handlers();
    this.deployFrom = ((VertxInternal) coordinator.vertx()).createEventLoopContext();
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String worker() {
    return id;
  }

  @Override
  public void handOver(io.vertx.core.Context target, Runnable task) {
    coordinator.outbox().send(target, task);
  }

  @Override
  public void deploy(int number) {
    boolean unordered = WorkerConfig.unordered(config.threading(),
        config.settings().slots().get(0).maxConcurrency());
    IncarnationVerticle incarnation =
        new IncarnationVerticle(this, number, handlers, unordered, config.onException());
    current = incarnation;
    DeploymentOptions options = new DeploymentOptions()
        .setThreadingModel(config.threading())
        .setConfig(config.workerConfig().copy());
    deployFrom.runOnContext(v -> coordinator.vertx().deployVerticle(incarnation, options)
        .onComplete(ar -> coordinator.execute(() -> deployed(incarnation,
            ar.succeeded() ? ar.result() : null, ar.cause()))));
  }

  private void deployed(IncarnationVerticle incarnation, String deploymentId, Throwable cause) {
    Promise<Void> gone = stoppedWhileDeploying.remove(incarnation);
    if (deploymentId == null) {
      if (gone != null) {
        gone.tryComplete();
      }
      if (incarnation.stoppedBySlot()) {
        // Stopped while deploying (the pool stops, or Vert.x closes): its failure is no news.
        LOG.debug("pool {}: {} incarnation {}, stopped while deploying, did not deploy: {}",
            coordinator.name(), LogText.quote(id), incarnation.incarnation(),
            LogText.quote(cause));
      } else {
        LOG.warn("pool {}: {} incarnation {} failed to deploy: {}", coordinator.name(),
            LogText.quote(id), incarnation.incarnation(), LogText.quote(cause));
      }
      if (current == incarnation) {
        current = null;
      }
      coordinator.localFact(new PoolEvent.CreationFailed(id, incarnation.incarnation(),
          String.valueOf(cause), coordinator.now()));
      return;
    }
    incarnation.deployed(deploymentId);
    if (incarnation.stoppedBySlot()) {
      Future<Void> undeployed = undeploy(incarnation);
      if (gone != null) {
        undeployed.onComplete(ar -> gone.tryComplete());
      }
      return;
    }
    coordinator.localFact(new PoolEvent.WorkerCreated(id, incarnation.incarnation(),
        coordinator.now()));
  }

  @Override
  public void stop(int number, Exit reason) {
    IncarnationVerticle incarnation = current;
    if (incarnation == null || incarnation.incarnation() != number) {
      return;
    }
    current = null;
    incarnation.stopBySlot();
    if (incarnation.deploymentId() != null) {
      undeploy(incarnation);
    } else {
      // deployed() undeploys it; until then undeployed() waits for it as well, within limits.
      Promise<Void> gone = Promise.promise();
      stoppedWhileDeploying.put(incarnation, gone);
      coordinator.scheduler().after(DEPLOYING_STOP_WAIT_MS, gone::tryComplete);
      track(gone.future());
    }
  }

  private Future<Void> undeploy(IncarnationVerticle incarnation) {
    Future<Void> undeploy = (incarnation.exitedItself() ? incarnation.exitUndeploy()
        : coordinator.vertx().undeploy(incarnation.deploymentId()))
        .recover(e -> Future.succeededFuture());
    track(undeploy);
    return undeploy;
  }

  private void track(Future<Void> undeploy) {
    undeploys.removeIf(Future::isComplete);
    undeploys.add(undeploy);
  }

  @Override
  public void assign(Effect.Assign assignment) {
    IncarnationVerticle incarnation = current;
    if (incarnation == null) {
      throw new IllegalStateException(id + " has no incarnation for " + assignment);
    }
    incarnation.deliver(new Job(assignment.job(), assignment.payload(), assignment.attempt(),
        assignment.key(), id, incarnation.incarnation(), assignment.assignment()));
  }

  @Override
  public void cancel(long assignment) {
    IncarnationVerticle incarnation = current;
    if (incarnation != null) {
      incarnation.cancel(assignment);
    }
  }

  @Override
  public Future<Void> undeployed() {
    Promise<Void> promise = Promise.promise();
    Future.join(new ArrayList<>(undeploys)).onComplete(ar -> promise.complete());
    return promise.future();
  }

  // ---- facts from incarnations (any thread) ---------------------------------------------------

  @Override
  public void completed(IncarnationVerticle incarnation,
      List<IncarnationVerticle.Completion> done) {
    long end = System.nanoTime();
    // Checked here, on the incarnation's thread: a result no answer could carry becomes a failure
    // before the pool counts it, so every answer, counter and event agrees.
    long[] bytes = new long[done.size()];
    JobError[] unencodable = ResultCheck.problems(coordinator.name(), id, done, bytes);
    coordinator.execute(() -> {
      for (int i = 0; i < done.size(); i++) {
        IncarnationVerticle.Completion c = done.get(i);
        incarnation.finishedOne(c.assignment());
        for (PoolObserver observer : coordinator.observers()) {
          observer.onRun(id, end - c.startNanos());
        }
        JobError error = unencodable != null && unencodable[i] != null ? unencodable[i]
            : c.error();
        coordinator.localCompleted(id, c.assignment(), error == null ? c.result() : null, error,
            error == null ? bytes[i] : 0, c.job(), error == null ? null : c.failure());
      }
    });
  }

  @Override
  public void crashed(IncarnationVerticle incarnation, Throwable cause) {
    StackTraceElement[] trace = cause.getStackTrace();
    LOG.warn("pool {}: {} incarnation {} crashed: {}{}", coordinator.name(), LogText.quote(id),
        incarnation.incarnation(), LogText.quote(cause),
        trace.length == 0 ? "" : " at " + LogText.quote(trace[0]));
    if (LOG.isDebugEnabled()) {
      LOG.debug("pool {}: {} incarnation {} crash trace", coordinator.name(), LogText.quote(id),
          incarnation.incarnation(), LogText.traceOnly(cause));
    }
    coordinator.execute(() -> coordinator.localFact(new PoolEvent.WorkerStopped(id,
        incarnation.incarnation(), Exit.CRASH, String.valueOf(cause), coordinator.now())));
  }

  @Override
  public void exited(IncarnationVerticle incarnation) {
    LOG.info("pool {}: {} incarnation {} exited normally", coordinator.name(), LogText.quote(id),
        incarnation.incarnation());
    coordinator.execute(() -> coordinator.localFact(new PoolEvent.WorkerStopped(id,
        incarnation.incarnation(), Exit.NORMAL, "the worker undeployed itself",
        coordinator.now())));
  }

  /** Undeployed from outside: the pool drains, and the incarnation waits until it holds nothing. */
  @Override
  public Future<Void> releasedExternally(IncarnationVerticle incarnation) {
    Promise<Void> idle = Promise.promise();
    coordinator.execute(() -> {
      incarnation.whenIdle(idle);
      coordinator.externalUndeploy();
    });
    return idle.future();
  }
}
