package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;

/**
 * What waiting for a job's answer gave (J6 in docs/rules.md): its terminal {@code outcome}, or,
 * when the wait ended first (its time was up, or the coordinator stopped acting), the {@code view}
 * of where the job was then. Exactly one of the two is set.
 */
public record Awaited(Outcome outcome, JobView view) {
  public Awaited {
    if ((outcome == null) == (view == null)) {
      throw new IllegalArgumentException("exactly one of outcome and view");
    }
  }

  public static Awaited answered(Outcome outcome) {
    return new Awaited(outcome, null);
  }

  public static Awaited pending(JobView view) {
    return new Awaited(null, view);
  }

  /** Whether the job was answered within the wait. */
  public boolean answered() {
    return outcome != null;
  }
}
