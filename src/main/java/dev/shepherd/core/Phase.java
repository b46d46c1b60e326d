package dev.shepherd.core;

/** A slot's public phase, as the status snapshot and the live view show it. */
public enum Phase {
  /** An incarnation is being deployed; not dispatchable. */
  INSTALLING,
  /** Running, with no live assignment. */
  IDLE,
  /** Running, with at least one live assignment (it may still have free capacity). */
  ASSIGNED,
  /** Waiting out a restart backoff before its replacement is deployed. */
  BACKING_OFF,
  /** Permanently out of service. */
  RETIRED,
  /**
   * Its host left the cluster or stopped sending heartbeats (H5 in docs/rules.md): not
   * dispatchable, not retired, not charged to the restart budget; keyed jobs bound to it wait (H6).
   */
  LOST,
  /**
   * A local slot leaving the pool after a resize (F6 in docs/rules.md): nothing new is dispatched
   * to it; its running jobs finish, then it is gone from the status.
   */
  DRAINING
}
