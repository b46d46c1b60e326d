package dev.shepherd.core;

/**
 * T2 (docs/rules.md): progress reports and the progress timeout. A report from the attempt that
 * holds a live assignment becomes its job's checkpoint (handed to the job's next attempt by
 * {@link Effect.Assign}) and is published ({@link Effect.Progress}); a report with a stale token
 * is ignored and counted, like any stale fact. With a progress timeout, an attempt that reports
 * nothing for that long is hung and its incarnation stopped with exit {@code TIMEOUT}, exactly as
 * when it runs past its job timeout (P14): the timer is armed once per assignment and, when it
 * fires early because a report came in, armed again for the end of the new silence, so a report
 * costs no timer of its own.
 */
final class ProgressFlow {
  private final PoolData d;
  private final SlotFlow slots;

  ProgressFlow(PoolData data, SlotFlow slots) {
    this.d = data;
    this.slots = slots;
  }

  PoolError progress(PoolEvent.Progress e) {
    Slot slot = d.slotsById.get(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    int at = slot.departed ? -1 : slot.runningIndex(e.assignment());
    Job job = at < 0 ? null : slot.running.get(at);
    if (job == null || job.place != Job.Place.RUNNING) {
      // A stale token, or a job already answered cancelled: nobody is told, nothing is kept.
      d.ignoredFacts++;
      return null;
    }
    Job.Fate fate = job.fate();
    fate.checkpoint = e.progress();
    fate.checkpointBytes = e.bytes();
    fate.progressAt = e.now();
    if (d.settings.durable()) {
      // A3: the checkpoint is journaled for the next leader, at most once per job per
      // CHECKPOINT_WRITE_MS; a report within that is held back and goes with the next report
      // after it, or before the job's Requeued record.
      if (fate.checkpointWrittenAt == Long.MIN_VALUE
          || e.now() - fate.checkpointWrittenAt >= Pool.CHECKPOINT_WRITE_MS) {
        d.writeCheckpoint(job, e.now());
      } else {
        fate.checkpointHeld = true;
      }
    }
    d.out.add(new Effect.Progress(job.replyTo, job.id, slot.id, job.token, job.attempts,
        e.progress(), e.bytes()));
    return null;
  }

  /** The silence timer of a live assignment fired: hung, or armed again for the new silence. */
  void silence(Timer.ProgressSilence timer, long now) {
    Job job = d.liveAssignment(timer.worker(), timer.assignment());
    if (job == null) {
      return;
    }
    Slot slot = job.slot;
    long limit = job.progressTimeout(d.settings.jobs().progressTimeoutMs());
    long end = job.lastHeard() + limit;
    if (now < end) {
      d.out.add(new Effect.StartTimer(timer, end));
      return;
    }
    slots.stop(slot, Exit.TIMEOUT, "job '" + job.id + "' reported no progress for " + limit
        + " ms", now);
  }

  /** Arms the silence timer of a new assignment, when a progress timeout applies to its job. */
  static void armed(PoolData d, Slot slot, Job job) {
    long limit = job.progressTimeout(d.settings.jobs().progressTimeoutMs());
    if (limit > 0) {
      d.out.add(new Effect.StartTimer(new Timer.ProgressSilence(slot.id, job.token),
          job.startedAt + limit));
    }
  }

  /** An assignment ended: its silence timer no longer applies. */
  static void ended(PoolData d, Slot slot, Job job) {
    if (job.progressTimeout(d.settings.jobs().progressTimeoutMs()) > 0) {
      d.out.add(new Effect.CancelTimer(new Timer.ProgressSilence(slot.id, job.token)));
    }
  }
}
