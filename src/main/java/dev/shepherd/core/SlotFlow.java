package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The slot path: creation results (P2, P12 in docs/rules.md), stops and the supervisor's decision
 * (P9, P10, S1-S5), job timeouts (P14), and remote workers coming and going with their capacity
 * (C1-C4).
 */
final class SlotFlow {
  private final PoolData d;
  private final Shutdown shutdown;
  private final ResizeFlow resize;

  SlotFlow(PoolData data, Shutdown shutdown, ResizeFlow resize) {
    this.d = data;
    this.shutdown = shutdown;
    this.resize = resize;
  }

  // ---- creation ------------------------------------------------------------------------------

  /**
   * The first steps every fact about an incarnation shares: an unknown slot is refused; a fact
   * about a departed remote worker (C4 in docs/rules.md), or one reaching a stopped pool when
   * {@code ignoreWhenStopped}, is ignored and counted; a fact about another incarnation is refused
   * as from the past. {@link Fact#slot()} is null unless the fact applies.
   */
  private Fact fact(String worker, int incarnation, boolean ignoreWhenStopped) {
    Slot slot = d.slotsById.get(worker);
    if (slot == null) {
      return new Fact(null, new PoolError.UnknownWorker(worker));
    }
    if (slot.departed || (ignoreWhenStopped && d.state == PoolState.STOPPED)) {
      d.ignoredFacts++;
      return new Fact(null, null);
    }
    if (slot.incarnation != incarnation) {
      return new Fact(null, new PoolError.StaleIncarnation(worker, slot.incarnation, incarnation));
    }
    return new Fact(slot, null);
  }

  /** The slot a fact applies to, or the refusal (null when the fact is ignored). */
  private record Fact(Slot slot, PoolError refusal) {}

  PoolError created(PoolEvent.WorkerCreated e) {
    Fact fact = fact(e.worker(), e.incarnation(), false);
    Slot slot = fact.slot();
    if (slot == null) {
      return fact.refusal();
    }
    if (d.state == PoolState.STOPPED) {
      d.out.add(new Effect.Stop(slot.id, slot.incarnation, Exit.NORMAL));
      return null;
    }
    if (slot.life != Slot.Life.INSTALLING) {
      return new PoolError.CreationResolvedWhileUnavailable(e.worker(), slot.phase());
    }
    slot.moveTo(Slot.Life.RUNNING);
    slot.runningSince = e.now();
    d.refresh(slot);
    d.publishPhase(slot);
    d.dispatch(e.now());
    return null;
  }

  PoolError creationFailed(PoolEvent.CreationFailed e) {
    Fact fact = fact(e.worker(), e.incarnation(), true);
    Slot slot = fact.slot();
    if (slot == null) {
      return fact.refusal();
    }
    if (slot.life != Slot.Life.INSTALLING) {
      return new PoolError.CreationResolvedWhileUnavailable(e.worker(), slot.phase());
    }
    retireForNow(slot, Retirement.CREATION_REJECTED, e.now());
    shutdown.finishDrainIfIdle(e.now());
    return null;
  }

  // ---- stops and supervision -----------------------------------------------------------------

  PoolError stopped(PoolEvent.WorkerStopped e) {
    Fact fact = fact(e.worker(), e.incarnation(), true);
    Slot slot = fact.slot();
    if (slot == null) {
      return fact.refusal();
    }
    if (slot.life != Slot.Life.RUNNING) {
      return new PoolError.WorkerStoppedWhileUnavailable(e.worker(), slot.phase());
    }
    stop(slot, e.exit(), e.cause(), e.now());
    return null;
  }

