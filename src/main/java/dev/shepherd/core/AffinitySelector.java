package dev.shepherd.core;

/**
 * Chooses the slot for a key seen for the first time (P4 in docs/rules.md). It is consulted once
 * per unseen key; the choice is then bound until a rebalance. It must be a deterministic function
 * of its arguments. Built-ins are in {@link Selectors}.
 */
@FunctionalInterface
public interface AffinitySelector {

  /** The id of the chosen slot, or null when no slot can be chosen. */
  String select(String key, SlotView slots);
}
