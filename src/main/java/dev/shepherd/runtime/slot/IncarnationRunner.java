package dev.shepherd.runtime.slot;

import dev.shepherd.core.Exit;
import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.OnException;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.time.Scheduler;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One slot's incarnations, one at a time, wherever they run (a local slot on its pool's node, a
 * worker host's slot on another): it deploys the incarnation it is told to, reports it created
 * or failed, hands it jobs, reports its crash or normal exit once (a crash while it was still
 * deploying once it is created, so the pool hears the facts in the order they can happen), stops
 * it silently when told to, and knows when every incarnation it stopped is undeployed. It decides
 * nothing. What differs between the two kinds of slot (where the verticle is deployed from, where
 * reports go and how they travel) is its {@link Port}. Lives on the owner's context;
 * incarnations report from their own.
 */
public final class IncarnationRunner implements IncarnationOwner {
  private static final Logger LOG = LoggerFactory.getLogger(IncarnationRunner.class);
  /**
   * How long {@link #undeployed} waits for an incarnation stopped while still deploying: a start()
   * that never ends must not hold a stop forever (it is undeployed if it ever starts).
   */
  public static final long DEPLOYING_STOP_WAIT_MS = 2_000;

  /** Where the slot's current incarnation is. */
  public enum State {
    /** No incarnation (never deployed, or stopped). */
    EMPTY,
    /** Deploying; nothing reported yet. */
    DEPLOYING,
    /** Created (reported): runs assignments. */
    RUNNING,
    /** Crashed or exited (reported): waits for its stop. */
    ENDED
  }

  /** What each incarnation is made of: its handler, how it runs jobs, its threading and config. */
  public record Recipe(Supplier<? extends JobHandler> handlers, boolean unordered,
      OnException onException, ThreadingModel threading, JsonObject config) {}

  /**
   * Where a runner's incarnations run and where its reports go. Every method but {@link
   * #execute}, {@link #completed} and {@link #releasedExternally} is called on the owner's
   * context.
   */
  public interface Port {
    /** Who speaks in logs ({@code pool jobs}, {@code host h1}). */
    String where();

    /** Timers on the owner's context. */
    Scheduler scheduler();

    /** Runs {@code task} on the owner's context; any thread. */
    void execute(Runnable task);

    /** See {@link IncarnationOwner#handOver}. */
    void handOver(Context target, Runnable task);

    /** The incarnation deployed. */
    void created(int incarnation);

    /** The incarnation did not deploy. */
    void creationFailed(int incarnation, String cause);

    /** The created incarnation crashed ({@link Exit#CRASH}) or exited ({@link Exit#NORMAL}). */
    void ended(int incarnation, Exit exit, String cause);

    /** See {@link IncarnationOwner#completed}; any thread. */
    void completed(Incarnation incarnation, List<Incarnation.Completion> done);

    /** See {@link IncarnationOwner#releasedExternally}; the incarnation's context. */
    Future<Void> releasedExternally(Incarnation incarnation);
  }

  /** A crash or exit seen before the incarnation was reported created. */
  private record Ended(Exit exit, String cause) {}

  private final String id;
  private Recipe recipe;
  private final Deployments deployments;
  private final Port port;
  private State state = State.EMPTY;
  /** The newest incarnation asked for, until it is stopped. */
  private Incarnation current;
  /** The term whose command deployed {@link #current} (0 for a local slot's). */
  private long currentTerm;
  private Ended endedWhileDeploying;
  private final List<Future<Void>> undeploys = new ArrayList<>();
  /** Incarnations stopped while still deploying: completed once they are undeployed too. */
  private final Map<Incarnation, Promise<Void>> stoppedWhileDeploying = new HashMap<>();

  /** The runner of slot {@code id}, whose incarnations {@code deployments} deploys. */
  public IncarnationRunner(String id, Recipe recipe, Deployments deployments, Port port) {
    this.id = id;
    this.recipe = recipe;
    this.deployments = deployments;
    this.port = port;
  }

