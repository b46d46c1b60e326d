package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Pool;
import dev.shepherd.core.PoolError;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.Transition;
import dev.shepherd.runtime.DeadLetterPage;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.access.BusEndpoints;
import dev.shepherd.runtime.access.LocalPoolHandle;
import dev.shepherd.runtime.time.WallTimes;
import dev.shepherd.runtime.wire.Responder;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * What a coordinator answers about jobs beyond submitting them, on its context: where a job is
 * and waiting for its outcome (J6 in docs/rules.md, with the {@link JobWaiters}), and the
 * dead-letter set (J5): pages, entries, replays and discards. {@link LocalPoolHandle} and {@link
 * BusEndpoints} reach it the same way; replays and discards are events of the pool like any other.
 * What it hands out carries wall times ({@link WallTimes}).
 */
public final class LookupsAndDeadLetters {
  private final Coordinator coordinator;
  private final Pool pool;
  private final JobWaiters waiters;

  LookupsAndDeadLetters(Coordinator coordinator, Pool pool) {
    this.coordinator = coordinator;
    this.pool = pool;
    this.waiters = new JobWaiters(coordinator.scheduler(), this::lookup);
  }

  JobWaiters waiters() {
    return waiters;
  }

  /** Where {@code job} is, or null when the pool never accepted it or has forgotten it. */
  public JobView lookup(String job) {
    return WallTimes.view(pool.lookup(job), coordinator.clock());
  }

  /**
   * The terminal outcome of {@code job}: at once when it is answered and remembered, else when it
   * is answered, or its view if {@code timeoutMs} pass first. Fails ({@link PoolErrorException})
   * with {@code UNKNOWN_JOB} for a job the pool does not know, {@code TOO_MANY_WAITERS} beyond
   * the {@link JobWaiters} bounds.
   */
  public Future<Awaited> await(String job, long timeoutMs) {
    JobView view = pool.lookup(job);
    if (view == null) {
      return Future.failedFuture(unknownJob(job));
    }
    if (view.outcome() != null) {
      return Future.succeededFuture(Awaited.answered(view.outcome()));
    }
    return waiters.await(job, timeoutMs);
  }

  /** The refusal of a lookup of a job the pool does not know. */
  public static PoolErrorException unknownJob(String job) {
    return new PoolErrorException(new PoolError.UnknownJob(job,
        "known to this pool (never accepted, or answered and forgotten)"));
  }

  /** The refusal of a read of a job the dead-letter set does not hold. */
  public static PoolErrorException notDead(String job) {
    return new PoolErrorException(new PoolError.UnknownJob(job, "in the dead-letter set"));
  }

  /** Up to {@code limit} dead letters after {@code offset}, newest first, with the set's size. */
  public DeadLetterPage deadLetters(int offset, int limit) {
    return WallTimes.page(new DeadLetterPage(coordinator.name(), pool.deadLetterCount(),
        pool.snapshot(coordinator.now()).counters().deadLetterEvicted(), offset, limit,
        pool.deadLetters(offset, limit)), coordinator.clock());
  }

  /** The dead letter of {@code job}, or null. */
  public DeadLetter deadLetter(String job) {
    return WallTimes.deadLetter(pool.deadLetter(job), coordinator.clock());
  }

  /**
   * Submits the dead-lettered {@code job} again: its admission ({@code accepted}, after which it
   * has left the set, or {@code rejected}, and it stays), or a failed future {@code UNKNOWN_JOB}.
   * Its terminal outcome goes to whoever waits for it (J6 in docs/rules.md), not to this caller.
   */
  public Future<Outcome> replay(String job) {
    Promise<Outcome> admission = Promise.promise();
    Responder responder = outcome -> {
      if (outcome instanceof Outcome.Accepted || outcome instanceof Outcome.Rejected) {
        admission.tryComplete(outcome);
      }
    };
    Transition t = coordinator.apply(new PoolEvent.ReplayDead(job, responder,
        coordinator.now()));
    if (t instanceof Transition.Refused refused) {
      return Future.failedFuture(new PoolErrorException(refused.error()));
    }
    return admission.future();
  }

  /** Discards the dead-lettered {@code job}: null, or the refusal ({@code UNKNOWN_JOB}). */
  public PoolError discard(String job) {
    Transition t = coordinator.apply(new PoolEvent.DiscardDead(job, coordinator.now()));
    return t instanceof Transition.Refused refused ? refused.error() : null;
  }
}
