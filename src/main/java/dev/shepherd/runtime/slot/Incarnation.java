package dev.shepherd.runtime.slot;

import dev.shepherd.core.JobError;
import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobRateLimitedException;
import io.vertx.core.Promise;

/**
 * One incarnation of a slot as its slot drives it, whatever runs it: an {@link
 * IncarnationVerticle} hosting the user's handler in production, a simulated one in the failover
 * simulation. It runs the jobs it is handed and reports to its {@link IncarnationOwner} what they
 * answered, a crash or a normal exit; its slot stops it, after which it reports nothing. Made and
 * deployed through its slot's {@link Deployments}. Called on the owner's context.
 */
public interface Incarnation {

  /** Its number among its slot's incarnations, from 1. */
  int incarnation();

  /** Hands one job to it (once deployed and created). */
  void deliver(Job job);

  /** The job of {@code assignment} was cancelled while it ran here. */
  void cancel(long assignment);

  /** {@code job}, handed to it, completed (its answer is on the way). */
  void finishedOne(Job job);

  /** Completes {@code idle} once it holds no assignment (or is stopped). */
  void whenIdle(Promise<Void> idle);

  /** Its slot stops it: nothing it does afterwards is reported, and it runs nothing more. */
  void stopBySlot();

  boolean stoppedBySlot();

  /**
   * F6 (docs/rules.md): from its next job on, runs jobs side by side ({@code true}: a WORKER
   * incarnation whose capacity a resize raised above 1) or one after another.
   */
  void unordered(boolean sideBySide);

  /** It deployed as {@code deploymentId}. */
  void deployed(String deploymentId);

  /** What it deployed as, null until it did. */
  String deploymentId();

  /**
   * One finished assignment of {@code source}: its result, or the failure the handler returned.
   */
  record Completion(Job source, long assignment, long startNanos, Object result,
      Throwable failure) {

    /** The job's id. */
    public String job() {
      return source.id();
    }

    /**
     * The failure as the protocol carries it ({@link JobErrors}), or null when the job returned a
     * result.
     */
    public JobError error() {
      return failure == null ? null : JobErrors.of(failure);
    }

    /**
     * How long the handler asked its group to be held (F4 in docs/rules.md: it failed the job
     * with a {@link JobRateLimitedException}), or -1 when it answered otherwise.
     */
    public long rateLimitedMs() {
      return failure instanceof JobRateLimitedException limited ? limited.holdMs() : -1;
    }
  }
}
