package dev.shepherd.runtime;

import dev.shepherd.core.Outcome;

/** The job was cancelled by request before it completed. */
public final class JobCancelledException extends JobException {
  private static final long serialVersionUID = 1L;

  JobCancelledException(Outcome.Cancelled cancelled) {
    super(cancelled, "job " + cancelled.job() + " cancelled");
  }
}
