package dev.shepherd.runtime;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.RequestDecoder;

/**
 * A submit's own failure retries (J3 in docs/rules.md, the {@code "retry"} of a submit body),
 * overriding the pool's {@code retryFailures} field by field: {@code maxAttempts} 0 keeps the
 * pool's attempts, {@code backoff} null the pool's backoff. So {@code {"retry": {"maxAttempts":
 * 5}}} retries a failed job up to 5 attempts with the waits the pool's configuration gives failure
 * retries.
 *
 * <p>Plain data, as {@link JobRequest} is: {@link PoolClient} and {@link RequestDecoder} check
 * the attempts ({@code retry.maxAttempts}, 1 to 1,000,000) and refuse bad ones as a bad
 * request; a {@link Backoff} checks itself when it is made.
 */
public record RetryOverride(int maxAttempts, Backoff backoff) {

  /** Up to {@code maxAttempts} attempts, waiting as the pool's {@code retryFailures} says. */
  public static RetryOverride attempts(int maxAttempts) {
    return new RetryOverride(maxAttempts, null);
  }

  /** The failure retries of a job of a pool whose own are {@code pool}. */
  public FailureRetry resolve(FailureRetry pool) {
    return new FailureRetry(maxAttempts > 0 ? maxAttempts : pool.maxAttempts(),
        backoff != null ? backoff : pool.backoff());
  }
}
