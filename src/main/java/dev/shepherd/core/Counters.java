package dev.shepherd.core;

/**
 * Totals since the pool started. {@code staleCompletions} counts completions refused as stale or
 * for a slot holding nothing (P8 in docs/rules.md): the one figure a refused event moves. {@code
 * poisoned} counts jobs answered POISON (J2), {@code deadLettered} jobs kept in the dead-letter set
 * and {@code deadLetterEvicted} those pushed out of it (J5).
 */
public record Counters(
    long accepted,
    long rejected,
    long completed,
    long failed,
    long interrupted,
    long cancelled,
    long retried,
    long restarts,
    long staleCompletions,
    long budgetRefusals,
    long ignoredFacts,
    long revives,
    long poisoned,
    long deadLettered,
    long deadLetterEvicted) {

  /** Counters of a pool that poisoned and dead-lettered nothing. */
  public Counters(long accepted, long rejected, long completed, long failed, long interrupted,
      long cancelled, long retried, long restarts, long staleCompletions, long budgetRefusals,
      long ignoredFacts, long revives) {
    this(accepted, rejected, completed, failed, interrupted, cancelled, retried, restarts,
        staleCompletions, budgetRefusals, ignoredFacts, revives, 0, 0, 0);
  }
}
