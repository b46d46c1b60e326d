package dev.shepherd.core;

/**
 * One answer to a submitter. {@link Accepted} is the admission; every other kind but
 * {@link Rejected} is terminal, and an accepted job receives exactly one terminal outcome.
 */
public sealed interface Outcome {

  /** The job this outcome is about. */
  String job();

  /** Whether this answer ends the job (everything but {@link Accepted}). */
  default boolean terminal() {
    return !(this instanceof Accepted);
  }

  /** The job is in the pool; its terminal outcome follows. */
  record Accepted(String job) implements Outcome {}

  /** The job was refused at admission; its payload is handed back. */
  record Rejected(String job, RejectionReason reason, Object payload, String message)
      implements Outcome {}

  /** A worker returned a result. */
  record Completed(String job, Object result, String worker, int attempts) implements Outcome {}

  /** A worker returned a failed future: the job ran and failed, and is not retried. */
  record Failed(String job, JobError error, String worker, int attempts) implements Outcome {}

  /** The job ended without a result; the payload is handed back. */
  record Interrupted(String job, Object payload, int attempts, Interruption reason)
      implements Outcome {}

  /** The job was cancelled by request (P17 in docs/rules.md). */
  record Cancelled(String job) implements Outcome {}
}
