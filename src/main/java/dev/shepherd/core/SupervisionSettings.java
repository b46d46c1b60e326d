package dev.shepherd.core;

import java.util.Objects;

/**
 * How stopped slots are replaced (section 4): restart policy (S1), strategy (S3), the restart
 * budget of at most {@code maxRestarts} replacements within a sliding {@code restartWindowMs}
 * ({@link #INFINITE_WINDOW} never forgets, S2), the reaction when it is exceeded (S4), and an
 * optional restart backoff (S5; null = replace at once).
 */
public record SupervisionSettings(
    RestartPolicy policy,
    Strategy strategy,
    int maxRestarts,
    long restartWindowMs,
    BudgetReaction onBudgetExceeded,
    BackoffSettings backoff) {

  /** A window that never drops a restart. */
  public static final long INFINITE_WINDOW = Long.MAX_VALUE;

  public SupervisionSettings {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(onBudgetExceeded, "onBudgetExceeded");
    if (maxRestarts < 0) {
      throw new ConfigException("supervision.maxRestarts", maxRestarts, "must not be negative");
    }
    if (restartWindowMs < 1) {
      throw new ConfigException(
          "supervision.restartWindowMs", restartWindowMs, "must be at least 1 (or infinite)");
    }
  }

  /** Shepherd's defaults: PERMANENT, ONE_FOR_ONE, 5 restarts in 10 s, retire, no backoff. */
  public static SupervisionSettings defaults() {
    return new SupervisionSettings(
        RestartPolicy.PERMANENT, Strategy.ONE_FOR_ONE, 5, 10_000, BudgetReaction.RETIRE_WORKER,
        null);
  }
}
