package dev.shepherd.core;

import java.util.List;

/** The supervisor's answer to a stopped slot (section 4). */
sealed interface Decision {

  /** The policy does not restart the slot (S1): it retires. */
  record Retire() implements Decision {}

  /** Replace these slots (slot order, the stopped one included) after {@code delayMs} (S3, S5). */
  record Replace(List<Slot> slots, long delayMs) implements Decision {}

  /** The budget refused the replacement (S2); the reaction follows (S4). */
  record Refused(int restartsInWindow, int replacementsRequested, int maximumRestarts)
      implements Decision {}
}