  @Override
  public String worker() {
    return id;
  }

  public State state() {
    return state;
  }

  /** The incarnation deployed or running, null for none. */
  public Incarnation current() {
    return current;
  }

  /** Whether {@code incarnation} is the current one and runs assignments. */
  public boolean runs(int incarnation) {
    return current != null && current.incarnation() == incarnation && state == State.RUNNING;
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

  // ---- commands (owner's context) ------------------------------------------------------------

  /**
   * Deploys {@code number}; an older incarnation still there is stopped first, silently. False,
   * and nothing changes, when the current incarnation is {@code number} or newer.
   */
  public boolean deploy(int number) {
    return deploy(number, 0);
  }

  /**
   * {@link #deploy(int)}, as the coordinator of {@code term} asks. The same number from a newer
   * term is a new incarnation too: a coordinator replaced before its records were written
   * deployed it (a host registered with it, then again with its successor), and the successor,
   * which never heard of it, counts from what it recovered and names the same number; ignoring it
   * left the slot installing for good.
   */
  public boolean deploy(int number, long term) {
    if (current != null && (current.incarnation() > number
        || (current.incarnation() == number && currentTerm >= term))) {
      return false;
    }
    if (current != null) {
      stopCurrent();
    }
    Incarnation[] made = new Incarnation[1];
    made[0] = deployments.deploy(this, number, recipe,
        (deployment, cause) -> port.execute(() -> deployed(made[0], deployment, cause)));
    current = made[0];
    currentTerm = term;
    endedWhileDeploying = null;
    moveTo(State.DEPLOYING);
    return true;
  }

  private void deployed(Incarnation incarnation, String deployment, Throwable cause) {
    Promise<Void> gone = stoppedWhileDeploying.remove(incarnation);
    boolean wanted = incarnation == current && !incarnation.stoppedBySlot();
    if (deployment == null) {
      if (gone != null) {
        gone.tryComplete();
      }
      if (!wanted) {
        // Stopped while deploying (the pool stops, or Vert.x closes): its failure is no news.
        LOG.debug("{}: {} incarnation {}, stopped while deploying, did not deploy: {}",
            port.where(), LogText.quote(id), incarnation.incarnation(), LogText.quote(cause));
        return;
      }
      LOG.warn("{}: {} incarnation {} failed to deploy: {}", port.where(), LogText.quote(id),
          incarnation.incarnation(), LogText.quote(cause));
      current = null;
      moveTo(State.EMPTY);
      port.creationFailed(incarnation.incarnation(), String.valueOf(cause));
      return;
    }
    incarnation.deployed(deployment);
    if (!wanted) {
      Future<Void> undeployed = undeploy(incarnation);
      if (gone != null) {
        undeployed.onComplete(ar -> gone.tryComplete());
      }
      return;
    }
    moveTo(State.RUNNING);
    port.created(incarnation.incarnation());
    if (endedWhileDeploying != null) {
      Ended ended = endedWhileDeploying;
      endedWhileDeploying = null;
      moveTo(State.ENDED);
      port.ended(incarnation.incarnation(), ended.exit(), ended.cause());
    }
  }

  /** Stops {@code number} if it is the current incarnation; reports nothing about it again. */
  public boolean stop(int number) {
    if (current == null || current.incarnation() != number) {
      return false;
    }
    stopCurrent();
    return true;
  }

  /** Stops whatever runs, silently; completes once everything stopped is undeployed. */
  public Future<Void> reset() {
    if (current != null) {
      stopCurrent();
    }
    return undeployed();
  }

  private void stopCurrent() {
    Incarnation incarnation = current;
    current = null;
    endedWhileDeploying = null;
    moveTo(State.EMPTY);
    incarnation.stopBySlot();
    if (incarnation.deploymentId() != null) {
      undeploy(incarnation);
    } else {
      // deployed() undeploys it; until then undeployed() waits for it as well, within limits.
      Promise<Void> gone = Promise.promise();
      stoppedWhileDeploying.put(incarnation, gone);
      port.scheduler().after(DEPLOYING_STOP_WAIT_MS, gone::tryComplete);
      track(gone.future());
    }
  }

  private Future<Void> undeploy(Incarnation incarnation) {
    Future<Void> undeploy = deployments.undeploy(incarnation);
    track(undeploy);
    return undeploy;
  }

  private void track(Future<Void> undeploy) {
    undeploys.removeIf(Future::isComplete);
    undeploys.add(undeploy);
  }

  /**
   * F6 (docs/rules.md): the slot's capacity changed: later incarnations, and the current one from
   * its next job, run jobs side by side ({@code unordered}) or one after another.
   */
  public void unordered(boolean unordered) {
    if (recipe.unordered() == unordered) {
      return;
    }
    recipe = new Recipe(recipe.handlers(), unordered, recipe.onException(), recipe.threading(),
        recipe.config());
    if (current != null) {
      current.unordered(unordered);
    }
  }

  /** Hands {@code job} to the current incarnation (the caller checked it may run it). */
  public void deliver(Job job) {
    Incarnation incarnation = current;
    if (incarnation == null) {
      throw new IllegalStateException(id + " has no incarnation for job " + job.id());
    }
    incarnation.deliver(job);
  }

  /** Tells the current incarnation that {@code assignment} was cancelled. */
  public void cancel(long assignment) {
    Incarnation incarnation = current;
    if (incarnation != null) {
      incarnation.cancel(assignment);
    }
  }

  /** Completes once every incarnation stopped so far is undeployed (or given up on). */
  public Future<Void> undeployed() {
    Promise<Void> promise = Promise.promise();
    Future.join(new ArrayList<>(undeploys)).onComplete(ar -> promise.complete());
    return promise.future();
  }

  /**
   * Owner's context: {@code incarnation} crashed or exited. Reported once, and only for the
   * current incarnation that its slot has not stopped; before it was created, once it is.
   */
  public void ended(Incarnation incarnation, Exit exit, String cause) {
    if (incarnation != current || incarnation.stoppedBySlot()) {
      return;
    }
    if (state == State.DEPLOYING) {
      endedWhileDeploying = new Ended(exit, cause);
      return;
    }
    if (state != State.RUNNING) {
      return;
    }
    moveTo(State.ENDED);
    port.ended(incarnation.incarnation(), exit, cause);
  }

  // ---- from incarnations (any thread) --------------------------------------------------------

  @Override
  public void handOver(Context target, Runnable task) {
    port.handOver(target, task);
  }

  @Override
  public void completed(Incarnation incarnation,
      List<Incarnation.Completion> done) {
    port.completed(incarnation, done);
  }

  @Override
  public void crashed(Incarnation incarnation, Throwable cause) {
    StackTraceElement[] trace = cause.getStackTrace();
    LOG.warn("{}: {} incarnation {} crashed: {}{}", port.where(), LogText.quote(id),
        incarnation.incarnation(), LogText.quote(cause),
        trace.length == 0 ? "" : " at " + LogText.quote(trace[0]));
    if (LOG.isDebugEnabled()) {
      LOG.debug("{}: {} incarnation {} crash trace", port.where(), LogText.quote(id),
          incarnation.incarnation(), LogText.traceOnly(cause));
    }
    port.execute(() -> ended(incarnation, Exit.CRASH, String.valueOf(cause)));
  }

  @Override
  public void exited(Incarnation incarnation) {
    LOG.info("{}: {} incarnation {} exited normally", port.where(), LogText.quote(id),
        incarnation.incarnation());
    port.execute(() -> ended(incarnation, Exit.NORMAL, "the worker undeployed itself"));
  }

  @Override
  public Future<Void> releasedExternally(Incarnation incarnation) {
    return port.releasedExternally(incarnation);
  }
}
