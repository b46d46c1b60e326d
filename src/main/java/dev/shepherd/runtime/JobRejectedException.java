package dev.shepherd.runtime;

import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;

/** The pool refused the job at admission (backlog full, shutting down, …); nothing ran. */
public final class JobRejectedException extends JobException {
  private static final long serialVersionUID = 1L;

  JobRejectedException(Outcome.Rejected rejected) {
    super(rejected, "job " + rejected.job() + " rejected: " + rejected.reason() + ": "
        + rejected.message());
  }

  public RejectionReason reason() {
    return ((Outcome.Rejected) outcome()).reason();
  }

  /** The payload, handed back so the caller can send it elsewhere. */
  public Object payload() {
    return ((Outcome.Rejected) outcome()).payload();
  }
}
