package dev.shepherd.runtime;

import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;

/** The job ended without a result: its worker stopped, the pool stopped, attempts ran out, … */
public final class JobInterruptedException extends JobException {
  private static final long serialVersionUID = 1L;

  JobInterruptedException(Outcome.Interrupted interrupted) {
    super(interrupted, "job " + interrupted.job() + " interrupted: "
        + interrupted.reason().kind() + " after " + interrupted.attempts() + " attempt(s)");
  }

  public Interruption reason() {
    return ((Outcome.Interrupted) outcome()).reason();
  }

  /** The payload, handed back so the caller can send it elsewhere. */
  public Object payload() {
    return ((Outcome.Interrupted) outcome()).payload();
  }

  public int attempts() {
    return ((Outcome.Interrupted) outcome()).attempts();
  }
}
