package dev.shepherd.runtime;

import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;

/**
 * The job ran and its worker returned a failure, or threw an exception (J1 in docs/rules.md); the
 * worker is healthy, the job not retried (or its failure retries are spent). {@link #error()} is
 * what the worker's failure said: its {@link #code()}, message and, when it came from an exception,
 * its class name ({@link #type()}).
 *
 * <p>Where the exception itself is: when the pool runs in the client's Vert.x instance and the
 * job failed on one of its own slots, {@link #getCause()} is the very throwable the worker's
 * handler threw or failed its future with (its class, message, stack trace and causes). Over the
 * event bus (another node, a worker host, or a client that sends through a reply address) only
 * the error travels: {@link #getCause()} is null, and {@link #type()} and {@link #getMessage()}
 * say what the worker's exception was.
 *
 * <pre>{@code
 * jobs.submit(payload, JsonObject.class).onFailure(e -> {
 *   if (e instanceof JobFailedException failed && failed.getCause() instanceof SQLException sql) {
 *     …  // in the pool's JVM: the worker's own exception
 *   } else if (e instanceof JobFailedException failed
 *       && "java.sql.SQLException".equals(failed.type())) {
 *     …  // anywhere: its class name and message
 *   }
 * });
 * }</pre>
 */
public final class JobFailedException extends JobException {
  private static final long serialVersionUID = 1L;

  JobFailedException(Outcome.Failed failed, Throwable cause) {
    super(failed, "job " + failed.job() + " failed on " + failed.worker() + ": "
        + failed.error().code() + " " + failed.error().message()
        + (failed.error().type() == null ? "" : " (" + failed.error().type() + ")"), cause);
  }

  public JobError error() {
    return ((Outcome.Failed) outcome()).error();
  }

  /** The error's code: 500 unless the worker's failure chose one. */
  public int code() {
    return error().code();
  }

  /**
   * The class name of the exception the job failed with, or null when the failure named none (a
   * future failed with a bare message, {@code Future.failedFuture("…")}, whose {@link #getCause()}
   * is then Vert.x's own {@code NoStackTraceThrowable}). A worker that fails with a {@code
   * JobFailedException} of another pool passes that one's error on, type included.
   */
  public String type() {
    return error().type();
  }

  /** The slot that ran the failed attempt, e.g. {@code w-2} or {@code h1/w-0}. */
  public String worker() {
    return ((Outcome.Failed) outcome()).worker();
  }
}
