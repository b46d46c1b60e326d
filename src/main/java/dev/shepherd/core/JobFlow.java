package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/** The job path: admission (P3, P4, P15), completion (P8), cancel (P17) and rebalance (P5). */
final class JobFlow {
  private final PoolData d;
  private final Shutdown shutdown;

  JobFlow(PoolData data, Shutdown shutdown) {
    this.d = data;
    this.shutdown = shutdown;
  }

  PoolError submit(PoolEvent.Submit e) {
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
    Slot target = null;
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
      String full = target.hasFreeCapacity() ? null : noRoom(e.bytes());
      if (full != null) {
        return reject(e, id, RejectionReason.BACKLOG_FULL,
            "worker '" + target.id + "' is busy and " + full);
      }
    } else {
      String full = d.free.isEmpty() ? noRoom(e.bytes()) : null;
      if (full != null) {
        return reject(e, id, RejectionReason.BACKLOG_FULL, "every worker is busy and " + full);
      }
    }
    Job job = new Job(id, generated, e.payload(), e.replyTo(), e.key(), e.timeoutMs(),
        e.bytes(), target);
    d.jobs.add(job);
    if (e.key() != null) {
      d.bindings.jobAccepted(e.key(), target);
    }
    d.backlog.append(job);
    if (target != null) {
      d.refresh(target);
    }
    d.accepted++;
    d.generatedAccepted = Math.max(d.generatedAccepted, generated);
    d.record(new DurableRecord.Accepted(id, generated, job.order, e.payload(), e.key(),
        e.replyTo(), e.timeoutMs(), e.bytes(), target == null ? null : target.id));
    d.respond(e.replyTo(), new Outcome.Accepted(id));
    d.dispatch(e.now());
    return null;
  }

  /**
   * Why a job of {@code bytes} cannot wait in the backlog (P3): it holds {@code backlogCapacity}
   * jobs, or the job's payload would take the queued bytes past {@code backlogMaxBytes}; null
   * when there is room.
   */
  private String noRoom(long bytes) {
    if (d.backlog.length() >= d.settings.backlogCapacity()) {
      return "the backlog holds " + d.backlog.length() + " jobs";
    }
    long limit = d.settings.backlogMaxBytes();
    if (bytes > limit - d.backlog.bytes()) {
      return "the backlog holds " + d.backlog.bytes() + " payload bytes of " + limit
          + " (this payload: " + bytes + ")";
    }
    return null;
  }

  private PoolError reject(PoolEvent.Submit e, String id, RejectionReason reason, String message) {
    d.rejected++;
    d.respond(e.replyTo(), new Outcome.Rejected(id, reason, e.payload(), message));
    return null;
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
      d.staleCompletions++;
      if (slot.running.isEmpty()) {
        return new PoolError.CompletionForUnavailableWorker(e.worker(), slot.phase());
      }
      List<Long> expected = new ArrayList<>(slot.running.size());
      slot.running.forEach(j -> expected.add(j.token));
      return new PoolError.StaleCompletion(e.worker(), expected, e.assignment());
    }
    Job job = slot.running.remove(at);
    d.runningJobs--;
    d.assignmentEnded(slot, job);
    job.slot = null;
    d.refresh(slot);
    if (job.place == Job.Place.CANCELLED_RUNNING) {
      job.place = Job.Place.DONE;
      d.released(job);
    } else if (e.error() == null) {
      d.finish(job, new Outcome.Completed(job.id, e.result(), slot.id, job.attempts));
    } else {
      d.finish(job, new Outcome.Failed(job.id, e.error(), slot.id, job.attempts));
    }
    d.dispatch(e.now());
    // P16: the drain ends when its last assignment does, not only at the deadline.
    shutdown.finishDrainIfIdle(e.now());
    return null;
  }

  PoolError cancel(PoolEvent.Cancel e) {
    Job job = d.jobs.get(e.job());
    if (job == null) {
      return null;
    }
    if (job.place == Job.Place.QUEUED) {
      d.backlog.cancel(job);
      if (job.target != null) {
        d.refresh(job.target);
      }
      d.finish(job, new Outcome.Cancelled(job.id));
      return null;
    }
    d.finish(job, new Outcome.Cancelled(job.id));
    job.place = Job.Place.CANCELLED_RUNNING;
    d.out.add(new Effect.CancelRunning(job.slot.id, job.token, job.id));
    return null;
  }

  PoolError rebalance(PoolEvent.Rebalance e) {
    Slot slot = d.slotsById.get(e.worker());
    if (slot == null || slot.departed) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.retired()) {
      return new PoolError.RebalanceToRetiredWorker(e.worker(), slot.retirement);
    }
    d.bindings.rebalance(e.key(), slot);
    return null;
  }
}
