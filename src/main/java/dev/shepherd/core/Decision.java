package dev.shepherd.core;

import java.util.List;

/** The supervisor's answer to a stopped slot (section 4 in docs/rules.md). */
sealed interface Decision {

  /** The policy does not restart the slot (S1 in docs/rules.md): it retires. */
  record Retire() implements Decision {}

  /**
   * Replace these slots (slot order, the stopped one included) after {@code delayMs} (S3, S5 in
   * docs/rules.md).
   */
  record Replace(List<Slot> slots, long delayMs) implements Decision {}

  /** The budget refused the replacement (S2 in docs/rules.md); the reaction follows (S4). */
  record Refused(int restartsInWindow, int replacementsRequested, int maximumRestarts)
      implements Decision {}
}
