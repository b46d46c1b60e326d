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
          slot.life == Slot.Life.BACKING_OFF ? slot.backoffUntil : null,
          slot.host == null ? null : slot.host.id));
    }
    Counters counters = counters(d);
    RestartBudget budget = d.supervisor.budget();
    long nextDue = d.waiting.size() == 0 ? Long.MAX_VALUE : d.waiting.nextDue();
    return new PoolSnapshot(d.settings.name(), d.state, d.held(),
        d.settings.backlogCapacity(), List.copyOf(slots), counters, budget.inWindow(now),
        budget.maxRestarts(), budget.windowMs(), hosts(d), null, d.waiting.size(),
        nextDue == Long.MAX_VALUE ? null : nextDue, d.dead.size(),
        d.groups.poolPausedSince != null, d.groups.poolPausedSince, busiest(d, now),
        d.groups.count(), d.local.size());
  }

  /**
   * The pool's totals since it started (or since the first term of a durable pool, T3 in
   * docs/rules.md).
   */
  static Counters counters(PoolData d) {
    return new Counters(d.accepted, d.rejected, d.completed, d.failed, d.interrupted,
        d.cancelled, d.retried, d.restarts, d.staleCompletions, d.budgetRefusals, d.ignoredFacts,
        d.revives, d.poisoned, d.deadLettered, d.dead.evicted());
  }

  private static List<PoolSnapshot.HostStatus> hosts(PoolData d) {
    List<PoolSnapshot.HostStatus> hosts = new ArrayList<>(d.hosts.size());
    for (Host host : d.hosts.values()) {
      if (host.state == HostState.GONE) {
        continue;
      }
      List<String> ids = new ArrayList<>(host.slots.size());
      for (Slot slot : host.slots) {
        if (!slot.departed) {
          ids.add(slot.id);
        }
      }
      hosts.add(new PoolSnapshot.HostStatus(host.id, host.node, host.state, List.copyOf(ids),
          host.since));
    }
    return List.copyOf(hosts);
  }

  /** F1 (docs/rules.md): group {@code name}'s status, or null when the pool does not know it. */
  static PoolSnapshot.GroupStatus group(PoolData d, String name, long now) {
    FlowGroup group = name == null ? null : d.groups.find(name);
    return group == null ? null : status(group, now);
  }

  private static PoolSnapshot.GroupStatus status(FlowGroup g, long now) {
    return new PoolSnapshot.GroupStatus(g.name, g.running, g.held, g.concurrency,
        g.queueCapacity, g.weight, g.bucket == null ? null : g.bucket.limit,
        g.pausedSince != null, g.pausedSince, g.heldUntil > now ? g.heldUntil : null);
  }

  /** The busiest {@code busiest} groups by running + queued, then by name: O(groups log busiest). */
  private static List<PoolSnapshot.GroupStatus> busiest(PoolData d, long now) {
    int limit = d.groups.settings().busiest();
    if (limit == 0) {
      return List.of();
    }
    java.util.Comparator<FlowGroup> order = java.util.Comparator
        .<FlowGroup>comparingInt(g -> g.running + g.held).reversed()
        .thenComparing(g -> g.name);
    java.util.PriorityQueue<FlowGroup> top = new java.util.PriorityQueue<>(order.reversed());
    for (FlowGroup g : d.groups.named()) {
      top.add(g);
      if (top.size() > limit) {
        top.poll();
      }
    }
    List<FlowGroup> chosen = new ArrayList<>(top);
    chosen.sort(order);
    List<PoolSnapshot.GroupStatus> out = new ArrayList<>(chosen.size());
    chosen.forEach(g -> out.add(status(g, now)));
    return out;
  }
}
