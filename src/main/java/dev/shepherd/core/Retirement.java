package dev.shepherd.core;

/** Why a slot will never be dispatched to again. */
public enum Retirement {
  /** Its incarnation failed to deploy (P2). */
  CREATION_REJECTED,
  /** The supervisor did not replace it: policy, or budget exceeded (P10). */
  REPLACEMENT_UNAVAILABLE,
  /** Its host stayed lost longer than {@code hostGraceMs} (H6); the host's return revives it. */
  HOST_LOST
}
