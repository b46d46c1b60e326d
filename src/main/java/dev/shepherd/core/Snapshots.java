package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/** Builds {@link PoolSnapshot}s: a pure function of a pool's state and the time. */
final class Snapshots {
  private Snapshots() {}

  static PoolSnapshot of(PoolData d, long now) {
    List<PoolSnapshot.SlotStatus> slots = new ArrayList<>(d.slots.size());
    for (Slot slot : d.slots) {
      if (slot.departed) {
        continue;
      }
      List<PoolSnapshot.AssignmentStatus> assignments = new ArrayList<>(slot.running.size());
      for (Job job : slot.running) {
        assignments.add(new PoolSnapshot.AssignmentStatus(job.token, job.id));
      }
      slots.add(new PoolSnapshot.SlotStatus(slot.id, slot.phase(), slot.capacity,
          slot.running.size(), List.copyOf(assignments), slot.incarnation, slot.restarts,
          slot.life == Slot.Life.RETIRED ? slot.retirement : null,
          slot.life == Slot.Life.BACKING_OFF ? slot.backoffUntil : null));
    }
    Counters counters = new Counters(d.accepted, d.rejected, d.completed, d.failed,
        d.interrupted, d.cancelled, d.retried, d.restarts, 0, d.budgetRefusals, d.ignoredFacts);
    RestartBudget budget = d.supervisor.budget();
    return new PoolSnapshot(d.settings.name(), d.state, d.backlog.length(),
        d.settings.backlogCapacity(), List.copyOf(slots), counters, budget.inWindow(now),
        budget.maxRestarts(), budget.windowMs());
  }
}
