package dev.shepherd.core;

/** What the pool does when a replacement would exceed the restart budget (S4 in docs/rules.md). */
public enum BudgetReaction {
  /** Retire the stopped slot; its siblings keep running. */
  RETIRE_WORKER,
  /** Stop the whole pool at once, without drain. */
  STOP_POOL
}
