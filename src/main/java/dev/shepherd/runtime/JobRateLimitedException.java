package dev.shepherd.runtime;

/**
 * A handler's answer that its job could not run now because a downstream is rate limiting it
 * (an HTTP 429 with its {@code Retry-After}, a quota spent): F4 in docs/rules.md. Fail the job's
 * future with it, or throw it from {@link JobHandler#handle}, and the pool puts the job back at
 * the front of its group, counts no attempt and charges no budget, and starts nothing more from
 * that group (or from the whole pool, for a job without a group) for {@link #holdMs()}; then the
 * job runs again. It is not a failure: the job is never answered {@code failed} for it, and a
 * pool whose {@code worker.onException} is {@code CRASH} does not read it as a crash.
 *
 * <pre>{@code
 * public Future<Object> handle(Job job) {
 *   return client.send(request).compose(response -> response.statusCode() == 429
 *       ? Future.failedFuture(new JobRateLimitedException(retryAfterMs(response)))
 *       : Future.succeededFuture(response.bodyAsJsonObject()));
 * }
 * }</pre>
 *
 * <p>The same from worker hosts: the host carries the answer to the pool's coordinator, which
 * holds the group wherever its jobs run. Only the failure itself is read, not its causes: wrap
 * nothing around it.
 */
public final class JobRateLimitedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /** The longest hold one answer may ask for: a day; a longer one is held this long. */
  public static final long MAX_HOLD_MS = 86_400_000L;

  private final long holdMs;

  /**
   * The downstream asks to wait {@code holdMs}; under 1 is 1 ms, over {@link #MAX_HOLD_MS} is
   * that.
   */
  public JobRateLimitedException(long holdMs) {
    this(holdMs, null);
  }

  /** As {@link #JobRateLimitedException(long)}, with a message for logs. */
  public JobRateLimitedException(long holdMs, String message) {
    super(message != null ? message : "rate limited for " + clamp(holdMs) + " ms", null, false,
        false);
    this.holdMs = clamp(holdMs);
  }

  /** How long the job's group (or the pool) is held, in ms: 1 to {@link #MAX_HOLD_MS}. */
  public long holdMs() {
    return holdMs;
  }

  private static long clamp(long ms) {
    return Math.max(1, Math.min(MAX_HOLD_MS, ms));
  }
}
