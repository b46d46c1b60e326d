package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Where interrupted and failed jobs go next (P9, P13, J2, J3 in docs/rules.md), and when waiting
 * jobs come back (J3, J4): poison and exhausted jobs are answered and dead-lettered, a suspect just
 * stopped waits its retry delay, others go back to the front at once; the due timer releases
 * waiting jobs, retries to the front and delayed submits to the back.
 */
final class Requeues {
  private final PoolData d;
  /** The due time of the {@link Timer.Due} started last and not yet fired, or MAX_VALUE. */
  long armedDue = Long.MAX_VALUE;

  Requeues(PoolData data) {
    this.d = data;
  }

  /**
   * Settles interrupted jobs by the interruption policy: FAIL answers each; RETRY puts them back
   * at the front in their original order, unless a job is poison (J2 in docs/rules.md) or used up
   * {@code maxAttempts} (P13), both answered and dead-lettered; a suspect just stopped waits its
   * retry delay first (J3).
   */
  void settle(List<Job> interruptedJobs) {
    interruptedJobs.sort((a, b) -> Long.compare(a.order, b.order));
    if (d.settings.interruption() == InterruptionPolicy.FAIL) {
      for (Job job : interruptedJobs) {
        job.takeStoppedRunningIt();
        d.interrupt(job, job.interruption);
      }
      return;
    }
    JobSettings rules = d.settings.jobs();
    List<Job> again = new ArrayList<>(interruptedJobs.size());
    List<Job> later = List.of();
    for (Job job : interruptedJobs) {
      boolean own = job.takeStoppedRunningIt();
      if (own && rules.judgesJobs() && job.stops() >= rules.poisonAfter()) {
        d.poisoned++;
        Interruption why = new Interruption.Poison(job.stops(),
            (Interruption.WorkerStopped) job.interruption);
        Outcome answer = new Outcome.Interrupted(job.id, job.payload, job.attempts, why);
        d.finish(job, answer);
        d.deadLetter(job, answer);
      } else if (d.settings.maxAttempts() > 0 && job.attempts >= d.settings.maxAttempts()) {
        Outcome answer = new Outcome.Interrupted(job.id, job.payload, job.attempts,
            new Interruption.AttemptsExhausted(job.attempts, job.interruption));
        d.finish(job, answer);
        d.deadLetter(job, answer);
      } else if (own && !rules.retryBackoff().none()) {
        if (later.isEmpty()) {
          later = new ArrayList<>(2);
        }
        later.add(job);
      } else {
        again.add(job);
      }
    }
    d.backlog.putFront(again);
    d.retried += again.size() + later.size();
    for (Job job : again) {
      d.record(new DurableRecord.Requeued(job.id, job.order, job.interruption, job.stops(),
          job.failures(), 0));
      if (job.target != null) {
        d.refresh(job.target);
      }
    }
    for (Job job : later) {
      long due = d.now + rules.retryBackoff().delay(job.stops(), d.retryJitter.next());
      waitUntil(job, due);
    }
    if (!later.isEmpty()) {
      armDue();
    }
  }

  /**
   * A job going back waits until {@code due}, then goes to the front (J3 in docs/rules.md);
   * recorded.
   */
  void waitUntil(Job job, long due) {
    d.waiting.add(job, due, true);
    d.record(new DurableRecord.Requeued(job.id, job.order, job.interruption, job.stops(),
        job.failures(), due));
  }

  // ---- d.waiting jobs (J3, J4) -----------------------------------------------------------------

  /** Starts the {@link Timer.Due} of the earliest d.waiting job if none that early is started. */
  void armDue() {
    long next = d.waiting.nextDue();
    if (next < armedDue) {
      if (armedDue != Long.MAX_VALUE) {
        d.out.add(new Effect.CancelTimer(new Timer.Due(armedDue)));
      }
      armedDue = next;
      d.out.add(new Effect.StartTimer(new Timer.Due(next), next));
    }
  }

  /**
   * The due timer fired: every job due by d.now goes back, retries to the front (in due order)
   * and delayed submits to the back; then the next due time is started and dispatch runs.
   */
  void due(Timer.Due timer) {
    if (timer.at() != armedDue) {
      d.ignoredFacts++;
      return;
    }
    armedDue = Long.MAX_VALUE;
    List<Job> due = d.waiting.takeDue(d.now);
    List<Job> front = new ArrayList<>(due.size());
    List<Job> back = new ArrayList<>(0);
    for (Job job : due) {
      (job.fate.resumeAtFront ? front : back).add(job);
    }
    d.backlog.putFront(front);
    for (Job job : back) {
      d.backlog.append(job);
    }
    for (List<Job> list : List.of(front, back)) {
      for (Job job : list) {
        d.record(new DurableRecord.Requeued(job.id, job.order, job.interruption, job.stops(),
            job.failures(), 0));
        if (job.target != null) {
          d.refresh(job.target);
        }
      }
    }
    armDue();
    d.dispatch(d.now);
  }
}
