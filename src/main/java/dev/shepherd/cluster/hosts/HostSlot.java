package dev.shepherd.cluster.hosts;

import dev.shepherd.core.Exit;
import dev.shepherd.runtime.slot.IncarnationRunner;
import dev.shepherd.runtime.slot.JobControl;
import dev.shepherd.runtime.trace.JobTrace;
import dev.shepherd.runtime.trace.Tracing;
import dev.shepherd.runtime.slot.VertxDeployments;
import dev.shepherd.runtime.slot.Incarnation;
import dev.shepherd.runtime.slot.ProgressReport;
import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.time.Scheduler;
import dev.shepherd.runtime.config.WorkerConfig;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One slot of a worker host: it carries out the pool's commands for that slot (deploy, stop,
 * assign) on the incarnation they name, through an {@link IncarnationRunner} whose reports
 * (created, failed, crashed, exited, completions) go to the pool as {@link HostReport}s, and never
 * runs more than {@code maxConcurrency} assignments at once. It decides nothing: a crashed
 * incarnation stays until the pool tells it to stop, and a replacement comes only as a {@code
 * deploy}. Lives on its host's context; incarnations report from their own (EVENT_LOOP ones
 * share the host's event loop unless {@code shareEventLoop} is off).
 */
final class HostSlot implements IncarnationRunner.Port {
  private static final Logger LOG = LoggerFactory.getLogger(HostSlot.class);

  private final HostAgent host;
  private final String id;
  private final WorkerConfig worker;
  private final IncarnationRunner runner;
  /** Assignments handed to the current incarnation and not yet completed. */
  private int running;
  /** Assignments beyond the capacity, held until one finishes (only if the pool overcommits). */
  private final ArrayDeque<Job> waiting = new ArrayDeque<>();
  /** The highest number of assignments the current and earlier incarnations ran at once. */
  private int peakRunning;

  HostSlot(HostAgent host, String id, WorkerConfig worker) {
    this.host = host;
    this.id = id;
    this.worker = worker;
    this.runner = new IncarnationRunner(id, new IncarnationRunner.Recipe(worker.handlers(),
        worker.unordered(), worker.onException(), worker.threading(), worker.config()),
        new VertxDeployments(host.vertx(), host.deployFrom(), host.sharedEventLoop()), this);
  }

  IncarnationRunner.State state() {
    return runner.state();
  }

  int peakRunning() {
    return peakRunning;
  }

  /** The incarnation the slot runs or deploys, 0 for none. */
  int incarnation() {
    Incarnation current = runner.current();
    return current == null ? 0 : current.incarnation();
  }

  // ---- commands (host context) ---------------------------------------------------------------

  /**
   * Deploys {@code number}, as the coordinator of {@code term} asks; an older incarnation still
   * there is stopped first, silently (the same number from a newer term too: {@link
   * IncarnationRunner#deploy(int, long)}).
   */
  boolean deploy(int number, long term) {
    if (!runner.deploy(number, term)) {
      return false;
    }
    running = 0;
    waiting.clear();
    return true;
  }

  /** Stops {@code number} if it is the current incarnation; reports nothing about it again. */
  boolean stop(int number) {
    if (!runner.stop(number)) {
      return false;
    }
    running = 0;
    waiting.clear();
    return true;
  }

  /** Tells the incarnation it names that a job it runs was cancelled; false when ignored. */
  boolean cancel(int number, long assignment) {
    if (!runner.runs(number)) {
      return false;
    }
    runner.cancel(assignment);
    return true;
  }