  /**
   * P9 (docs/rules.md) then section 4: interrupt what the slot held, let the supervisor decide,
   * dispatch. J2: a crash or hang makes every job the incarnation was running a suspect, one stop
   * nearer to poison; a stop while a suspect was running is not charged to the budget.
   */
  void stop(Slot dead, Exit exit, String cause, long now) {
    if (dead.draining) {
      // F6: a slot a resize is taking out is not replaced.
      resize.stopped(dead, exit, cause, now);
      return;
    }
    d.out.add(new Effect.Stop(dead.id, dead.incarnation, exit));
    boolean judged = d.settings.jobs().judgesJobs();
    boolean suspectRan = judged && dead.suspectsRunning > 0;
    List<String> jobs = new ArrayList<>(dead.running.size());
    dead.running.forEach(job -> jobs.add(job.id));
    List<Job> interrupted = new ArrayList<>();
    d.interruptRunning(dead, new Interruption.WorkerStopped(dead.id, exit, cause), interrupted);
    if (judged && (exit == Exit.CRASH || exit == Exit.TIMEOUT)) {
      for (Job job : interrupted) {
        Job.Fate fate = job.fate();
        fate.stops++;
        fate.stoppedRunningIt = true;
      }
    }
    dead.moveTo(Slot.Life.INSTALLING);
    d.refresh(dead);
    if (d.state == PoolState.DRAINING) {
      shutdown.settleWhileDraining(interrupted);
      shutdown.finishDrainIfIdle(now);
      return;
    }
    Decision decision = d.supervisor.decide(dead, exit, now, d.slots, !suspectRan);
    if (decision instanceof Decision.Replace replace) {
      replace(dead, exit, cause, replace, interrupted, jobs, !suspectRan, now);
    } else if (decision instanceof Decision.Retire) {
      d.requeues.settle(interrupted);
      d.retire(dead, Retirement.REPLACEMENT_UNAVAILABLE);
    } else if (decision instanceof Decision.Refused refused) {
      BudgetReaction reaction = d.supervisor.settings().onBudgetExceeded();
      d.budgetRefusals++;
      d.publish(new Notice.BudgetExceeded(dead.id, refused.restartsInWindow(),
          refused.replacementsRequested(), refused.maximumRestarts(), reaction, exit, cause, jobs,
          dead.restarts));
      if (reaction == BudgetReaction.RETIRE_WORKER) {
        d.requeues.settle(interrupted);
        retireForNow(dead, Retirement.REPLACEMENT_UNAVAILABLE, now);
      } else {
        // P9 answers FAIL jobs with their own stop whatever the supervisor decides; RETRY jobs
        // cannot run again in a stopping pool (as while draining).
        shutdown.settleWhileDraining(interrupted);
        shutdown.stopNow(now);
        return;
      }
    } else {
      throw new AssertionError("unhandled " + decision);
    }
    d.dispatch(now);
  }

  private void replace(Slot dead, Exit exit, String cause, Decision.Replace replace,
      List<Job> interrupted, List<String> jobs, boolean charged, long now) {
    List<String> ids = new ArrayList<>(replace.slots().size());
    for (Slot slot : replace.slots()) {
      ids.add(slot.id);
      if (slot == dead) {
        continue;
      }
      if (slot.life == Slot.Life.RUNNING || slot.life == Slot.Life.INSTALLING) {
        d.out.add(new Effect.Stop(slot.id, slot.incarnation, Exit.SIBLING_RESTART));
      }
      d.interruptRunning(slot, new Interruption.WorkerStopped(slot.id, Exit.SIBLING_RESTART,
          "sibling '" + dead.id + "' stopped (" + exit + ")"), interrupted);
    }
    d.requeues.settle(interrupted);
    d.publish(new Notice.RestartDecided(dead.id, exit, cause, ids, replace.delayMs(), jobs,
        charged));
    for (Slot slot : replace.slots()) {
      slot.restarts++;
      d.restarts++;
      if (replace.delayMs() == 0) {
        slot.incarnation++;
        slot.moveTo(Slot.Life.INSTALLING);
        d.out.add(new Effect.Deploy(slot.id, slot.incarnation));
      } else {
        slot.moveTo(Slot.Life.BACKING_OFF);
        slot.backoffUntil = now + replace.delayMs();
        d.out.add(new Effect.StartTimer(new Timer.BackoffEnd(slot.id, slot.backoffUntil),
            slot.backoffUntil));
      }
      d.refresh(slot);
      d.publishPhase(slot);
    }
  }

  /**
   * Retires a slot the budget or a failed creation took out of service (P2, P10 in docs/rules.md);
   * with {@code reviveAfterMs} it is tried again after that long, the way a circuit breaker
   * half-opens, and twice as long after each probe that retired again before it completed a job
   * (J7).
   */
  private void retireForNow(Slot slot, Retirement reason, long now) {
    d.retire(slot, reason);
    if (slot.probing) {
      slot.probing = false;
      slot.failedProbes++;
    }
    SupervisionSettings supervision = d.supervisor.settings();
    if (supervision.reviveAfterMs() > 0) {
      d.out.add(new Effect.StartTimer(new Timer.Revive(slot.id, slot.incarnation),
          now + supervision.reviveDelay(slot.failedProbes)));
    }
  }

  // ---- timers: job timeouts, backoff ends, revives --------------------------------------------

  /**
   * P14 (docs/rules.md): an assignment still live at its deadline means a hung incarnation: it is
   * stopped.
   */
  void deadline(Timer.JobDeadline timer, long now) {
    Job job = d.liveAssignment(timer.worker(), timer.assignment());
    if (job == null) {
      return;
    }
    long limit = job.timeoutMs > 0 ? job.timeoutMs : d.settings.jobTimeoutMs();
    stop(job.slot, Exit.TIMEOUT, "job '" + job.id + "' ran past its timeout of " + limit + " ms", now);
  }

  /**
   * S5 (docs/rules.md): a slot whose backoff ended (and was not decided again meanwhile) is
   * deployed.
   */
  void backoffEnded(Timer.BackoffEnd timer, long now) {
    Slot slot = d.slotsById.get(timer.worker());
    if (slot == null || d.state != PoolState.RUNNING || slot.life != Slot.Life.BACKING_OFF
        || slot.backoffUntil != timer.until()) {
      d.ignoredFacts++;
      return;
    }
    slot.incarnation++;
    slot.moveTo(Slot.Life.INSTALLING);
    d.out.add(new Effect.Deploy(slot.id, slot.incarnation));
    d.publishPhase(slot);
  }

