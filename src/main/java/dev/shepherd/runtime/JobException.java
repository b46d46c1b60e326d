package dev.shepherd.runtime;

import dev.shepherd.core.Outcome;

/**
 * A job that did not complete, as a {@link PoolClient} reports it; {@link #outcome()} is the
 * pool's answer with every detail (reason, payload handed back, attempts).
 */
public abstract sealed class JobException extends RuntimeException
    permits JobRejectedException, JobInterruptedException, JobFailedException,
        JobCancelledException {
  private static final long serialVersionUID = 1L;
  private final transient Outcome outcome;

  JobException(Outcome outcome, String message) {
    this(outcome, message, null);
  }

  /**
   * Without a stack trace of its own: it is an answer, thrown nowhere in the caller's code; a
   * {@code cause} keeps its own.
   */
  JobException(Outcome outcome, String message, Throwable cause) {
    super(message, cause, false, false);
    this.outcome = outcome;
  }

  public String job() {
    return outcome.job();
  }

  public Outcome outcome() {
    return outcome;
  }

  /** The exception for a terminal outcome other than {@code completed}. */
  static JobException of(Outcome outcome) {
    return of(outcome, null);
  }

  /**
   * The exception for a terminal outcome other than {@code completed}; a {@code failed} one with
   * {@code cause}, the throwable the worker failed it with (null when unknown here).
   */
  static JobException of(Outcome outcome, Throwable cause) {
    if (outcome instanceof Outcome.Rejected r) {
      return new JobRejectedException(r);
    } else if (outcome instanceof Outcome.Interrupted i) {
      return new JobInterruptedException(i);
    } else if (outcome instanceof Outcome.Failed f) {
      return new JobFailedException(f, cause);
    } else if (outcome instanceof Outcome.Cancelled c) {
      return new JobCancelledException(c);
    }
    throw new IllegalArgumentException("not a failure: " + outcome);
  }
}
