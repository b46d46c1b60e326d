package dev.shepherd.core;

import java.util.List;

/**
 * A noteworthy change for observers. Per-job churn between IDLE and ASSIGNED is not a notice (the
 * snapshot shows it); supervision-level changes are.
 */
public sealed interface Notice {

  /** A slot moved to {@code phase} (INSTALLING, IDLE after creation, BACKING_OFF, RETIRED). */
  record PhaseChanged(
      String worker, Phase phase, int incarnation, Long backoffUntil, Retirement retirement)
      implements Notice {}

  /**
   * The supervisor replaces {@code replaced} (slot order) because {@code worker} stopped with
   * {@code exit}; the replacements are deployed after {@code delayMs}.
   */
  record RestartDecided(
      String worker, Exit exit, String cause, List<String> replaced, long delayMs)
      implements Notice {}

  /** S2: a decision to replace {@code replacementsRequested} slots was refused by the budget. */
  record BudgetExceeded(
      String worker,
      int restartsInWindow,
      int replacementsRequested,
      int maximumRestarts,
      BudgetReaction reaction)
      implements Notice {}

  /**
   * A retired slot was put back in service as incarnation {@code incarnation}: by an operator, or
   * by the {@code reviveAfterMs} timer ({@code byOperator} false).
   */
  record Revived(String worker, int incarnation, Retirement was, boolean byOperator)
      implements Notice {}

  /**
   * A worker host registered (UP), was lost (LOST: {@code cause} says how it was found out), or
   * left (GONE) (H5, H7); {@code cause} is null but for LOST.
   */
  record HostChanged(String host, String node, HostState state, String cause) implements Notice {}

  /**
   * The pool took over from the coordinator of {@code previousTerm} (A3): it rebuilt {@code jobs}
   * accepted jobs, of which {@code interrupted} had been running.
   */
  record Recovered(long term, long previousTerm, int jobs, int interrupted) implements Notice {}

  /** The pool's lifecycle state changed. */
  record PoolStateChanged(PoolState state) implements Notice {}
}
