package dev.shepherd.core;

/**
 * A read-only view of a pool's slots, in slot order, for an {@link AffinitySelector}. Indices run
 * from 0 to {@code size() - 1}.
 */
public interface SlotView {

  /** Number of slots, retired ones included. */
  int size();

  /** The stable id of slot {@code index}. */
  String id(int index);

  /** A 64-bit hash of the id, stable across runs and JVMs. */
  long idHash(int index);

  /** Whether the slot can still take work (it is not retired). */
  boolean selectable(int index);

  /** Live assignments the slot holds. */
  int inFlight(int index);

  /** Its advertised capacity, or -1 while unknown. */
  int capacity(int index);

  /** Queued jobs targeted at it. */
  int queued(int index);

  /**
   * How many bindings have been made so far, by the selector or by rebalance, forgotten ones
   * included (a stateless round robin reads it).
   */
  long bindings();
}
