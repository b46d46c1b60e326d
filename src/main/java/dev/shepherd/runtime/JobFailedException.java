package dev.shepherd.runtime;

import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;

/**
 * The job ran and its worker returned a failure, or threw an exception (J1); the worker is
 * healthy, the job not retried. {@link #error()} is what the worker's failure said: its code,
 * message and, when it came from an exception, {@link #type()}.
 */
public final class JobFailedException extends JobException {
  private static final long serialVersionUID = 1L;

  JobFailedException(Outcome.Failed failed) {
    super(failed, "job " + failed.job() + " failed on " + failed.worker() + ": "
        + failed.error().code() + " " + failed.error().message()
        + (failed.error().type() == null ? "" : " (" + failed.error().type() + ")"));
  }

  public JobError error() {
    return ((Outcome.Failed) outcome()).error();
  }

  /** The error's code: 500 unless the worker's failure chose one. */
  public int code() {
    return error().code();
  }

  /** The class name of the exception the job failed with, or null when it named none. */
  public String type() {
    return error().type();
  }

  public String worker() {
    return ((Outcome.Failed) outcome()).worker();
  }
}
