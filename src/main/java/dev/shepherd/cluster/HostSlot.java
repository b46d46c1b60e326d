package dev.shepherd.cluster;

import dev.shepherd.core.Exit;
import dev.shepherd.runtime.IncarnationOwner;
import dev.shepherd.runtime.IncarnationVerticle;
import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.LogText;
import dev.shepherd.runtime.WorkerConfig;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One slot of a worker host: it carries out the pool's commands for that slot (deploy, stop,
 * assign) on the incarnation they name, reports what it sees (created, failed, crashed, exited,
 * completions), and never runs more than {@code maxConcurrency} assignments at once. It decides
 * nothing: a crashed incarnation stays until the pool tells it to stop, and a replacement comes
 * only as a {@code deploy}. Lives on its host's context; incarnations report from their own.
 */
final class HostSlot implements IncarnationOwner {
  private static final Logger LOG = LoggerFactory.getLogger(HostSlot.class);

  /** Where the slot's current incarnation is. */
  enum State {
    /** No incarnation (never deployed, or stopped by the pool). */
    EMPTY,
    /** Deploying; nothing reported yet. */
    DEPLOYING,
    /** Created (reported): runs assignments. */
    RUNNING,
    /** Crashed or exited (reported): waits for the pool's stop. */
    ENDED
  }

  private final HostAgent host;
  private final String id;
  private final WorkerConfig worker;
  private State state = State.EMPTY;
  private IncarnationVerticle current;
  /** The term whose command deployed {@link #current}. */
  private long currentTerm;
  private String currentDeployment;
  /** A crash of the current incarnation while it was still deploying, reported once created. */
  private HostReport.Stopped endedWhileDeploying;
  /** Assignments handed to the current incarnation and not yet completed. */
  private int running;
  /** Assignments beyond the capacity, held until one finishes (only if the pool overcommits). */
  private final ArrayDeque<Job> waiting = new ArrayDeque<>();
  /** The highest number of assignments the current and earlier incarnations ran at once. */
  private int peakRunning;
  private final List<Future<Void>> undeploys = new ArrayList<>();

  HostSlot(HostAgent host, String id, WorkerConfig worker) {
    this.host = host;
    this.id = id;
    this.worker = worker;
  }

  @Override
  public String worker() {
    return id;
  }

  State state() {
    return state;
  }

  int peakRunning() {
    return peakRunning;
  }

  /** The incarnation the slot runs or deploys, 0 for none. */
  int incarnation() {
    return current == null ? 0 : current.incarnation();
  }

  private void moveTo(State next) {
    boolean legal = switch (state) {
      case EMPTY -> next == State.DEPLOYING;
      case DEPLOYING -> next != State.ENDED;
      case RUNNING -> next != State.RUNNING;
      case ENDED -> next == State.EMPTY || next == State.DEPLOYING;
    };
    if (!legal) {
      throw new IllegalStateException("slot " + id + ": illegal move " + state + " -> " + next);
    }
    state = next;
  }

  // ---- commands (host context) ---------------------------------------------------------------

  /**
   * Deploys {@code number}, as the coordinator of {@code term} asks; an older incarnation still
   * there is stopped first, silently. The same number from a newer term is a new incarnation
   * too: a coordinator that was replaced before its records were written deployed it (the host
   * registered with it, then again with its successor), and the successor, which never heard of
   * it, counts from what it recovered and names the same number; ignoring it left the slot
   * installing for good.
   */
  boolean deploy(int number, long term) {
    if (current != null && (current.incarnation() > number
        || (current.incarnation() == number && currentTerm >= term))) {
      return false;
    }
    if (current != null) {
      stopCurrent();
    }
    IncarnationVerticle incarnation =
        new IncarnationVerticle(this, number, worker.handlers(), worker.unordered(),
            worker.onException());
    current = incarnation;
    currentTerm = term;
    currentDeployment = null;
    endedWhileDeploying = null;
    running = 0;
    waiting.clear();
    moveTo(State.DEPLOYING);
    DeploymentOptions options = new DeploymentOptions().setThreadingModel(worker.threading())
        .setConfig(worker.config().copy());
    host.deployFrom().runOnContext(v -> host.vertx().deployVerticle(incarnation, options)
        .onComplete(ar -> host.execute(() -> deployed(incarnation,
            ar.succeeded() ? ar.result() : null, ar.cause()))));
    return true;
  }

  private void deployed(IncarnationVerticle incarnation, String deployment, Throwable cause) {
    boolean stillWanted = incarnation == current && !incarnation.stoppedBySlot();
    if (deployment == null) {
      LOG.warn("host {}: {} incarnation {} failed to deploy: {}", host.id(), id,
          incarnation.incarnation(), String.valueOf(cause));
      if (stillWanted) {
        current = null;
        moveTo(State.EMPTY);
        host.report(new HostReport.CreationFailed(id, incarnation.incarnation(),
            String.valueOf(cause)));
      }
      return;
    }
    if (!stillWanted) {
      undeploy(host.vertx().undeploy(deployment));
      return;
    }
    currentDeployment = deployment;
    moveTo(State.RUNNING);
    host.report(new HostReport.Created(id, incarnation.incarnation()));
    if (endedWhileDeploying != null) {
      moveTo(State.ENDED);
      host.report(endedWhileDeploying);
      endedWhileDeploying = null;
    }
  }

