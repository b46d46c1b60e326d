package dev.shepherd.runtime;

import dev.shepherd.core.Backoff;
import dev.shepherd.runtime.payload.BadRequest;

/**
 * A job for {@link PoolClient}: the payload, and optionally its id (generated when null), an
 * affinity key, a timeout overriding the pool's ({@code 0} = the pool's), a delay before it may
 * run ({@code delayMs}, J4 in docs/rules.md; 0 = none, at most the pool's {@code maxDelayMs}) and
 * failure retries of its own ({@code retry}, J3; null = the pool's {@code retryFailures}). The
 * client checks these and fails the submit with a {@link BadRequest} naming the field, as the
 * protocol's {@code 400}.
 *
 * <pre>{@code
 * JobRequest.of(payload).withDelayMs(60_000).withRetry(RetryOverride.attempts(5));
 * }</pre>
 */
public record JobRequest(String job, Object payload, String key, long timeoutMs, long delayMs,
    RetryOverride retry) {

  /** A job to run as soon as it can, with the pool's failure retries. */
  public JobRequest(String job, Object payload, String key, long timeoutMs) {
    this(job, payload, key, timeoutMs, 0, null);
  }

  public static JobRequest of(Object payload) {
    return new JobRequest(null, payload, null, 0);
  }

  public JobRequest withJob(String id) {
    return new JobRequest(id, payload, key, timeoutMs, delayMs, retry);
  }

  public JobRequest withKey(String affinityKey) {
    return new JobRequest(job, payload, affinityKey, timeoutMs, delayMs, retry);
  }

  public JobRequest withTimeoutMs(long timeout) {
    return new JobRequest(job, payload, key, timeout, delayMs, retry);
  }

  /**
   * This job, accepted now and run no earlier than {@code delay} ms later (J4 in docs/rules.md).
   */
  public JobRequest withDelayMs(long delay) {
    return new JobRequest(job, payload, key, timeoutMs, delay, retry);
  }

  /** This job with failure retries of its own (J3 in docs/rules.md); null = the pool's. */
  public JobRequest withRetry(RetryOverride override) {
    return new JobRequest(job, payload, key, timeoutMs, delayMs, override);
  }

  /** This job retried after a failure up to {@code maxAttempts} attempts, waiting {@code backoff}. */
  public JobRequest withRetry(int maxAttempts, Backoff backoff) {
    return withRetry(new RetryOverride(maxAttempts, backoff));
  }
}
