package dev.shepherd.core;

import java.util.Objects;

/**
 * Retries of jobs that ran and failed (J3 in docs/rules.md): a job whose attempt failed is run
 * again, after {@code backoff}, while it has had fewer than {@code maxAttempts} attempts; its last
 * failure is answered {@code failed}. {@code maxAttempts} 1 (the default) never retries a failure:
 * a failure is the handler's answer, as P8 reads it.
 */
public record FailureRetry(int maxAttempts, Backoff backoff) {

  /** Failures are answered at once. */
  public static final FailureRetry NONE = new FailureRetry(1, Backoff.NONE);

  public FailureRetry {
    if (maxAttempts < 1) {
      throw new ConfigException("retryFailures.maxAttempts", maxAttempts,
          "must be at least 1 (1 = failures are not retried)");
    }
    Objects.requireNonNull(backoff, "backoff");
  }

  /** Whether a job that failed its {@code attempts}-th attempt runs again. */
  boolean retries(int attempts) {
    return attempts < maxAttempts;
  }
}
