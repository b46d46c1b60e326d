package dev.shepherd.runtime;

import dev.shepherd.core.Backoff;
import dev.shepherd.runtime.payload.BadRequest;

/**
 * A job for {@link PoolClient}: the payload, and optionally its id (generated when null), an
 * affinity key, a timeout overriding the pool's ({@code 0} = the pool's), a delay before it may
 * run ({@code delayMs}, J4 in docs/rules.md; 0 = none, at most the pool's {@code maxDelayMs}) and
 * failure retries of its own ({@code retry}, J3; null = the pool's {@code retryFailures}), its
 * group ({@code group}, a tenant, customer or downstream whose limits it counts in, F1; null =
 * none) and its priority within the group ({@code priority}, 0 first to 9, default {@value
 * #DEFAULT_PRIORITY}, F3), and its progress timeout ({@code progressTimeoutMs}, T2: how long it
 * may run without a progress report; 0 = the pool's). The client checks these and fails the
 * submit with a {@link BadRequest} naming the field, as the protocol's {@code 400}.
 *
 * <pre>{@code
 * JobRequest.of(payload).withDelayMs(60_000).withRetry(RetryOverride.attempts(5));
 * JobRequest.of(payload).withGroup("tenant-42").withPriority(0);
 * }</pre>
 */
public record JobRequest(String job, Object payload, String key, long timeoutMs, long delayMs,
    RetryOverride retry, String group, int priority, long progressTimeoutMs) {

  /** The priority of a job that names none (F3 in docs/rules.md): the middle of 0-9. */
  public static final int DEFAULT_PRIORITY = 5;

  /** A job with the pool's progress timeout (T2 in docs/rules.md). */
  public JobRequest(String job, Object payload, String key, long timeoutMs, long delayMs,
      RetryOverride retry, String group, int priority) {
    this(job, payload, key, timeoutMs, delayMs, retry, group, priority, 0);
  }

  /** A job without a group, at the default priority. */
  public JobRequest(String job, Object payload, String key, long timeoutMs, long delayMs,
      RetryOverride retry) {
    this(job, payload, key, timeoutMs, delayMs, retry, null, DEFAULT_PRIORITY);
  }

  /** A job to run as soon as it can, with the pool's failure retries. */
  public JobRequest(String job, Object payload, String key, long timeoutMs) {
    this(job, payload, key, timeoutMs, 0, null);
  }

  public static JobRequest of(Object payload) {
    return new JobRequest(null, payload, null, 0);
  }

  public JobRequest withJob(String id) {
    return new JobRequest(id, payload, key, timeoutMs, delayMs, retry, group, priority,
        progressTimeoutMs);
  }

  public JobRequest withKey(String affinityKey) {
    return new JobRequest(job, payload, affinityKey, timeoutMs, delayMs, retry, group, priority,
        progressTimeoutMs);
  }

  public JobRequest withTimeoutMs(long timeout) {
    return new JobRequest(job, payload, key, timeout, delayMs, retry, group, priority,
        progressTimeoutMs);
  }

  /**
   * This job, accepted now and run no earlier than {@code delay} ms later (J4 in docs/rules.md).
   */
  public JobRequest withDelayMs(long delay) {
    return new JobRequest(job, payload, key, timeoutMs, delay, retry, group, priority,
        progressTimeoutMs);
  }

  /** This job with failure retries of its own (J3 in docs/rules.md); null = the pool's. */
  public JobRequest withRetry(RetryOverride override) {
    return new JobRequest(job, payload, key, timeoutMs, delayMs, override, group, priority,
        progressTimeoutMs);
  }

  /** This job retried after a failure up to {@code maxAttempts} attempts, waiting {@code backoff}. */
  public JobRequest withRetry(int maxAttempts, Backoff backoff) {
    return withRetry(new RetryOverride(maxAttempts, backoff));
  }

  /**
   * This job in {@code name}'s group (F1 in docs/rules.md): it counts against that group's
   * concurrency, queue capacity and rate limit, and shares the pool fairly with other groups
   * (F2). Null = no group.
   */
  public JobRequest withGroup(String name) {
    return new JobRequest(job, payload, key, timeoutMs, delayMs, retry, name, priority,
        progressTimeoutMs);
  }

  /** This job at {@code level} within its group (F3 in docs/rules.md): 0 runs first, 9 last. */
  public JobRequest withPriority(int level) {
    return new JobRequest(job, payload, key, timeoutMs, delayMs, retry, group, level,
        progressTimeoutMs);
  }

  /**
   * This job failed as hung when it runs {@code timeout} ms without a progress report (T2 in
   * docs/rules.md), instead of after the pool's {@code progressTimeoutMs}; 0 = the pool's. The
   * client refuses anything but 0 or 1 to the protocol's largest timeout, naming {@code
   * progressTimeoutMs}.
   */
  public JobRequest withProgressTimeoutMs(long timeout) {
    return new JobRequest(job, payload, key, timeoutMs, delayMs, retry, group, priority,
        timeout);
  }
}
