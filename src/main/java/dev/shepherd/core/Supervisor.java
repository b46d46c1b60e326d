package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides, for a stopped slot, whether and which slots are replaced: restart policy (S1 in
 * docs/rules.md), budget (S2), strategy (S3) and backoff (S5). It owns the budget and the jitter
 * source; the pool applies the decision.
 */
final class Supervisor {
  private final SupervisionSettings settings;
  private final RestartBudget budget;
  private final Jitter jitter;

  Supervisor(SupervisionSettings settings) {
    this.settings = settings;
    this.budget = new RestartBudget(settings.maxRestarts(), settings.restartWindowMs());
    this.jitter = settings.backoff() == null ? null : new Jitter(settings.backoff().seed());
  }

  SupervisionSettings settings() {
    return settings;
  }

  RestartBudget budget() {
    return budget;
  }

  /**
   * The decision for {@code dead}, stopped with {@code exit}; {@code charged} false replaces
   * without counting against the budget (J2 in docs/rules.md: the stop was a suspect's, judged by
   * poisonAfter).
   */
  Decision decide(Slot dead, Exit exit, long now, List<Slot> slots, boolean charged) {
    if (!settings.policy().restarts(exit)) {
      return new Decision.Retire();
    }
    budget.forget(now);
    List<Slot> candidates = candidates(dead, slots);
    if (charged) {
      if (!budget.allows(candidates.size())) {
        return new Decision.Refused(budget.size(), candidates.size(), settings.maxRestarts());
      }
      budget.record(candidates.size(), now);
    }
    return new Decision.Replace(candidates, delay(dead, now));
  }

  private List<Slot> candidates(Slot dead, List<Slot> slots) {
    return switch (settings.strategy()) {
      case ONE_FOR_ONE -> List.of(dead);
      case ONE_FOR_ALL -> alive(slots, 0);
      case REST_FOR_ONE -> alive(slots, dead.index);
    };
  }

  private static List<Slot> alive(List<Slot> slots, int from) {
    List<Slot> alive = new ArrayList<>();
    for (int i = from; i < slots.size(); i++) {
      Slot slot = slots.get(i);
      if (!slot.retired() && slot.life != Slot.Life.LOST && !slot.draining) {
        alive.add(slot);
      }
    }
    return alive;
  }

  private long delay(Slot dead, long now) {
    BackoffSettings backoff = settings.backoff();
    if (backoff == null) {
      return 0;
    }
    if (dead.consecutiveFailures > 0 && now - dead.runningSince >= backoff.resetAfterMs()) {
      dead.consecutiveFailures = 0;
    }
    dead.consecutiveFailures++;
    long base = backoff.baseDelay(dead.consecutiveFailures);
    double spread = backoff.jitter() * (2 * jitter.next() - 1);
    // The jitter spreads the delay but never past maxMs: the cap is what an operator reads.
    return Math.min(backoff.maxMs(), Math.max(0, Math.round(base * (1 + spread))));
  }

  long jitterState() {
    return jitter == null ? 0 : jitter.state();
  }
}
