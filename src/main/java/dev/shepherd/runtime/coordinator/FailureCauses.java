package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.JobFailedException;
import java.util.HashMap;
import java.util.Map;

/**
 * The throwables that jobs of this JVM's own slots failed with, kept beside the pool (the core
 * and the wire know a failure only as its {@link JobError}) until the job's terminal answer is
 * sent, so that an in-JVM submitter's {@link JobFailedException} can carry the worker's own
 * exception as its cause. One entry per held job whose last attempt failed here; a job's entry
 * goes with its terminal answer, whatever it is, and is replaced by a later attempt's failure.
 * Coordinator's context only.
 */
final class FailureCauses {
  private record Cause(JobError error, Throwable throwable) {}

  private final Map<String, Cause> byJob = new HashMap<>();

  /** The attempt of {@code job} that ran here failed with {@code throwable}, read as {@code error}. */
  void failed(String job, JobError error, Throwable throwable) {
    byJob.put(job, new Cause(error, throwable));
  }

  /** Drops what was kept for {@code job} (the completion that failed it was refused). */
  void forget(String job) {
    if (!byJob.isEmpty()) {
      byJob.remove(job);
    }
  }

  /**
   * The throwable behind {@code outcome}, a terminal answer being sent, or null: the one its job
   * failed with here when the answer is that failure (the same error; a later attempt on a
   * worker host fails with an error of its own). A rejection answers a submit, not the held job
   * of the same id, so it takes nothing.
   */
  Throwable answered(Outcome outcome) {
    if (byJob.isEmpty() || outcome instanceof Outcome.Rejected || !outcome.terminal()) {
      return null;
    }
    Cause cause = byJob.remove(outcome.job());
    return cause != null && outcome instanceof Outcome.Failed failed
        && failed.error().equals(cause.error()) ? cause.throwable() : null;
  }

  /** Jobs with a throwable kept. */
  int size() {
    return byJob.size();
  }
}
