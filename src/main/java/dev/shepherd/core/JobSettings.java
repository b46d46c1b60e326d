package dev.shepherd.core;

import java.util.Objects;

/**
 * How a pool treats jobs that fail, wait and come back (section 10, J2-J6 in docs/rules.md).
 *
 * @param poisonAfter stops of the incarnations running a job (exit CRASH or TIMEOUT) after which
 *     it is answered {@code interrupted(POISON)} and dead-lettered, whatever {@code maxAttempts}
 *     says (J2). While it is above 0, a job that was running when its incarnation crashed or hung
 *     is a <em>suspect</em>: it runs alone on its slot, so its next stop is its own, and a stop
 *     while a suspect runs replaces the slot without charging the restart budget. 0 turns all of
 *     that off: every stop is charged, as the budget alone judged before.
 * @param retryBackoff how long a suspect waits before it runs again, by its number of stops (J3)
 * @param retryFailures retries of failed attempts (J3); {@link FailureRetry#NONE} answers them
 * @param maxDelayMs the longest {@code delayMs} a submit may ask for (J4)
 * @param deadLetter what the dead-letter set keeps (J5)
 * @param deadLetterFailed whether a job answered {@code failed} after its last attempt is kept
 *     in the dead-letter set too (POISON and ATTEMPTS_EXHAUSTED always are)
 * @param recentOutcomes what the ring of answered jobs keeps for lookups (J6)
 * @param seed the seed of the retry jitter source
 * @param progressTimeoutMs T2: an attempt that reports no progress for this long is hung, as a
 *     job timeout (P14) reads it; 0 means none (the default). A submit may set its own.
 */
public record JobSettings(
    int poisonAfter,
    Backoff retryBackoff,
    FailureRetry retryFailures,
    long maxDelayMs,
    Retention deadLetter,
    boolean deadLetterFailed,
    Retention recentOutcomes,
    long seed,
    long progressTimeoutMs) {

  /**
   * None of section 10 (docs/rules.md): no suspects or poison, no retry delay, failures answered at
   * once, no delayed submits, nothing kept. What a pool built from the seed's rules alone does.
   */
  public static final JobSettings NONE = new JobSettings(0, Backoff.NONE, FailureRetry.NONE, 0,
      Retention.NONE, false, Retention.NONE, 0);

  /**
   * Shepherd's defaults (see docs/configuration.md for why): poison after 2 stops, suspects
   * retried after 1 s, 2 s, … up to a minute (±20%), failures not retried (a submit that asks for
   * retries waits the same backoff between them), delays up to a day,
   * 1,000 dead letters (16 MiB), 10,000 recent outcomes (16 MiB).
   */
  public static final JobSettings DEFAULT = new JobSettings(2,
      new Backoff(1_000, 2.0, 60_000, 0.2),
      new FailureRetry(1, new Backoff(1_000, 2.0, 60_000, 0.2)), 86_400_000L,
      new Retention(1_000, 16L << 20), true, new Retention(10_000, 16L << 20), 42);

  public JobSettings {
    if (poisonAfter < 0) {
      throw new ConfigException("poisonAfter", poisonAfter, "must not be negative (0 = off)");
    }
    Objects.requireNonNull(retryBackoff, "retryBackoff");
    Objects.requireNonNull(retryFailures, "retryFailures");
    if (maxDelayMs < 0) {
      throw new ConfigException("maxDelayMs", maxDelayMs, "must not be negative");
    }
    Objects.requireNonNull(deadLetter, "deadLetter");
    Objects.requireNonNull(recentOutcomes, "recentOutcomes");
    if (progressTimeoutMs < 0) {
      throw new ConfigException("progressTimeoutMs", progressTimeoutMs,
          "must not be negative (0 = none)");
    }
  }

  /** Settings without a progress timeout (T2 in docs/rules.md). */
  public JobSettings(int poisonAfter, Backoff retryBackoff, FailureRetry retryFailures,
      long maxDelayMs, Retention deadLetter, boolean deadLetterFailed, Retention recentOutcomes,
      long seed) {
    this(poisonAfter, retryBackoff, retryFailures, maxDelayMs, deadLetter, deadLetterFailed,
        recentOutcomes, seed, 0);
  }

  /** T2 (docs/rules.md): the pool's progress timeout (0: none). */
  public JobSettings withProgressTimeoutMs(long ms) {
    return new JobSettings(poisonAfter, retryBackoff, retryFailures, maxDelayMs, deadLetter,
        deadLetterFailed, recentOutcomes, seed, ms);
  }

  /** Whether jobs are judged by the stops they cause (J2 in docs/rules.md). */
  public boolean judgesJobs() {
    return poisonAfter > 0;
  }

  public JobSettings withPoisonAfter(int stops) {
    return new JobSettings(stops, retryBackoff, retryFailures, maxDelayMs, deadLetter,
        deadLetterFailed, recentOutcomes, seed, progressTimeoutMs);
  }

  public JobSettings withRetryBackoff(Backoff backoff) {
    return new JobSettings(poisonAfter, backoff, retryFailures, maxDelayMs, deadLetter,
        deadLetterFailed, recentOutcomes, seed, progressTimeoutMs);
  }

  public JobSettings withRetryFailures(FailureRetry retry) {
    return new JobSettings(poisonAfter, retryBackoff, retry, maxDelayMs, deadLetter,
        deadLetterFailed, recentOutcomes, seed, progressTimeoutMs);
  }

  public JobSettings withMaxDelayMs(long ms) {
    return new JobSettings(poisonAfter, retryBackoff, retryFailures, ms, deadLetter,
        deadLetterFailed, recentOutcomes, seed, progressTimeoutMs);
  }

  public JobSettings withDeadLetter(Retention retention, boolean keepFailed) {
    return new JobSettings(poisonAfter, retryBackoff, retryFailures, maxDelayMs, retention,
        keepFailed, recentOutcomes, seed, progressTimeoutMs);
  }

  public JobSettings withRecentOutcomes(Retention retention) {
    return new JobSettings(poisonAfter, retryBackoff, retryFailures, maxDelayMs, deadLetter,
        deadLetterFailed, retention, seed, progressTimeoutMs);
  }
}
