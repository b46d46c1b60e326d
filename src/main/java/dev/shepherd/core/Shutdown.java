package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Stopping the pool (P16, S4 in docs/rules.md). A graceful stop refuses new work, answers every
 * queued job {@code interrupted(POOL_STOPPED)} at once (the payload goes back), and lets running
 * assignments finish until the drain deadline; then whatever still runs is answered the same way. A
 * stop without drain (the STOP_POOL reaction, or a drain timeout of 0) does all of that at once.
 */
final class Shutdown {
  private final PoolData d;

  Shutdown(PoolData data) {
    this.d = data;
  }

  void requested(PoolEvent.StopRequested e) {
    if (d.state != PoolState.RUNNING) {
      return;
    }
    d.state = PoolState.DRAINING;
    d.publish(new Notice.PoolStateChanged(PoolState.DRAINING));
    interruptQueued();
    if (d.runningJobs == 0 || d.settings.drainTimeoutMs() == 0) {
      stopNow(e.now());
      return;
    }
    d.drainDeadline = e.now() + d.settings.drainTimeoutMs();
    d.out.add(new Effect.StartTimer(new Timer.DrainDeadline(), d.drainDeadline));
  }

  /** The drain deadline fired: a drain that ran out of time ends now. */
  void deadline(long now) {
    if (d.state == PoolState.DRAINING) {
      stopNow(now);
    } else {
      d.ignoredFacts++;
    }
  }

  /** A draining pool whose last assignment ended is stopped. */
  void finishDrainIfIdle(long now) {
    if (d.state == PoolState.DRAINING && d.runningJobs == 0) {
      stopNow(now);
    }
  }

  /** Jobs interrupted while draining cannot run again: FAIL answers the stop, RETRY the pool's. */
  void settleWhileDraining(List<Job> interrupted) {
    interrupted.sort((a, b) -> Long.compare(a.order, b.order));
    for (Job job : interrupted) {
      job.takeStoppedRunningIt();
      Interruption why = d.settings.interruption() == InterruptionPolicy.FAIL
          ? job.interruption
          : new Interruption.PoolStopped();
      d.interrupt(job, why);
    }
  }

  /** Stops at once: every job still held is answered, every incarnation is undeployed. */
  void stopNow(long now) {
    if (d.state == PoolState.RUNNING) {
      d.publish(new Notice.PoolStateChanged(PoolState.DRAINING));
    }
    d.state = PoolState.DRAINING;
    interruptQueued();
    List<Job> running = new ArrayList<>();
    Interruption stopped = new Interruption.PoolStopped();
    for (Slot slot : d.slots) {
      d.interruptRunning(slot, stopped, running);
    }
    running.sort((a, b) -> Long.compare(a.order, b.order));
    running.forEach(job -> d.interrupt(job, stopped));
    for (Slot slot : d.slots) {
      if (!slot.departed
          && (slot.life == Slot.Life.RUNNING || slot.life == Slot.Life.INSTALLING)) {
        d.out.add(new Effect.Stop(slot.id, slot.incarnation, Exit.NORMAL));
      }
    }
    d.state = PoolState.STOPPED;
    d.publish(new Notice.PoolStateChanged(PoolState.STOPPED));
  }

  private void interruptQueued() {
    Interruption stopped = new Interruption.PoolStopped();
    d.backlog.drainAll(d.slots, job -> d.interrupt(job, stopped));
    if (d.waiting.size() > 0) {
      d.waiting.drain(job -> true).forEach(job -> d.interrupt(job, stopped));
    }
    for (Slot slot : d.slots) {
      d.refresh(slot);
    }
  }
}
