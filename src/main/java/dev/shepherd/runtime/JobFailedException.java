package dev.shepherd.runtime;

import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;

/** The job ran and its worker returned a failure; the worker is healthy, the job not retried. */
public final class JobFailedException extends JobException {
  private static final long serialVersionUID = 1L;

  JobFailedException(Outcome.Failed failed) {
    super(failed, "job " + failed.job() + " failed on " + failed.worker() + ": "
        + failed.error().code() + " " + failed.error().message());
  }

  public JobError error() {
    return ((Outcome.Failed) outcome()).error();
  }

  public String worker() {
    return ((Outcome.Failed) outcome()).worker();
  }
}
