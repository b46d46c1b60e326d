package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The job path: admission (P3, P4, P15, J4, F1, F5 in docs/rules.md), completion (P8, J3) and
 * rate-limited answers (F4), cancel (P17), rebalance (P5), and the dead-letter set's replay and
 * discard (J5).
 */
final class JobFlow {
  private final PoolData d;
  private final Shutdown shutdown;

  JobFlow(PoolData data, Shutdown shutdown) {
    this.d = data;
    this.shutdown = shutdown;
  }

  void submit(PoolEvent.Submit e) {
    admit(e);
  }

  /** Admits a submit (answering its admission); whether it was accepted. */
  private boolean admit(PoolEvent.Submit e) {
    long generated = e.job() != null ? 0 : d.jobs.nextGenerated();
    String id = e.job() != null ? e.job() : JobTable.PREFIX + generated;
    if (d.state != PoolState.RUNNING) {
      return reject(e, id, RejectionReason.SHUTTING_DOWN, "the pool is " + d.state);
    }
    if (d.noRecoverableWorkers()) {
      return reject(e, id, RejectionReason.NO_RECOVERABLE_WORKERS, "every worker is retired");
    }
    // A generated id is fresh by construction; only a caller's id can repeat one (P15).
    if (generated == 0 && d.jobs.contains(id)) {
      return reject(e, id, RejectionReason.DUPLICATE_JOB,
          "job '" + id + "' is already accepted and not yet answered");
    }
    // F1: a group not known yet may start (its bucket is full, nothing of it runs).
    FlowGroup known = d.groups.find(e.group());
    if (d.groups.settings().rejectWhenPaused()
        && (d.groups.poolPausedSince != null || (known != null && known.pausedSince != null))) {
      return reject(e, id, RejectionReason.PAUSED, (d.groups.poolPausedSince != null ? "the pool"
          : "group '" + e.group() + "'") + " is paused and the pool rejects submits while paused");
    }
    long delay = Math.min(e.delayMs(), d.settings.jobs().maxDelayMs());
    boolean waits = delay > 0;
    Slot target = null;
    boolean startsNow;
    if (e.key() != null) {
      target = d.bindings.slotOf(e.key());
      if (target == null) {
        String chosen = d.settings.selector().select(e.key(), d);
        target = chosen == null ? null : d.slotsById.get(chosen);
        if (target == null) {
          return reject(e, id, RejectionReason.AFFINITY_UNAVAILABLE,
              "the selector chose no known worker for key '" + e.key() + "'");
        }
      }
      if (target.retired() || target.departed) {
        return reject(e, id, RejectionReason.AFFINITY_UNAVAILABLE,
            "key '" + e.key() + "' is bound to retired worker '" + target.id + "'");
      }
      startsNow = !waits && d.takesNow(target, known);
      String full = startsNow ? null : noRoom(e.bytes());
      if (full != null) {
        return reject(e, id, RejectionReason.BACKLOG_FULL,
            "worker '" + target.id + "' cannot take it now and " + full);
      }
    } else {
      startsNow = !waits && d.someSlotTakesNow(known);
      String full = startsNow ? null : noRoom(e.bytes());
      if (full != null) {
        return reject(e, id, RejectionReason.BACKLOG_FULL,
            (waits ? "a delayed job waits in the backlog and " : "no worker can take it now (busy, starting or backing off) and ")
                + full);
      }
    }
    if (!startsNow && known != null && known.queueCapacity > 0
        && known.held >= known.queueCapacity) {
      return reject(e, id, RejectionReason.GROUP_FULL, "group '" + e.group() + "' holds "
          + known.held + " jobs, its queueCapacity, and cannot start this one now");
    }
    Job job = new Job(id, generated, e.payload(), e.replyTo(), e.key(), e.timeoutMs(),
        e.bytes(), target, e.retry(), d.groups.of(e.group()), e.priority(), e.now());
    if (e.progressTimeoutMs() > 0) {
      job.fate().progressTimeoutMs = e.progressTimeoutMs();
    }
    d.jobs.add(job);
    if (e.key() != null) {
      d.bindings.jobAccepted(e.key(), target);
    }
    long due = 0;
    if (waits) {
      due = e.now() + delay;
      job.order = d.backlog.nextOrder();
      d.waiting.add(job, due, false);
    } else {
      // The backlog puts a keyed job's slot in the dispatch index when its queue joins its ring.
      d.backlog.append(job);
    }
    d.accepted++;
    d.generatedAccepted = Math.max(d.generatedAccepted, generated);
    d.record(new DurableRecord.Accepted(id, generated, job.order, e.payload(), e.key(),
        e.replyTo(), e.timeoutMs(), e.bytes(), target == null ? null : target.id, due, e.retry(),
        e.group(), e.priority(), e.progressTimeoutMs()));
    d.respond(e.replyTo(), new Outcome.Accepted(id));
    if (waits) {
      d.requeues.armDue();
    }
    d.dispatch(e.now());
    return true;
  }

