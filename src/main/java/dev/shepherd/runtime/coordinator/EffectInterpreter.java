package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Notice;
import dev.shepherd.core.PoolState;
import dev.shepherd.runtime.time.WallTimes;
import dev.shepherd.runtime.wire.Responder;
import java.util.List;

/**
 * The one place the core's effects touch the world: replies, assignments to slots, deployments,
 * timers and notices (observers read a notice's times in wall time, {@link WallTimes}). Runs on
 * the coordinator's context.
 */
final class EffectInterpreter {
  private final Coordinator coordinator;

  EffectInterpreter(Coordinator coordinator) {
    this.coordinator = coordinator;
  }

  /**
   * Answers {@code respond}; with {@code left} (a durable pool's), that runs once the answer left
   * this JVM ({@link Responder#respond(dev.shepherd.core.Outcome, Throwable, Runnable)}).
   */
  void respond(Effect.Respond respond, Runnable left) {
    Throwable cause = coordinator.causes().answered(respond.outcome());
    if (coordinator.traces() != null) {
      coordinator.traces().answered(respond.replyTo(), respond.outcome());
    }
    Responder responder = (Responder) respond.replyTo();
    if (left == null) {
      responder.respond(respond.outcome(), cause);
    } else {
      responder.respond(respond.outcome(), cause, left);
    }
    for (PoolObserver observer : coordinator.observers()) {
      observer.onOutcome(respond.outcome());
    }
    coordinator.waiters().answered(respond.outcome());
  }

  void run(List<Effect> effects) {
    for (int i = 0; i < effects.size(); i++) {
      run(effects.get(i));
    }
  }

  void run(Effect effect) {
    if (effect instanceof Effect.Respond respond) {
      respond(respond, null);
    } else if (effect instanceof Effect.Assign assign) {
      for (PoolObserver observer : coordinator.observers()) {
        observer.onAssigned(assign.worker(), assign.job(), assign.attempt());
      }
      if (coordinator.traces() != null) {
        coordinator.traces().dispatched(assign.job());
      }
      slot(assign.worker()).assign(assign);
    } else if (effect instanceof Effect.Progress progress) {
      // T2: not an answer; the submitter and observers hear it, the waiters do not.
      ((Responder) progress.replyTo()).progress(progress);
      for (PoolObserver observer : coordinator.observers()) {
        observer.onProgress(progress);
      }
    } else if (effect instanceof Effect.Deploy deploy) {
      slot(deploy.worker()).deploy(deploy.incarnation());
    } else if (effect instanceof Effect.Stop stop) {
      for (PoolObserver observer : coordinator.observers()) {
        observer.onStop(stop.worker(), stop.incarnation(), stop.reason());
      }
      slot(stop.worker()).stop(stop.incarnation(), stop.reason());
    } else if (effect instanceof Effect.StartTimer start) {
      coordinator.timers().start(start.timer(), start.at());
    } else if (effect instanceof Effect.CancelTimer cancel) {
      coordinator.timers().cancel(cancel.timer());
    } else if (effect instanceof Effect.CancelRunning cancel) {
      slot(cancel.worker()).cancel(cancel.assignment());
    } else if (effect instanceof Effect.Publish publish) {
      Notice notice = publish.notice();
      Notice shown = WallTimes.notice(notice, coordinator.clock());
      for (PoolObserver observer : coordinator.observers()) {
        observer.onNotice(shown);
      }
      if (notice instanceof Notice.PoolStateChanged changed
          && changed.state() == PoolState.STOPPED) {
        coordinator.onStopped();
      } else if (notice instanceof Notice.SlotRemoved removed) {
        coordinator.slotLeft(removed.worker());
      }
    } else {
      throw new AssertionError("unhandled " + effect);
    }
  }

  private SlotHandle slot(String worker) {
    SlotHandle slot = coordinator.slots().get(worker);
    if (slot == null) {
      throw new IllegalStateException("no slot handle for " + worker);
    }
    return slot;
  }
}
