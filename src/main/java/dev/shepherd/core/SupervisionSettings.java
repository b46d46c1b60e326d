package dev.shepherd.core;

import java.util.Objects;

/**
 * How stopped slots are replaced (section 4 in docs/rules.md): restart policy (S1), strategy (S3),
 * the restart budget of at most {@code maxRestarts} replacements within a sliding {@code
 * restartWindowMs} ({@link #INFINITE_WINDOW} never forgets, S2), the reaction when it is exceeded
 * (S4), an optional restart backoff (S5; null = replace at once), and {@code reviveAfterMs}: how
 * long a slot retired by the budget (or by a failed creation) waits before it is tried again, the
 * way a circuit breaker half-opens (0 = never), doubling for each probe that retires again without
 * having completed a job, up to {@code reviveMaxMs} (J7).
 *
 * <p>Neither a revive by time nor an operator's revive is a restart: S2's budget counts the
 * supervisor's replacements only, so a revive neither needs room in the window nor takes any. A
 * revived slot that fails again meets the budget as it stands: with the window still full, it
 * retires again at its first stop, and waits {@code reviveAfterMs} once more.
 */
public record SupervisionSettings(
    RestartPolicy policy,
    Strategy strategy,
    int maxRestarts,
    long restartWindowMs,
    BudgetReaction onBudgetExceeded,
    BackoffSettings backoff,
    long reviveAfterMs,
    long reviveMaxMs) {

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
    if (reviveAfterMs < 0) {
      throw new ConfigException("supervision.reviveAfterMs", reviveAfterMs,
          "must not be negative (0 = never)");
    }
    if (reviveMaxMs < reviveAfterMs) {
      throw new ConfigException("supervision.reviveMaxMs", reviveMaxMs,
          "must be at least reviveAfterMs (" + reviveAfterMs + ")");
    }
  }

  /** Settings whose revive delay does not grow ({@code reviveMaxMs = reviveAfterMs}). */
  public SupervisionSettings(RestartPolicy policy, Strategy strategy, int maxRestarts,
      long restartWindowMs, BudgetReaction onBudgetExceeded, BackoffSettings backoff,
      long reviveAfterMs) {
    this(policy, strategy, maxRestarts, restartWindowMs, onBudgetExceeded, backoff,
        reviveAfterMs, reviveAfterMs);
  }

  /** The wait before the revive probe of a slot whose last {@code failedProbes} probes failed. */
  long reviveDelay(int failedProbes) {
    double delay = reviveAfterMs * Math.pow(2, Math.min(failedProbes, 40));
    return (long) Math.min((double) reviveMaxMs, delay);
  }

  /** These settings with revives by time after {@code afterMs}, growing up to {@code maxMs}. */
  public SupervisionSettings withRevive(long afterMs, long maxMs) {
    return new SupervisionSettings(policy, strategy, maxRestarts, restartWindowMs,
        onBudgetExceeded, backoff, afterMs, maxMs);
  }

  /** Settings whose retired slots are never revived by time. */
  public SupervisionSettings(RestartPolicy policy, Strategy strategy, int maxRestarts,
      long restartWindowMs, BudgetReaction onBudgetExceeded, BackoffSettings backoff) {
    this(policy, strategy, maxRestarts, restartWindowMs, onBudgetExceeded, backoff, 0, 0);
  }

  /** Shepherd's defaults: PERMANENT, ONE_FOR_ONE, 5 restarts in 10 s, retire, no backoff. */
  public static SupervisionSettings defaults() {
    return new SupervisionSettings(
        RestartPolicy.PERMANENT, Strategy.ONE_FOR_ONE, 5, 10_000, BudgetReaction.RETIRE_WORKER,
        null);
  }
}
