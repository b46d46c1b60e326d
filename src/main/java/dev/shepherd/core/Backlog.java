package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The bounded FIFO backlog of jobs ready to run, split into {@link Lane}s for O(1) dispatch (P7 in
 * docs/rules.md): untargeted jobs, and per slot the jobs targeted at it; each once for ordinary
 * jobs and once for suspects (J2), which run only on an idle slot. Every job carries an {@link
 * Job#order}: appended jobs get increasing orders and jobs put back at the front decreasing ones,
 * so each lane stays sorted and the earliest job eligible for a slot is the smallest of four lane
 * heads.
 *
 * <p>A slot whose earliest eligible job is a suspect takes nothing until it is idle, so a suspect
 * is never passed over and never starves (J2). Cancelled jobs stay in their lane as tombstones
 * and are dropped when they reach the head; {@link #length()} counts live jobs only.
 */
final class Backlog {
  private final Lane untargeted = new Lane();
  private final Lane suspects = new Lane();
  private int length;
  /** Payload bytes of the live queued jobs. */
  private long bytes;
  private long nextBack;
  private long nextFront = -1;

  /** Live queued jobs. */
  int length() {
    return length;
  }

  /** Payload bytes of the live queued jobs. */
  long bytes() {
    return bytes;
  }

  boolean hasUntargeted() {
    return untargeted.live > 0;
  }

  /** Whether an untargeted suspect is queued. */
  boolean hasSuspects() {
    return suspects.live > 0;
  }

  /** The lane {@code job} belongs in. */
  Lane laneOf(Job job) {
    if (job.target == null) {
      return job.suspect() ? suspects : untargeted;
    }
    return job.suspect() ? job.target.suspects : job.target.targeted;
  }

  /**
   * Takes the next order at the back for a job that does not queue yet (a delayed one, J4 in
   * docs/rules.md).
   */
  long nextOrder() {
    return nextBack++;
  }

  /**
   * Keeps later orders clear of {@code order}, which a recovered waiting job holds (A3 in
   * docs/rules.md).
   */
  void reserve(long order) {
    nextBack = Math.max(nextBack, order + 1);
    nextFront = Math.min(nextFront, order - 1);
  }

  /** Appends a job (P3, P4 in docs/rules.md; and a delayed job at its due time, J4). */
  void append(Job job) {
    job.order = nextBack++;
    enqueue(job, false);
  }

  /**
   * Puts a recovered job back at its own {@code order} (A3 in docs/rules.md). Jobs must come in
   * increasing order, before anything else is queued; later appends go behind them, later requeues
   * before them.
   */
  void restore(Job job, long order) {
    job.order = order;
    enqueue(job, false);
    nextBack = Math.max(nextBack, order + 1);
    nextFront = Math.min(nextFront, order - 1);
  }

  /** Puts interrupted jobs back at the front, keeping their given order (P9 in docs/rules.md). */
  void putFront(List<Job> jobs) {
    for (int i = jobs.size() - 1; i >= 0; i--) {
      Job job = jobs.get(i);
      job.order = nextFront--;
      enqueue(job, true);
    }
  }

  private void enqueue(Job job, boolean front) {
    job.place = Job.Place.QUEUED;
    Lane lane = laneOf(job);
    if (front) {
      lane.addFirst(job);
    } else {
      lane.addLast(job);
    }
    length++;
    bytes += job.bytes;
  }

  /** Removes and returns the job {@code slot} takes next (P6, J2 in docs/rules.md), or null. */
  Job takeFor(Slot slot) {
    Job job = peekFor(slot);
    if (job == null) {
      return null;
    }
    Lane lane = laneOf(job);
    lane.head();
    lane.take();
    length--;
    bytes -= job.bytes;
    return job;
  }

  /**
   * The job {@code slot} would take next: the earliest of the four lanes' heads eligible for it,
   * or null when there is none or when that earliest one is a suspect and the slot is not idle.
   */
  Job peekFor(Slot slot) {
    Job best = earlier(untargeted.head(), slot.targeted.head());
    Job suspect = earlier(suspects.head(), slot.suspects.head());
    if (suspect != null && (best == null || suspect.order < best.order)) {
      return slot.running.isEmpty() ? suspect : null;
    }
    return best;
  }

  private static Job earlier(Job a, Job b) {
    if (a == null) {
      return b;
    }
    return b == null || a.order < b.order ? a : b;
  }

  /** Marks a queued job cancelled; it is skipped when it reaches the head. */
  void cancel(Job job) {
    job.place = Job.Place.CANCELLED_QUEUED;
    laneOf(job).cancelled();
    length--;
    bytes -= job.bytes;
  }

  /** Removes every live job targeted at {@code slot}, in order. */
  void drainTargeted(Slot slot, Consumer<Job> sink) {
    List<Job> all = new ArrayList<>(slot.targeted.live + slot.suspects.live);
    slot.targeted.drain(all::add);
    slot.suspects.drain(all::add);
    all.sort((a, b) -> Long.compare(a.order, b.order));
    length -= all.size();
    for (Job job : all) {
      bytes -= job.bytes;
    }
    all.forEach(sink);
  }

  /**
   * F6 (docs/rules.md): the live jobs targeted at {@code from}, in order, each retargeted to what
   * {@code to} says (null: it stays) and kept at its place in the order; returns the moved ones.
   * The backlog's length and bytes do not change. O(jobs of the lanes involved).
   */
  List<Job> retarget(Slot from, java.util.function.Function<Job, Slot> to) {
    List<Job> all = new ArrayList<>(from.targeted.live + from.suspects.live);
    from.targeted.drain(all::add);
    from.suspects.drain(all::add);
    all.sort((a, b) -> Long.compare(a.order, b.order));
    List<Job> moved = new ArrayList<>(all.size());
    for (Job job : all) {
      Slot target = to.apply(job);
      if (target != null && target != from) {
        job.target = target;
        moved.add(job);
      }
      laneOf(job).insert(job);
    }
    return moved;
  }

  /** Removes every live job, in backlog order. */
  void drainAll(List<Slot> slots, Consumer<Job> sink) {
    List<Job> all = new ArrayList<>(length);
    untargeted.drain(all::add);
    suspects.drain(all::add);
    for (Slot slot : slots) {
      slot.targeted.drain(all::add);
      slot.suspects.drain(all::add);
    }
    all.sort((a, b) -> Long.compare(a.order, b.order));
    length = 0;
    bytes = 0;
    all.forEach(sink);
  }

  /** Every live job in backlog order (for status, tests and invariants; O(n log n)). */
  List<Job> inOrder(List<Slot> slots) {
    List<Job> all = new ArrayList<>(length);
    untargeted.forEachLive(all::add);
    suspects.forEachLive(all::add);
    for (Slot slot : slots) {
      slot.targeted.forEachLive(all::add);
      slot.suspects.forEachLive(all::add);
    }
    all.sort((a, b) -> Long.compare(a.order, b.order));
    return all;
  }

  /** Whether every live job is in the lane {@link #laneOf} names (for invariants; O(n)). */
  boolean lanesHoldTheirJobs(List<Slot> slots) {
    List<Lane> lanes = new ArrayList<>(List.of(untargeted, suspects));
    for (Slot slot : slots) {
      lanes.add(slot.targeted);
      lanes.add(slot.suspects);
    }
    boolean[] held = {true};
    for (Lane lane : lanes) {
      lane.forEachLive(job -> held[0] &= laneOf(job) == lane);
    }
    return held[0];
  }

  /** J6 (docs/rules.md): how many queued jobs are ahead of {@code job} (O(backlog)). */
  int ahead(Job job, List<Slot> slots) {
    int count = untargeted.countBefore(job.order) + suspects.countBefore(job.order);
    for (Slot slot : slots) {
      count += slot.targeted.countBefore(job.order) + slot.suspects.countBefore(job.order);
    }
    return count;
  }

  /** The backlog's own state, tombstones included, for {@link Fingerprints}. */
  String fingerprint() {
    return "length=" + length + " bytes=" + bytes + " untargetedLive=" + untargeted.live
        + " suspectsLive=" + suspects.live + " nextBack=" + nextBack + " nextFront=" + nextFront
        + " untargeted=" + untargeted.describe() + " suspects=" + suspects.describe();
  }
}