  /**
   * Why a job of {@code bytes} cannot wait in the backlog (P3 in docs/rules.md): it holds {@code
   * backlogCapacity} jobs, or the job's payload would take the queued bytes past {@code
   * backlogMaxBytes}; null when there is room.
   */
  private String noRoom(long bytes) {
    if (d.held() >= d.settings.backlogCapacity()) {
      return "the backlog holds " + d.held() + " jobs" + (d.waiting.size() == 0 ? ""
          : " (" + d.waiting.size() + " of them waiting for their due time)");
    }
    long limit = d.settings.backlogMaxBytes();
    if (bytes > limit - d.heldBytes()) {
      return "the backlog holds " + d.heldBytes() + " payload bytes of " + limit
          + " (this payload: " + bytes + ")";
    }
    return null;
  }

  private boolean reject(PoolEvent.Submit e, String id, RejectionReason reason, String message) {
    d.rejected++;
    d.respond(e.replyTo(), new Outcome.Rejected(id, reason, e.payload(), message));
    return false;
  }


  PoolError complete(PoolEvent.Completed e) {
    Slot slot = d.slotsById.get(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed) {
      d.ignoredFacts++;
      return null;
    }
    int at = slot.runningIndex(e.assignment());
    if (at < 0) {
      // Refused, and counted: the one statistic a refusal moves (it changes no pool state).
      return refused(slot, e.worker(), e.assignment());
    }
    Job job = endAssignment(slot, at);
    boolean cancelled = job.place == Job.Place.CANCELLED_RUNNING;
    if (e.error() != null && !cancelled) {
      job.attemptEnded(e.now(), "FAILED", e.error().message());
    }
    job.slot = null;
    // J7: a revived slot that completed a job is well again.
    slot.probing = false;
    slot.failedProbes = 0;
    d.refresh(slot);
    if (cancelled) {
      job.place = Job.Place.DONE;
      d.released(job);
    } else if (e.error() == null) {
      d.finish(job, new Outcome.Completed(job.id, e.result(), slot.id, job.attempts), e.bytes());
    } else {
      failed(job, slot, e.error());
    }
    d.dispatch(e.now());
    // P16: the drain ends when its last assignment does, not only at the deadline.
    shutdown.finishDrainIfIdle(e.now());
    return null;
  }

  /**
   * J3 (docs/rules.md): a failed attempt runs again while the job's failure retries allow (after
   * their backoff, first in line), unless the pool is stopping; the last failure is answered and,
   * unless turned off, dead-lettered (J5).
   */
  private void failed(Job job, Slot slot, JobError error) {
    job.fate().failures++;
    FailureRetry retry = job.retry() != null ? job.retry() : d.settings.jobs().retryFailures();
    if (d.state == PoolState.RUNNING && retry.retries(job.attempts)) {
      d.retried++;
      long delay = retry.backoff().none() ? 0
          : retry.backoff().delay(job.failures(), d.retryJitter.next());
      if (delay == 0) {
        d.backlog.putFront(List.of(job));
        d.record(new DurableRecord.Requeued(job.id, job.order, job.interruption, job.stops(),
            job.failures(), 0));
      } else {
        d.requeues.waitUntil(job, d.now + delay);
        d.requeues.armDue();
      }
      return;
    }
    Outcome answer = new Outcome.Failed(job.id, error, slot.id, job.attempts);
    d.finish(job, answer, error.message().length());
    if (d.settings.jobs().deadLetterFailed()) {
      d.deadLetter(job, answer);
    }
  }

