package dev.shepherd.core;

/**
 * Totals since the pool started. {@code staleCompletions} counts completions refused as stale or
 * for a slot holding nothing (P8): the one figure a refused event moves.
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
}
