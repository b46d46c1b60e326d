package dev.shepherd.core;

/** Whether a stopped slot is eligible for replacement at all (S1 in docs/rules.md). */
public enum RestartPolicy {
  /** Always replaced. */
  PERMANENT,
  /** Replaced unless the worker exited normally (undeployed itself). */
  TRANSIENT,
  /** Never replaced: the slot retires when its incarnation stops. */
  TEMPORARY;

  /** Whether a slot under this policy is replaced after {@code exit}. */
  public boolean restarts(Exit exit) {
    return switch (this) {
      case PERMANENT -> true;
      case TRANSIENT -> exit.abnormal();
      case TEMPORARY -> false;
    };
  }
}
