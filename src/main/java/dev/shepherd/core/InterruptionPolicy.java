package dev.shepherd.core;

/**
 * What happens to a job whose worker incarnation stopped while running it (P9 in docs/rules.md).
 */
public enum InterruptionPolicy {
  /** Answer the submitter {@code interrupted} with the payload. */
  FAIL,
  /** Put the job back at the front of the backlog (at-least-once). */
  RETRY
}
