package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Exit;
import dev.shepherd.core.JobError;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.config.WorkerConfig;
import dev.shepherd.runtime.slot.IncarnationRunner;
import dev.shepherd.runtime.slot.JobControl;
import dev.shepherd.runtime.slot.ProgressReport;
import dev.shepherd.runtime.slot.ProgressSink;
import dev.shepherd.runtime.slot.Deployments;
import dev.shepherd.runtime.slot.Incarnation;
import dev.shepherd.runtime.slot.ResultCheck;
import dev.shepherd.runtime.time.Scheduler;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A slot whose incarnations run in this JVM, through an {@link IncarnationRunner} whose reports
 * are the pool's events. Assignments are handed straight to the current incarnation's context
 * and completions come back through the coordinator's inbox: no event-bus hop, no JSON copy.
 * Lives on the coordinator's context; the incarnation reports from its own.
 */
public final class LocalSlot implements SlotHandle, IncarnationRunner.Port {
  private final String id;
  private final Coordinator coordinator;
  private final IncarnationRunner runner;

  private final PoolConfig config;

  /**
   * Slot {@code id} of {@code coordinator}'s pool, its incarnations deployed by {@code
   * deployments}, each running up to {@code maxConcurrency} jobs at once.
   */
  LocalSlot(String id, Coordinator coordinator, PoolConfig config, Deployments deployments,
      int maxConcurrency) {
    this.id = id;
    this.coordinator = coordinator;
    this.config = config;
    boolean unordered = WorkerConfig.unordered(config.threading(), maxConcurrency);
    this.runner = new IncarnationRunner(id, new IncarnationRunner.Recipe(config.handlers(),
        unordered, config.onException(), config.threading(), config.workerConfig()), deployments,
        this);
  }

  @Override
  public String id() {
    return id;
  }

  // ---- the pool's effects (coordinator context) ----------------------------------------------

  @Override
  public void deploy(int number) {
    runner.deploy(number);
  }

  @Override
  public void stop(int number, Exit reason) {
    runner.stop(number);
  }

  @Override
  public void assign(Effect.Assign assignment) {
    Incarnation incarnation = runner.current();
    if (incarnation == null) {
      throw new IllegalStateException(id + " has no incarnation for " + assignment);
    }
    Job job = new Job(assignment.job(), assignment.payload(), assignment.attempt(),
        assignment.key(), id, incarnation.incarnation(), assignment.assignment(),
        assignment.checkpoint() instanceof JsonObject checkpoint ? checkpoint.copy() : null);
    JobControl.reportProgressTo(job, progressSink);
    if (coordinator.traces() != null) {
      JobControl.trace(job, coordinator.traces().trace(assignment.job()));
    }
    incarnation.deliver(job);
  }

  /** T2 (docs/rules.md): a job's reports, taken on the coordinator's context, one per hand-in. */
  private final ProgressSink progressSink = this::progressWaiting;

  private void progressWaiting(Job job) {
    coordinator.execute(() -> {
      ProgressReport report = JobControl.takeProgress(job);
      if (report != null) {
        coordinator.localFact(new PoolEvent.Progress(id, job.assignment(), report.progress(),
            report.bytes(), coordinator.now()));
      }
    });
  }

  @Override
  public void cancel(long assignment) {
    runner.cancel(assignment);
  }

  /**
   * F6 (docs/rules.md): a resize set the slot's capacity; a WORKER incarnation runs jobs side by
   * side above 1, one after another at 1, from its next job on.
   */
  void capacity(int maxConcurrency) {
    runner.unordered(WorkerConfig.unordered(config.threading(), maxConcurrency));
  }

  @Override
  public Future<Void> undeployed() {
    return runner.undeployed();
  }

  // ---- the runner's port ---------------------------------------------------------------------

  @Override
  public String where() {
    return "pool " + coordinator.name();
  }

  @Override
  public Scheduler scheduler() {
    return coordinator.scheduler();
  }

  @Override
  public void execute(Runnable task) {
    coordinator.execute(task);
  }

  @Override
  public void handOver(Context target, Runnable task) {
    coordinator.outbox().send(target, task);
  }

  @Override
  public void created(int incarnation) {
    coordinator.localFact(new PoolEvent.WorkerCreated(id, incarnation, coordinator.now()));
  }

  @Override
  public void creationFailed(int incarnation, String cause) {
    coordinator.localFact(new PoolEvent.CreationFailed(id, incarnation, cause,
        coordinator.now()));
  }

  @Override
  public void ended(int incarnation, Exit exit, String cause) {
    coordinator.localFact(new PoolEvent.WorkerStopped(id, incarnation, exit, cause,
        coordinator.now()));
  }

  @Override
  public void completed(Incarnation incarnation,
      List<Incarnation.Completion> done) {
    long end = System.nanoTime();
    // Checked here, on the incarnation's thread: a result no answer could carry becomes a failure
    // before the pool counts it, so every answer, counter and event agrees.
    long[] bytes = new long[done.size()];
    JobError[] unencodable = ResultCheck.problems(coordinator.name(), id, done, bytes);
    coordinator.execute(() -> {
      for (int i = 0; i < done.size(); i++) {
        Incarnation.Completion c = done.get(i);
        incarnation.finishedOne(c.source());
        for (PoolObserver observer : coordinator.observers()) {
          observer.onRun(id, end - c.startNanos());
        }
        if (c.rateLimitedMs() >= 0) {
          coordinator.localRateLimited(id, c.assignment(), c.rateLimitedMs());
          continue;
        }
        JobError error = unencodable != null && unencodable[i] != null ? unencodable[i]
            : c.error();
        coordinator.localCompleted(id, c.assignment(), error == null ? c.result() : null, error,
            error == null ? bytes[i] : 0, c.job(), error == null ? null : c.failure());
      }
    });
  }

  /** Undeployed from outside: the pool drains, and the incarnation waits until it holds nothing. */
  @Override
  public Future<Void> releasedExternally(Incarnation incarnation) {
    Promise<Void> idle = Promise.promise();
    coordinator.execute(() -> {
      incarnation.whenIdle(idle);
      coordinator.externalUndeploy();
    });
    return idle.future();
  }
}
