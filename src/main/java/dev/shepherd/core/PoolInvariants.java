package dev.shepherd.core;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The pool's invariants, named once and checked after every step by the property tests and the
 * simulator. Each failure names the invariant it broke.
 */
public final class PoolInvariants {
  private PoolInvariants() {}

  /** Checks every invariant: O(state). Throws {@link AssertionError} naming the broken one. */
  public static void check(Pool pool) {
    PoolData d = pool.data();
    inFlightEqualsLiveAssignments(d);
    dispatchIndexIsCurrent(d);
    List<Job> queued = d.backlog.inOrder(d.slots);
    everyAcceptedJobIsInExactlyOnePlace(d, queued);
    workConserving(d);
    noQueuedJobTargetsARetiredSlot(queued);
    stoppedOrIrrecoverablePoolsQueueNothing(d, queued);
    backlogBytesAddUp(d, queued);
    bindingsCountTheirJobs(d, queued);
  }

  /** The backlog's byte count is the sum of its live jobs' payload bytes. */
  static void backlogBytesAddUp(PoolData d, List<Job> queued) {
    long sum = 0;
    for (Job job : queued) {
      sum += job.bytes;
    }
    long counted = sum;
    require(counted == d.backlog.bytes(), "backlog bytes add up",
        () -> "queued jobs hold " + counted + " bytes, backlog counts " + d.backlog.bytes());
  }

  /**
   * Every key of a held job (queued, running, or cancelled and still running) is bound, and each
   * binding counts exactly its key's held jobs; only bindings without jobs are idle.
   */
  static void bindingsCountTheirJobs(PoolData d, List<Job> queued) {
    Map<String, Integer> held = new java.util.HashMap<>();
    for (Job job : queued) {
      if (job.key != null) {
        held.merge(job.key, 1, Integer::sum);
      }
    }
    for (Slot slot : d.slots) {
      for (Job job : slot.running) {
        if (job.key != null) {
          held.merge(job.key, 1, Integer::sum);
        }
      }
    }
    for (Map.Entry<String, Integer> entry : held.entrySet()) {
      int counted = d.bindings.jobsOf(entry.getKey());
      require(counted == entry.getValue(), "bindings count their jobs",
          () -> "key " + entry.getKey() + " has " + entry.getValue() + " held jobs, binding counts "
              + counted);
    }
    for (Map.Entry<String, Bindings.Binding> entry : d.bindings.sorted().entrySet()) {
      Bindings.Binding b = entry.getValue();
      require(b.jobs == held.getOrDefault(entry.getKey(), 0), "bindings count their jobs",
          () -> "binding " + entry.getKey() + " counts " + b.jobs + " jobs");
      require((b.jobs == 0) == (b.list != null), "bindings count their jobs",
          () -> "binding " + entry.getKey() + " with " + b.jobs + " jobs is "
              + (b.list == null ? "not " : "") + "idle");
    }
  }

  /** C5: each slot's in-flight count is the number of live assignments it holds. */
  static void inFlightEqualsLiveAssignments(PoolData d) {
    int total = 0;
    for (Slot slot : d.slots) {
      for (Job job : slot.running) {
        require(job.slot == slot, "C5 in-flight equals live assignments", () -> job + " on " + slot);
        require(job.place == Job.Place.RUNNING || job.place == Job.Place.CANCELLED_RUNNING,
            "C5 in-flight equals live assignments", () -> job + " is not running");
      }
      total += slot.running.size();
    }
    int held = total;
    require(held == d.runningJobs, "C5 in-flight equals live assignments",
        () -> "slots hold " + held + ", pool counts " + d.runningJobs);
  }

  /** The free-slot bit sets agree with the slots (the dispatch index behind P7). */
  static void dispatchIndexIsCurrent(PoolData d) {
    int notRetired = 0;
    for (Slot slot : d.slots) {
      boolean free = slot.hasFreeCapacity() && !slot.departed;
      require(d.free.get(slot.index) == free, "dispatch index is current", () -> slot.toString());
      require(d.freeWithTargeted.get(slot.index) == (free && slot.targetedLive > 0),
          "dispatch index is current", () -> slot.toString());
      if (!slot.retired() && !slot.departed) {
        notRetired++;
      }
    }
    int counted = notRetired;
    require(counted == d.notRetired, "dispatch index is current",
        () -> "counted " + counted + " live slots, pool says " + d.notRetired);
  }

  /** Every accepted, unanswered job is queued once or running once; nothing else is held. */
  static void everyAcceptedJobIsInExactlyOnePlace(PoolData d, List<Job> queued) {
    Map<Job, Boolean> seen = new IdentityHashMap<>();
    for (Job job : queued) {
      require(job.place == Job.Place.QUEUED, "every accepted job is in exactly one place",
          () -> job.toString());
      require(seen.put(job, true) == null, "every accepted job is in exactly one place",
          () -> job + " queued twice");
    }
    require(queued.size() == d.backlog.length(), "every accepted job is in exactly one place",
        () -> "backlog counts " + d.backlog.length() + ", holds " + queued.size());
    int running = 0;
    for (Slot slot : d.slots) {
      for (Job job : slot.running) {
        if (job.place == Job.Place.RUNNING) {
          require(seen.put(job, true) == null, "every accepted job is in exactly one place",
              () -> job + " both queued and running");
          running++;
        }
      }
    }
    int runningJobs = running;
    require(d.jobs.size() == queued.size() + runningJobs,
        "every accepted job is in exactly one place",
        () -> d.jobs.size() + " unanswered, " + queued.size() + " queued, " + runningJobs
            + " running");
    for (Job job : d.jobs.values()) {
      require(seen.containsKey(job), "every accepted job is in exactly one place",
          () -> job + " is neither queued nor running");
    }
  }

  /** C3: no queued job is eligible for a slot with free capacity. */
  static void workConserving(PoolData d) {
    if (d.state != PoolState.RUNNING) {
      return;
    }
    for (Slot slot : d.slots) {
      if (slot.hasFreeCapacity() && !slot.departed) {
        require(!d.backlog.hasUntargeted() && slot.targetedLive == 0, "C3 work-conserving",
            () -> slot + " is free while eligible jobs wait");
      }
    }
  }

  /** P10: a retired slot has no queued jobs targeted at it. */
  static void noQueuedJobTargetsARetiredSlot(List<Job> queued) {
    for (Job job : queued) {
      require(job.target == null || !job.target.retired(), "P10 no job waits for a retired slot",
          () -> job.toString());
    }
  }

  /** P11, P16: a pool that is stopping or has no live slot queues nothing. */
  static void stoppedOrIrrecoverablePoolsQueueNothing(PoolData d, List<Job> queued) {
    if (d.state != PoolState.RUNNING || d.noRecoverableWorkers()) {
      require(queued.isEmpty(), "P11/P16 nothing queued without a future",
          () -> queued.size() + " queued while " + d.state + " with " + d.notRetired + " live slots");
    }
  }

  private static void require(boolean holds, String invariant, Supplier<String> detail) {
    if (!holds) {
      throw new AssertionError("invariant broken: " + invariant + ": " + detail.get());
    }
  }
}