  /** Runs one job on the incarnation it names, if that one runs; false when ignored. */
  boolean assign(HostCommand.Assign assign) {
    if (!runner.runs(assign.incarnation())) {
      return false;
    }
    Job job = new Job(assign.job(), assign.payload(), assign.attempt(), assign.key(), id,
        assign.incarnation(), assign.assignment(),
        assign.checkpoint() instanceof JsonObject checkpoint ? checkpoint : null);
    // T2 (docs/rules.md): reports go to the pool in the host's next batch, coalesced per job.
    JobControl.reportProgressTo(job, waitingJob -> host.execute(() -> {
      ProgressReport report = JobControl.takeProgress(waitingJob);
      if (report != null) {
        host.report(new HostReport.Progress(id, waitingJob.assignment(), report.progress(),
            report.bytes()));
      }
    }));
    if (assign.traceparent() != null && Tracing.on(host.vertx())) {
      // T1 (docs/rules.md): the attempt's span opens under the submitter's trace.
      JobControl.trace(job, JobTrace.fromW3c(host.hostConfig().pool(), assign.traceparent(),
          assign.tracestate()));
    }
    if (running >= worker.maxConcurrency()) {
      if (waiting.isEmpty()) {
        LOG.warn("host {}: {} was sent more than its {} assignments at once; holding {} until"
            + " one finishes", host.id(), id, worker.maxConcurrency(), LogText.quote(job.id()));
      }
      waiting.add(job);
      return true;
    }
    run(job);
    return true;
  }

  private void run(Job job) {
    running++;
    peakRunning = Math.max(peakRunning, running);
    runner.deliver(job);
  }

  /** Stops whatever the slot runs, silently (the host registers anew, or leaves). */
  Future<Void> reset() {
    running = 0;
    waiting.clear();
    return runner.reset();
  }

  // ---- the runner's port ---------------------------------------------------------------------

  @Override
  public String where() {
    return "host " + host.id();
  }

  @Override
  public Scheduler scheduler() {
    return host.scheduler();
  }

  @Override
  public void execute(Runnable task) {
    host.execute(task);
  }

  /**
   * An incarnation on the host's own event loop ({@link HostAgent#sharedEventLoop}) runs the job
   * now, on its context, on this thread: no task is queued and no thread woken. Any other goes
   * through the outbox, one hand-over per incarnation and turn.
   */
  @Override
  public void handOver(Context target, Runnable task) {
    if (target instanceof ContextInternal incarnation && incarnation.isEventLoopContext()
        && incarnation.inThread()) {
      incarnation.dispatch(task);
    } else {
      host.outbox().send(target, task);
    }
  }

  @Override
  public void created(int incarnation) {
    host.report(new HostReport.Created(id, incarnation));
  }

  @Override
  public void creationFailed(int incarnation, String cause) {
    host.report(new HostReport.CreationFailed(id, incarnation, cause));
  }

  @Override
  public void ended(int incarnation, Exit exit, String cause) {
    waiting.clear();
    host.report(new HostReport.Stopped(id, incarnation, exit, cause));
  }

  @Override
  public void completed(Incarnation incarnation,
      List<Incarnation.Completion> done) {
    long end = System.nanoTime();
    List<HostReport> reports = new ArrayList<>(done.size());
    for (Incarnation.Completion c : done) {
      reports.add(c.rateLimitedMs() >= 0
          ? new HostReport.RateLimited(id, c.assignment(), c.rateLimitedMs())
          : new HostReport.Completion(id, c.assignment(), c.result(), c.error(),
              end - c.startNanos()));
    }
    host.execute(() -> {
      for (HostReport report : reports) {
        host.report(report);
      }
      for (Incarnation.Completion c : done) {
        incarnation.finishedOne(c.source());
      }
      if (incarnation == runner.current()) {
        running -= done.size();
        while (running < worker.maxConcurrency() && !waiting.isEmpty()
            && runner.state() == IncarnationRunner.State.RUNNING) {
          run(waiting.poll());
        }
      }
    });
  }

  /** Undeployed by someone else: unless the host is leaving, the pool sees it crash. */
  @Override
  public Future<Void> releasedExternally(Incarnation incarnation) {
    host.execute(() -> {
      if (!host.leaving()) {
        runner.ended(incarnation, Exit.CRASH, "undeployed from outside the pool");
      }
    });
    return Future.succeededFuture();
  }
}
