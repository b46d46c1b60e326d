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
    List<Job> ready = d.backlog.inOrder(d.slots);
    List<Job> waiting = d.waiting.inOrder();
    List<Job> queued = new java.util.ArrayList<>(ready);
    queued.addAll(waiting);
    everyAcceptedJobIsInExactlyOnePlace(d, ready, waiting);
    workConserving(d);
    groupsCountTheirJobs(d, queued);
    suspectsRunAlone(d);
    noQueuedJobTargetsARetiredSlot(queued);
    stoppedOrIrrecoverablePoolsQueueNothing(d, queued);
    backlogBytesAddUp(d, ready, waiting);
    bindingsCountTheirJobs(d, queued);
    keptSetsStayWithinTheirBounds(d);
    checkpointsAreBounded(d);
  }

  /**
   * T2 (docs/rules.md): a held job's checkpoint costs at most {@link JobProgress#MAX_BYTES}, a job
   * without one counts no bytes for it, and it was reported no later than now.
   */
  static void checkpointsAreBounded(PoolData d) {
    for (Job job : d.jobs.values()) {
      if (job.fate == null) {
        continue;
      }
      Job.Fate f = job.fate;
      require(f.checkpointBytes >= 0 && f.checkpointBytes <= JobProgress.MAX_BYTES
              && (f.checkpoint != null || (f.checkpointBytes == 0 && f.progressAt == 0))
              && f.progressAt <= d.now, "T2 checkpoints are bounded",
          () -> job + " holds checkpoint " + f.checkpoint + " of " + f.checkpointBytes
              + " bytes, reported at " + f.progressAt + " (now " + d.now + ")");
    }
  }

  /**
   * J2 (docs/rules.md): a slot running a suspect runs nothing else, and counts its suspects right.
   */
  static void suspectsRunAlone(PoolData d) {
    for (Slot slot : d.slots) {
      int suspects = 0;
      for (Job job : slot.running) {
        if (job.suspect()) {
          suspects++;
        }
      }
      int counted = suspects;
      require(counted == slot.suspectsRunning, "J2 suspects run alone",
          () -> slot + " counts " + slot.suspectsRunning + " suspects, runs " + counted);
      require(counted == 0 || slot.running.size() == 1, "J2 suspects run alone",
          () -> slot + " runs a suspect beside other jobs");
    }
  }

  /**
   * J5, J6 (docs/rules.md): the dead-letter set and the recent outcomes hold no more than they may.
   */
  static void keptSetsStayWithinTheirBounds(PoolData d) {
    JobSettings rules = d.settings.jobs();
    long deadBytes = 0;
    for (DeadLetter entry : d.dead.all()) {
      deadBytes += entry.bytes();
    }
    long counted = deadBytes;
    require(d.dead.size() <= rules.deadLetter().capacity() && counted == d.dead.bytes()
            && counted <= rules.deadLetter().maxBytes(), "J5 the dead-letter set is bounded",
        () -> d.dead.size() + " entries of " + rules.deadLetter() + ", " + counted + " bytes, "
            + d.dead.bytes() + " counted");
    long recentBytes = 0;
    for (RecentOutcome entry : d.recent.all()) {
      recentBytes += entry.bytes();
    }
    long remembered = recentBytes;
    require(d.recent.size() <= rules.recentOutcomes().capacity() && remembered == d.recent.bytes()
            && remembered <= rules.recentOutcomes().maxBytes(),
        "J6 the recent outcomes are bounded", () -> d.recent.size() + " entries of "
            + rules.recentOutcomes() + ", " + remembered + " bytes, " + d.recent.bytes()
            + " counted");
  }

  /** The backlog's and the waiting jobs' byte counts are the sums of their payload bytes. */
  static void backlogBytesAddUp(PoolData d, List<Job> ready, List<Job> waiting) {
    long sum = 0;
    for (Job job : ready) {
      sum += job.bytes;
    }
    long counted = sum;
    require(counted == d.backlog.bytes(), "backlog bytes add up",
        () -> "queued jobs hold " + counted + " bytes, backlog counts " + d.backlog.bytes());
    long held = 0;
    for (Job job : waiting) {
      held += job.bytes;
    }
    long waited = held;
    require(waited == d.waiting.bytes() && waiting.size() == d.waiting.size(),
        "backlog bytes add up", () -> "waiting jobs hold " + waited + " bytes, "
            + waiting.size() + " jobs; counted " + d.waiting.bytes() + ", " + d.waiting.size());
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

  /** C5 (docs/rules.md): each slot's in-flight count is the number of live assignments it holds. */
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

  /**
   * The free-slot bit sets agree with the slots (the dispatch index behind P7 in docs/rules.md).
   */
  static void dispatchIndexIsCurrent(PoolData d) {
    int notRetired = 0;
    for (Slot slot : d.slots) {
      boolean free = slot.hasFreeCapacity() && !slot.departed;
      require(d.free.get(slot.index) == free, "dispatch index is current", () -> slot.toString());
      require(d.freeWithTargeted.get(slot.index) == (free && !slot.ring.isEmpty()),
          "dispatch index is current", () -> slot.toString());
      if (!slot.retired() && !slot.departed) {
        notRetired++;
      }
    }
    int counted = notRetired;
    require(counted == d.notRetired, "dispatch index is current",
        () -> "counted " + counted + " live slots, pool says " + d.notRetired);
  }

  /**
   * Every accepted, unanswered job is queued once, waiting once or running once; nothing else is
   * held.
   */
  static void everyAcceptedJobIsInExactlyOnePlace(PoolData d, List<Job> ready,
      List<Job> waiting) {
    Map<Job, Boolean> seen = new IdentityHashMap<>();
    for (Job job : ready) {
      require(job.place == Job.Place.QUEUED,
          "every accepted job is in exactly one place", () -> job.toString());
      require(seen.put(job, true) == null, "every accepted job is in exactly one place",
          () -> job + " queued twice");
    }
    require(ready.size() == d.backlog.length(), "every accepted job is in exactly one place",
        () -> "backlog counts " + d.backlog.length() + ", holds " + ready.size());
    require(d.backlog.lanesHoldTheirJobs(d.slots), "every accepted job is in exactly one place",
        () -> "a queued job is in the wrong lane: " + d.backlog.fingerprint());
    for (Job job : waiting) {
      require(job.place == Job.Place.WAITING && seen.put(job, true) == null,
          "every accepted job is in exactly one place", () -> job + " waits twice or as "
              + job.place);
    }
    List<Job> queued = new java.util.ArrayList<>(ready);
    queued.addAll(waiting);
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

  /**
   * C3 (docs/rules.md), with groups (F1-F5): no free slot could take a <em>runnable</em> job. A
   * queued job is runnable when the pool and its group may start a job now (not paused, not
   * held, a token in each bucket, its group below its concurrency); every free slot eligible for
   * a runnable job runs something and waits to be idle for a runnable suspect (J2).
   */
  static void workConserving(PoolData d) {
    if (d.state != PoolState.RUNNING || !d.groups.poolRunnable()) {
      return;
    }
    List<GroupQueue> untargeted = new java.util.ArrayList<>();
    for (FlowGroup group : d.groups.all()) {
      if (group.any != null && group.any.live > 0 && d.groups.runnable(group)) {
        untargeted.add(group.any);
      }
    }
    for (Slot slot : d.slots) {
      if (!slot.hasFreeCapacity() || slot.departed) {
        continue;
      }
      List<GroupQueue> eligible = new java.util.ArrayList<>(untargeted);
      for (GroupQueue queue : slot.queues) {
        if (queue.live > 0 && d.groups.runnable(queue.group)) {
          eligible.add(queue);
        }
      }
      if (eligible.isEmpty()) {
        continue;
      }
      boolean suspect = false;
      for (GroupQueue queue : eligible) {
        require(queue.parked == false && queue.ring != null, "C3 work-conserving",
            () -> "runnable " + queue.describe() + " is out of its ring");
        suspect |= queue.best(d.now, d.groups.agingMs()).lane == GroupQueue.SUSPECTS;
      }
      boolean waitsForIdle = suspect;
      require(waitsForIdle && !slot.running.isEmpty(), "C3 work-conserving",
          () -> slot + " is free while runnable jobs wait: " + eligible.get(0).describe());
    }
  }

  /**
   * F1 (docs/rules.md): each group counts its running jobs (cancelled-running ones included) and
   * its held ones (queued or waiting) right; none starts beyond its concurrency (checked at the
   * start); a group with nothing to keep is forgotten.
   */
  static void groupsCountTheirJobs(PoolData d, List<Job> queued) {
    Map<FlowGroup, int[]> counts = new IdentityHashMap<>();
    for (Job job : queued) {
      counts.computeIfAbsent(job.group, g -> new int[2])[1]++;
      require(job.inBound, "F1 groups count their jobs", () -> job + " is not counted as held");
    }
    for (Slot slot : d.slots) {
      for (Job job : slot.running) {
        counts.computeIfAbsent(job.group, g -> new int[2])[0]++;
      }
    }
    for (FlowGroup group : d.groups.all()) {
      int[] c = counts.getOrDefault(group, new int[2]);
      require(c[0] == group.running && c[1] == group.held, "F1 groups count their jobs",
          () -> group + " holds " + c[1] + " and runs " + c[0]);
      require(group.name == null || group.running > 0 || group.held > 0
              || group.override() != null || group.pausedSince != null
              || group.readyAt != Long.MAX_VALUE || group.refillingUntil > 0,
          "F1 idle groups are forgotten",
          () -> group + " is kept with nothing to keep");
      counts.remove(group);
    }
    require(counts.isEmpty(), "F1 groups count their jobs",
        () -> "jobs of unknown groups: " + counts.keySet());
  }

  /** P10 (docs/rules.md): a retired slot has no queued jobs targeted at it. */
  static void noQueuedJobTargetsARetiredSlot(List<Job> queued) {
    for (Job job : queued) {
      require(job.target == null || !job.target.retired(), "P10 no job waits for a retired slot",
          () -> job.toString());
    }
  }

  /** P11, P16 (docs/rules.md): a pool that is stopping or has no live slot queues nothing. */
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
