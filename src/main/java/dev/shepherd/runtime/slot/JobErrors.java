package dev.shepherd.runtime.slot;

import dev.shepherd.core.JobError;
import dev.shepherd.runtime.JobFailedException;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.impl.NoStackTraceThrowable;

/**
 * The one reading of a job's failure as the {@link JobError} its answer carries (J1 in
 * docs/rules.md), used by local slots and worker hosts alike: {@code code} 500 unless the failure
 * chose one (a {@link ReplyException} keeps its failure code, a {@link BadRequest} is 400, a
 * relayed {@link JobFailedException} keeps its whole error), {@code message} the failure's message
 * (its string form when it has none), and {@code type} the failure's class name. A failure made
 * from a bare message ({@code Future.failedFuture("…")}, {@code Promise.fail("…")}) names no
 * exception, so its type is null.
 */
public final class JobErrors {
  private JobErrors() {}

  /** The error of a job that failed with {@code failure}. */
  public static JobError of(Throwable failure) {
    if (failure instanceof JobFailedException relayed) {
      return relayed.error();
    }
    int code = failure instanceof BadRequest ? 400
        : failure instanceof ReplyException reply ? reply.failureCode()
        : 500;
    return new JobError(code, message(failure), type(failure));
  }

  private static String message(Throwable failure) {
    String message = failure.getMessage();
    return message != null ? message : failure.toString();
  }

  private static String type(Throwable failure) {
    // Vert.x wraps a bare message in this class: the handler named no exception of its own.
    return failure.getClass() == NoStackTraceThrowable.class ? null
        : failure.getClass().getName();
  }
}