  /**
   * F4 (docs/rules.md): the handler answered "rate limited for {@code holdMs}". Fenced like a
   * completion; the job goes back to the front of its group with its start not counted (no
   * attempt, no failure, no budget), and its group, or the pool for a job without a group, is
   * held until {@code now + holdMs}. A draining pool answers it {@code interrupted(POOL_STOPPED)}.
   */
  PoolError rateLimited(PoolEvent.RateLimited e) {
    Slot slot = d.slotsById.get(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed) {
      d.ignoredFacts++;
      return null;
    }
    int at = slot.runningIndex(e.assignment());
    if (at < 0) {
      return refused(slot, e.worker(), e.assignment());
    }
    Job job = endAssignment(slot, at);
    job.slot = null;
    slot.probing = false;
    slot.failedProbes = 0;
    d.refresh(slot);
    if (job.place == Job.Place.CANCELLED_RUNNING) {
      job.place = Job.Place.DONE;
      d.released(job);
    } else if (d.state != PoolState.RUNNING) {
      d.interrupt(job, new Interruption.PoolStopped());
    } else {
      job.attempts--;
      d.backlog.putFront(List.of(job));
      d.record(new DurableRecord.Returned(job.id, job.order, job.attempts));
      d.groups.hold(job.group, e.now() + e.holdMs());
    }
    d.dispatch(e.now());
    shutdown.finishDrainIfIdle(e.now());
    return null;
  }

  /**
   * A completion or rate-limited answer for no live assignment: refused and counted (P8 in
   * docs/rules.md).
   */
  /** Takes the job at {@code at} off {@code slot}'s running list: its assignment has ended. */
  private Job endAssignment(Slot slot, int at) {
    Job job = slot.running.remove(at);
    d.runningJobs--;
    d.assignmentEnded(slot, job);
    d.groups.ended(job);
    if (job.suspect()) {
      slot.suspectsRunning--;
    }
    return job;
  }

  private PoolError refused(Slot slot, String worker, long assignment) {
    d.staleCompletions++;
    if (slot.running.isEmpty()) {
      return new PoolError.CompletionForUnavailableWorker(worker, slot.phase());
    }
    List<Long> expected = new ArrayList<>(slot.running.size());
    slot.running.forEach(j -> expected.add(j.token));
    return new PoolError.StaleCompletion(worker, expected, assignment);
  }

  void cancel(PoolEvent.Cancel e) {
    Job job = d.jobs.get(e.job());
    if (job == null) {
      return;
    }
    if (job.place == Job.Place.QUEUED) {
      d.backlog.cancel(job);
      if (job.target != null) {
        d.refresh(job.target);
      }
      d.finish(job, new Outcome.Cancelled(job.id));
      d.verdict = new Transition.Verdict.Cancelled(job.id);
      // A queued suspect kept busy slots from taking the jobs behind it (J2).
      d.dispatch(e.now());
      return;
    }
    if (job.place == Job.Place.WAITING) {
      d.waiting.leave(job);
      d.finish(job, new Outcome.Cancelled(job.id));
      d.verdict = new Transition.Verdict.Cancelled(job.id);
      return;
    }
    d.finish(job, new Outcome.Cancelled(job.id));
    d.verdict = new Transition.Verdict.Cancelled(job.id);
    job.place = Job.Place.CANCELLED_RUNNING;
    d.out.add(new Effect.CancelRunning(job.slot.id, job.token, job.id));
  }

  PoolError rebalance(PoolEvent.Rebalance e) {
    Slot slot = d.slotsById.get(e.worker());
    if (slot == null || slot.departed) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.retired()) {
      return new PoolError.RebalanceToRetiredWorker(e.worker(), slot.retirement);
    }
    if (slot.draining) {
      return new PoolError.WorkerLeaving(e.worker());
    }
    d.bindings.rebalance(e.key(), slot);
    return null;
  }

  // ---- the dead-letter set (J5) ----------------------------------------------------------------

  PoolError replay(PoolEvent.ReplayDead e) {
    DeadLetter entry = d.dead.get(e.job());
    if (entry == null) {
      return new PoolError.UnknownJob(e.job(), "in the dead-letter set");
    }
    boolean accepted = admit(new PoolEvent.Submit(entry.job(), entry.payload(), entry.key(),
        e.replyTo(), entry.timeoutMs(), entry.bytes(), 0, entry.retry(), entry.group(),
        entry.priority(), e.now()));
    if (accepted) {
      removeDead(entry.job(), Notice.DeadLetterRemoval.REPLAYED);
    }
    return null;
  }

  PoolError discard(PoolEvent.DiscardDead e) {
    if (d.dead.get(e.job()) == null) {
      return new PoolError.UnknownJob(e.job(), "in the dead-letter set");
    }
    removeDead(e.job(), Notice.DeadLetterRemoval.DISCARDED);
    return null;
  }

  private void removeDead(String job, Notice.DeadLetterRemoval why) {
    d.dead.remove(job);
    d.record(new DurableRecord.DeadRemoved(job));
    d.publish(new Notice.DeadLetterRemoved(job, why, d.dead.size()));
  }
}
