package dev.shepherd.core;

/** Why a slot will never be dispatched to again. */
public enum Retirement {
  /** Its incarnation failed to deploy (P2 in docs/rules.md). */
  CREATION_REJECTED,
  /** The supervisor did not replace it: policy, or budget exceeded (P10 in docs/rules.md). */
  REPLACEMENT_UNAVAILABLE,
  /**
   * Its host stayed lost longer than {@code hostGraceMs} (H6 in docs/rules.md); the host's return
   * revives it.
   */
  HOST_LOST
}
