package dev.shepherd.runtime;

/**
 * What an exception thrown by {@link JobHandler#handle} means for its incarnation ({@code
 * worker.onException}, J1 in docs/rules.md). An {@link Error} thrown by {@code handle} is a crash
 * either way, and a returned failed future fails its job either way.
 */
public enum OnException {
  /**
   * The default, and the Vert.x convention (a function that throws inside {@code compose} fails
   * the future): the job is answered {@code failed} with the exception's type and message, and
   * the incarnation keeps serving.
   */
  FAIL_JOB,
  /**
   * The OTP reading, for workers whose state an exception may have corrupted: the incarnation
   * crashes (exit {@code CRASH}) and the supervisor decides what follows.
   */
  CRASH
}
