package dev.shepherd.core;

import java.util.Objects;

/**
 * An answered job as the ring of recent outcomes remembers it (J6 in docs/rules.md): its terminal
 * outcome, when it was answered, and what the outcome costs to remember ({@code bytes}: the
 * result's or the payload's, as the runtime measured it).
 */
public record RecentOutcome(String job, Outcome outcome, long at, long bytes) {
  public RecentOutcome {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(outcome, "outcome");
  }
}