  /** Stops {@code number} if it is the current incarnation; reports nothing about it again. */
  boolean stop(int number) {
    if (current == null || current.incarnation() != number) {
      return false;
    }
    stopCurrent();
    return true;
  }

  /** Tells the incarnation it names that a job it runs was cancelled; false when ignored. */
  boolean cancel(int number, long assignment) {
    if (current == null || current.incarnation() != number || state != State.RUNNING) {
      return false;
    }
    current.cancel(assignment);
    return true;
  }

  /** Runs one job on the incarnation it names, if that one runs; false when ignored. */
  boolean assign(HostCommand.Assign assign) {
    if (current == null || current.incarnation() != assign.incarnation()
        || state != State.RUNNING) {
      return false;
    }
    Job job = new Job(assign.job(), assign.payload(), assign.attempt(), assign.key(), id,
        assign.incarnation(), assign.assignment());
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
    current.deliver(job);
  }

  /** Stops whatever the slot runs, silently (the host registers anew, or leaves). */
  Future<Void> reset() {
    if (current != null) {
      stopCurrent();
    }
    undeploys.removeIf(Future::isComplete);
    return Future.join(new ArrayList<>(undeploys)).mapEmpty();
  }

  private void stopCurrent() {
    IncarnationVerticle incarnation = current;
    String deployment = currentDeployment;
    current = null;
    currentDeployment = null;
    running = 0;
    waiting.clear();
    moveTo(State.EMPTY);
    incarnation.stopBySlot();
    if (incarnation.exitedItself()) {
      undeploy(incarnation.exitUndeploy());
    } else if (deployment != null) {
      undeploy(host.vertx().undeploy(deployment));
    }
    // else still deploying: deployed() undeploys it when its deployment ends
  }

  private void undeploy(Future<Void> undeploy) {
    undeploys.removeIf(Future::isComplete);
    Promise<Void> done = Promise.promise();
    undeploy.onComplete(ar -> done.tryComplete());
    undeploys.add(done.future());
  }

  // ---- reports from incarnations (any thread) ------------------------------------------------

  @Override
  public void handOver(Context target, Runnable task) {
    host.outbox().send(target, task);
  }

  @Override
  public void completed(IncarnationVerticle incarnation,
      List<IncarnationVerticle.Completion> done) {
    List<HostReport> reports = new ArrayList<>(done.size());
    for (IncarnationVerticle.Completion c : done) {
      reports.add(new HostReport.Completion(id, c.assignment(), c.result(), c.error()));
    }
    host.execute(() -> {
      for (HostReport report : reports) {
        host.report(report);
      }
      for (IncarnationVerticle.Completion c : done) {
        incarnation.finishedOne(c.assignment());
      }
      if (incarnation == current) {
        running -= done.size();
        while (running < worker.maxConcurrency() && !waiting.isEmpty()
            && state == State.RUNNING) {
          run(waiting.poll());
        }
      }
    });
  }

  @Override
  public void crashed(IncarnationVerticle incarnation, Throwable cause) {
    StackTraceElement[] trace = cause.getStackTrace();
    LOG.warn("host {}: {} incarnation {} crashed: {}{}", host.id(), id,
        incarnation.incarnation(), cause, trace.length == 0 ? "" : " at " + trace[0]);
    host.execute(() -> ended(incarnation, Exit.CRASH, String.valueOf(cause)));
  }

  @Override
  public void exited(IncarnationVerticle incarnation) {
    LOG.info("host {}: {} incarnation {} exited normally", host.id(), id,
        incarnation.incarnation());
    host.execute(() -> ended(incarnation, Exit.NORMAL, "the worker undeployed itself"));
  }

  /** Undeployed by someone else: unless the host is leaving, the pool sees it crash. */
  @Override
  public Future<Void> releasedExternally(IncarnationVerticle incarnation) {
    host.execute(() -> {
      if (!host.leaving()) {
        ended(incarnation, Exit.CRASH, "undeployed from outside the pool");
      }
    });
    return Future.succeededFuture();
  }

  private void ended(IncarnationVerticle incarnation, Exit exit, String cause) {
    if (incarnation != current || incarnation.stoppedBySlot()) {
      return;
    }
    if (state == State.DEPLOYING) {
      // The pool hears of it once it knows the incarnation was created.
      endedWhileDeploying = new HostReport.Stopped(id, incarnation.incarnation(), exit, cause);
      return;
    }
    if (state != State.RUNNING) {
      return;
    }
    moveTo(State.ENDED);
    waiting.clear();
    host.report(new HostReport.Stopped(id, incarnation.incarnation(), exit, cause));
  }
}
