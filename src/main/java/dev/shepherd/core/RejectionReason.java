package dev.shepherd.core;

/** Why a submit was not accepted. A rejected job is never answered again. */
public enum RejectionReason {
  /** No free capacity for it and the backlog is full (P3, P4 in docs/rules.md). */
  BACKLOG_FULL,
  /** Its key is bound to a slot that is unknown or retired (P4 in docs/rules.md). */
  AFFINITY_UNAVAILABLE,
  /** A job with the same id is accepted and not yet answered (P15 in docs/rules.md). */
  DUPLICATE_JOB,
  /** The pool is draining or stopped (P16 in docs/rules.md). */
  SHUTTING_DOWN,
  /** Every slot is retired (P11 in docs/rules.md). */
  NO_RECOVERABLE_WORKERS,
  /** It cannot run now and its group holds its {@code queueCapacity} (F1 in docs/rules.md). */
  GROUP_FULL,
  /**
   * The pool or its group is paused and the pool rejects submits while paused (F5 in
   * docs/rules.md).
   */
  PAUSED
}
