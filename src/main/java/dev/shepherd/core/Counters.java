package dev.shepherd.core;

/**
 * Totals since the pool started. {@code staleCompletions} is counted by the runtime (a refused
 * completion changes no pool state) and merged into the snapshot there.
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
    long revives) {

  /** The same totals with the runtime's count of refused (stale) completions. */
  public Counters withStaleCompletions(long stale) {
    return new Counters(accepted, rejected, completed, failed, interrupted, cancelled, retried,
        restarts, stale, budgetRefusals, ignoredFacts, revives);
  }
}
