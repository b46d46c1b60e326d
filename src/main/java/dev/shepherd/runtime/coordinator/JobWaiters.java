package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.time.Scheduler;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Callers waiting for a held job's terminal outcome (J6 in docs/rules.md: {@code ?wait=true},
 * {@code PoolClient.await}), on the coordinator's context only. The {@link EffectInterpreter} hands
 * it every answer it sends, so a waiter ends with the outcome the submitter got, whether or not the
 * ring of recent outcomes keeps it; one whose time is up ends with the job's view then, and all
 * of them end so when the coordinator stops acting. Bounded: at most {@link #MAX_PER_JOB} waiters
 * per job and {@link #MAX_TOTAL} in all, each a timer and an entry; more are refused {@code
 * TOO_MANY_WAITERS}, so a flood of waiters cannot grow the heap without limit.
 */
public final class JobWaiters {
  /** Waiters one job may have. */
  public static final int MAX_PER_JOB = 100;
  /** Waiters a pool holds in all. */
  static final int MAX_TOTAL = 10_000;

  private final Scheduler scheduler;
  /** Where a job is now: for a waiter whose time is up. */
  private final Function<String, JobView> lookup;
  private final Map<String, List<Waiter>> byJob = new HashMap<>();
  private int total;

  private final class Waiter {
    final String job;
    final Promise<Awaited> promise = Promise.promise();
    long timer;

    Waiter(String job) {
      this.job = job;
    }

    void expire() {
      if (remove(this)) {
        JobView now = lookup.apply(job);
        if (now == null) {
          // Forgotten without an answer this waiter heard (a coordinator that stepped down
          // before its answer was written): it still ends, saying so.
          promise.fail(new PoolErrorException(PoolErrorException.UNKNOWN_JOB,
              "job '" + job + "' is no longer known to this coordinator"));
        } else {
          // Usually still held; ANSWERED when its answer is still being written (HA), or will
          // never leave a coordinator that stepped down: the view says what this one knows.
          promise.complete(Awaited.pending(now));
        }
      }
    }
  }

  JobWaiters(Scheduler scheduler, Function<String, JobView> lookup) {
    this.scheduler = scheduler;
    this.lookup = lookup;
  }

  /**
   * Waits up to {@code timeoutMs} for the terminal outcome of {@code job}, which the pool holds
   * now; a failed future ({@code TOO_MANY_WAITERS}) when the bounds are reached.
   */
  Future<Awaited> await(String job, long timeoutMs) {
    List<Waiter> waiting = byJob.get(job);
    if (total >= MAX_TOTAL || (waiting != null && waiting.size() >= MAX_PER_JOB)) {
      return Future.failedFuture(new PoolErrorException(PoolErrorException.TOO_MANY_WAITERS,
          (total >= MAX_TOTAL ? "the pool already has " + MAX_TOTAL + " waiters"
              : "job '" + job + "' already has " + MAX_PER_JOB + " waiters")
              + "; try again later"));
    }
    Waiter waiter = new Waiter(job);
    byJob.computeIfAbsent(job, k -> new ArrayList<>(1)).add(waiter);
    total++;
    waiter.timer = scheduler.after(timeoutMs, waiter::expire);
    return waiter.promise.future();
  }

  /** An answer the coordinator sent: ends the waiters of its job when it is terminal. */
  void answered(Outcome outcome) {
    // A rejection is never an accepted job's answer (a duplicate id's is the duplicate's own).
    if (total == 0 || !outcome.terminal() || outcome instanceof Outcome.Rejected) {
      return;
    }
    List<Waiter> waiting = byJob.remove(outcome.job());
    if (waiting == null) {
      return;
    }
    total -= waiting.size();
    Awaited answer = Awaited.answered(outcome);
    for (Waiter waiter : waiting) {
      scheduler.cancel(waiter.timer);
      waiter.promise.complete(answer);
    }
  }

  /** The coordinator stops acting (stopped, or stepped down): every waiter ends now. */
  void endAll() {
    List<Waiter> all = new ArrayList<>(total);
    byJob.values().forEach(all::addAll);
    for (Waiter waiter : all) {
      scheduler.cancel(waiter.timer);
      waiter.expire();
    }
  }

  /** Waiters held now. */
  public int size() {
    return total;
  }

  private boolean remove(Waiter waiter) {
    List<Waiter> waiting = byJob.get(waiter.job);
    if (waiting == null || !waiting.remove(waiter)) {
      return false;
    }
    total--;
    if (waiting.isEmpty()) {
      byJob.remove(waiter.job);
    }
    return true;
  }
}