  /** The revive timer of a slot retired as {@code timer.incarnation()} fired. */
  void reviveTimer(Timer.Revive timer, long now) {
    Slot slot = d.slotsById.get(timer.worker());
    if (slot == null || slot.departed || slot.incarnation != timer.incarnation()
        || revivable(slot) != null) {
      d.ignoredFacts++;
      return;
    }
    revive(slot, false);
  }

  /** An operator's revive: a retired slot back in service with a new incarnation. */
  PoolError revive(PoolEvent.Revive e) {
    Slot slot = d.slotsById.get(e.worker());
    if (slot == null || slot.departed) {
      return new PoolError.UnknownWorker(e.worker());
    }
    String refusal = revivable(slot);
    if (refusal != null) {
      return new PoolError.ReviveRefused(slot.id, refusal);
    }
    revive(slot, true);
    return null;
  }

  /** Why {@code slot} cannot be revived now, or null. */
  private String revivable(Slot slot) {
    if (d.state != PoolState.RUNNING) {
      return "the pool is " + d.state;
    }
    if (!slot.retired()) {
      return "it is " + slot.phase() + ", not retired";
    }
    if (slot.retirement == Retirement.HOST_LOST) {
      return "its host is lost; it comes back when the host registers again";
    }
    return null;
  }

  private void revive(Slot slot, boolean byOperator) {
    Retirement was = slot.retirement;
    d.notRetired++;
    d.revives++;
    slot.incarnation++;
    slot.consecutiveFailures = 0;
    slot.probing = !byOperator;
    if (byOperator) {
      slot.failedProbes = 0;
    }
    slot.moveTo(Slot.Life.INSTALLING);
    d.refresh(slot);
    d.publish(new Notice.Revived(slot.id, slot.incarnation, was, byOperator));
    d.verdict = new Transition.Verdict.Revived(slot.id, slot.incarnation);
    d.out.add(new Effect.Deploy(slot.id, slot.incarnation));
    d.publishPhase(slot);
  }

  // ---- remote workers (C1-C4) ----------------------------------------------------------------

  PoolError registered(PoolEvent.WorkerRegistered e) {
    Integer capacity = e.maxConcurrency();
    if (capacity != null && capacity < 1) {
      return new PoolError.InvalidCapacity(e.worker(), capacity);
    }
    Slot slot = d.slotsById.get(e.worker());
    if (slot != null && !slot.departed) {
      return new PoolError.DuplicateWorker(e.worker());
    }
    if (slot != null && slot.host != null) {
      return new PoolError.InvalidHostSlots(slot.host.id,
          "slot '" + slot.id + "' comes back only when its host registers");
    }
    int advertised = capacity == null ? Slot.UNKNOWN_CAPACITY : capacity;
    if (slot == null) {
      slot = d.addSlot(e.worker(), advertised);
    } else {
      slot.departed = false;
      d.visible++;
      slot.incarnation++;
      slot.capacity = advertised;
      slot.consecutiveFailures = 0;
      d.notRetired++;
    }
    slot.moveTo(Slot.Life.RUNNING);
    slot.runningSince = e.now();
    d.refresh(slot);
    d.publishPhase(slot);
    d.dispatch(e.now());
    return null;
  }

  PoolError capacity(PoolEvent.CapacityAdvertised e) {
    if (e.maxConcurrency() < 1) {
      return new PoolError.InvalidCapacity(e.worker(), e.maxConcurrency());
    }
    Slot slot = d.slotsById.get(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed) {
      d.ignoredFacts++;
      return null;
    }
    slot.capacity = e.maxConcurrency();
    d.refresh(slot);
    d.dispatch(e.now());
    return null;
  }

  PoolError deregistered(PoolEvent.WorkerDeregistered e) {
    Slot slot = d.slotsById.get(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed) {
      d.ignoredFacts++;
      return null;
    }
    depart(List.of(slot), e.now());
    return null;
  }

  /**
   * Remote slots leaving on purpose: what they ran is interrupted with exit NORMAL and settled
   * together (P9 in docs/rules.md), then each is hidden and retired (P10, P11).
   */
  void depart(List<Slot> leaving, long now) {
    List<Job> interrupted = new ArrayList<>();
    for (Slot slot : leaving) {
      d.interruptRunning(slot,
          new Interruption.WorkerStopped(slot.id, Exit.NORMAL, "deregistered"), interrupted);
    }
    if (d.state == PoolState.DRAINING) {
      shutdown.settleWhileDraining(interrupted);
    } else if (d.state == PoolState.RUNNING) {
      d.requeues.settle(interrupted);
    }
    for (Slot slot : leaving) {
      slot.departed = true;
      d.visible--;
      if (!slot.retired()) {
        d.retire(slot, Retirement.REPLACEMENT_UNAVAILABLE);
      }
    }
    d.dispatch(now);
    shutdown.finishDrainIfIdle(now);
  }
}
