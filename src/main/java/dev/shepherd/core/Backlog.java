package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The bounded backlog of jobs ready to run, kept for O(1) dispatch (P7 in docs/rules.md) and
 * fairness (F1-F3): every job is in its group's {@link GroupQueue} for its place (any slot, or the
 * slot its key is bound to), by priority level, FIFO within a level; the queues that may start
 * jobs are in one {@link FairRing} per place (the pool's for untargeted jobs, each slot's for its
 * keyed jobs). Every job carries an {@link Job#order}: appended jobs get increasing orders and
 * jobs put back at the front decreasing ones, so each lane stays sorted.
 *
 * <p>A free slot takes from the ring's next queue of its two places; between two queues of one
 * group the better job (level, then order) goes first, between two groups the earlier one (so a
 * pool without groups and priorities is the plain FIFO of P6). A queue whose group may not start
 * now (capped, paused, held or out of tokens: F1, F4, F5) is parked with its group when it comes
 * up, and given back to its ring when the group unblocks, so it never holds back another group.
 * A slot whose next job is a suspect takes nothing until it is idle (J2), so a suspect is never
 * passed over. Cancelled jobs stay in their lane as tombstones and are dropped when they reach the
 * head; {@link #length()} counts live jobs only.
 */
final class Backlog {
  private final PoolData d;
  /** The queues of untargeted jobs that may start. */
  final FairRing any = new FairRing();
  private int length;
  /** Payload bytes of the live queued jobs. */
  private long bytes;
  /** Live untargeted suspects. */
  private int suspects;
  private long nextBack;
  private long nextFront = -1;

  Backlog(PoolData data) {
    this.d = data;
  }

  /** Live queued jobs. */
  int length() {
    return length;
  }

  /** Payload bytes of the live queued jobs. */
  long bytes() {
    return bytes;
  }

  /** Whether some queue of untargeted jobs may be up for a start (every free slot may take it). */
  boolean hasUntargeted() {
    return !any.isEmpty();
  }

  /** Whether an untargeted suspect is queued. */
  boolean hasSuspects() {
    return suspects > 0;
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
    job.group.enter(job);
    GroupQueue queue = job.group.queueFor(job.target, d.groups);
    queue.add(job, front);
    entered(job, queue);
  }

  /**
   * {@code job} joined {@code queue} (appended, put back, or moved): the counts follow, as
   * {@link #left} undoes them, and the queue joins its ring unless its group is blocked.
   */
  private void entered(Job job, GroupQueue queue) {
    length++;
    bytes += job.bytes;
    if (job.target == null) {
      if (job.lane == GroupQueue.SUSPECTS) {
        suspects++;
      }
    } else {
      job.target.queuedLive++;
      if (job.lane == GroupQueue.SUSPECTS) {
        job.target.suspectsLive++;
      }
    }
    if (queue.ring == null && !queue.parked) {
      join(queue);
    }
  }

  /** {@code queue} may start jobs: into its place's ring (and its slot's place in the index). */
  private void join(GroupQueue queue) {
    ringOf(queue).add(queue);
    if (queue.target != null) {
      d.refresh(queue.target);
    }
  }

  private FairRing ringOf(GroupQueue queue) {
    return queue.target == null ? any : queue.target.ring;
  }

  /** {@code job} leaves its queue (taken or cancelled): the counts follow. */
  private void left(Job job) {
    length--;
    bytes -= job.bytes;
    if (job.target == null) {
      if (job.lane == GroupQueue.SUSPECTS) {
        suspects--;
      }
    } else {
      job.target.queuedLive--;
      if (job.lane == GroupQueue.SUSPECTS) {
        job.target.suspectsLive--;
      }
    }
  }

  /**
   * Removes and returns the job {@code slot} takes next (P6, F1-F3, J2 in docs/rules.md), or null;
   * keeps the slot's place in the dispatch index current.
   */
  Job takeFor(Slot slot) {
    GroupQueue untargeted = next(any);
    GroupQueue targeted = next(slot.ring);
    GroupQueue queue = pick(untargeted, targeted);
    Job job = null;
    if (queue != null) {
      // The group whose turn it is starts its best job for this slot: of its untargeted queue
      // and its queue for this slot, FIFO within a level (F2, F3).
      GroupQueue from = queue;
      Job best = queue.best(d.now, d.groups.agingMs());
      GroupQueue other = queue.target == null
          ? (queue.group.bySlot == null ? null : queue.group.bySlot.get(slot))
          : queue.group.any;
      if (other != null && other.live > 0 && !other.parked) {
        Job alternative = other.best(d.now, d.groups.agingMs());
        if (before(alternative, best)) {
          from = other;
          best = alternative;
        }
      }
      if (best.lane != GroupQueue.SUSPECTS || slot.running.isEmpty()) {
        job = best;
        from.take(job);
        left(job);
        // The queue that won the turn pays for it.
        queue.ring.charge(queue, queue.group.weight);
        if (from != queue && from.live == 0 && from.ring != null) {
          from.ring.remove(from);
        }
        // Only the queue taken from can be empty now (the one that won the turn, if it is not
        // that one, still holds its jobs).
        from.group.dropIfEmpty(from);
      }
    }
    d.refresh(slot);
    return job;
  }

  /**
   * Whether {@code a} goes before {@code b} of the same group: level, then order (F3 in
   * docs/rules.md).
   */
  private boolean before(Job a, Job b) {
    int la = GroupQueue.level(a, d.now, d.groups.agingMs());
    int lb = GroupQueue.level(b, d.now, d.groups.agingMs());
    return la != lb ? la < lb : a.order < b.order;
  }

  /** The first queue of {@code ring} whose group may start a job, parking the others. */
  private GroupQueue next(FairRing ring) {
    GroupQueue queue;
    while ((queue = ring.first()) != null && !d.groups.mayStart(queue.group)) {
      ring.remove(queue);
      queue.parked = true;
      queue.group.parked.add(queue);
    }
    return queue;
  }

  /** Of the next untargeted and the next targeted queue, the one whose job goes first. */
  private GroupQueue pick(GroupQueue untargeted, GroupQueue targeted) {
    if (untargeted == null || targeted == null) {
      return untargeted == null ? targeted : untargeted;
    }
    long now = d.now;
    long aging = d.groups.agingMs();
    Job a = untargeted.best(now, aging);
    Job b = targeted.best(now, aging);
    if (untargeted.group == targeted.group) {
      int la = GroupQueue.level(a, now, aging);
      int lb = GroupQueue.level(b, now, aging);
      if (la != lb) {
        return la < lb ? untargeted : targeted;
      }
    }
    return a.order < b.order ? untargeted : targeted;
  }

  /** {@code group} may start again: its parked queues go back to their rings. */
  void unpark(FlowGroup group) {
    for (GroupQueue queue : group.parked) {
      queue.parked = false;
      if (queue.live > 0 && queue.ring == null) {
        join(queue);
      } else {
        group.dropIfEmpty(queue);
      }
    }
    group.parked.clear();
  }

  /** Marks a queued job cancelled; it is skipped when it reaches the head. */
  void cancel(Job job) {
    job.place = Job.Place.CANCELLED_QUEUED;
    GroupQueue queue = job.queue;
    queue.cancelled(job);
    left(job);
    if (queue.live == 0 && queue.ring != null) {
      queue.ring.remove(queue);
      queue.group.dropIfEmpty(queue);
    }
  }

  /** Removes every live job targeted at {@code slot}, in order. */
  void drainTargeted(Slot slot, Consumer<Job> sink) {
    List<Job> all = new ArrayList<>(slot.queuedLive);
    for (GroupQueue queue : new ArrayList<>(slot.queues)) {
      empty(queue, all);
    }
    all.sort((a, b) -> Long.compare(a.order, b.order));
    all.forEach(sink);
  }

  private void empty(GroupQueue queue, List<Job> into) {
    int before = into.size();
    queue.drain(into::add);
    for (int i = before; i < into.size(); i++) {
      left(into.get(i));
    }
    if (queue.ring != null) {
      queue.ring.remove(queue);
    }
    queue.group.dropIfEmpty(queue);
  }

  /**
   * F6 (docs/rules.md): the live jobs targeted at {@code from}, in order, each retargeted to what
   * {@code to} says (null: it stays) and put back in its group's queue for its slot at its place
   * in the order (its level and order are kept, so FIFO within a group holds, F2, F3); returns the
   * moved ones. The backlog's length, bytes and every group's held count do not change; the
   * queues of {@code from} are let go and the moved jobs' queues join their slots' rings (or wait
   * with their blocked group). O(jobs bound to {@code from}, times a lane's length at worst).
   */
  List<Job> retarget(Slot from, Function<Job, Slot> to) {
    List<Job> all = new ArrayList<>(from.queuedLive);
    for (GroupQueue queue : new ArrayList<>(from.queues)) {
      empty(queue, all);
    }
    all.sort((a, b) -> Long.compare(a.order, b.order));
    List<Job> moved = new ArrayList<>(all.size());
    for (Job job : all) {
      Slot target = to.apply(job);
      if (target != null && target != from) {
        job.target = target;
        moved.add(job);
      }
      reenqueue(job);
    }
    d.refresh(from);
    return moved;
  }

  /**
   * Puts back a job {@link #empty} took out, at its own order among its queue's jobs (F6 in
   * docs/rules.md); its group still counts it as held.
   */
  private void reenqueue(Job job) {
    GroupQueue queue = job.group.queueFor(job.target, d.groups);
    queue.insert(job);
    entered(job, queue);
  }

  /** Removes every live job, in backlog order. */
  void drainAll(List<Slot> slots, Consumer<Job> sink) {
    List<Job> all = new ArrayList<>(length);
    for (GroupQueue queue : queues(slots)) {
      empty(queue, all);
    }
    all.sort((a, b) -> Long.compare(a.order, b.order));
    all.forEach(sink);
  }

  /** Every queue: each group's untargeted one, then each slot's (O(groups + slots)). */
  List<GroupQueue> queues(List<Slot> slots) {
    List<GroupQueue> all = new ArrayList<>();
    for (FlowGroup group : d.groups.all()) {
      if (group.any != null) {
        all.add(group.any);
      }
    }
    for (Slot slot : slots) {
      all.addAll(slot.queues);
    }
    return all;
  }

  /** Every live job in backlog order (for status, tests and invariants; O(n log n)). */
  List<Job> inOrder(List<Slot> slots) {
    List<Job> all = new ArrayList<>(length);
    for (GroupQueue queue : queues(slots)) {
      queue.forEachLive(all::add);
    }
    all.sort((a, b) -> Long.compare(a.order, b.order));
    return all;
  }

  /** Whether every live job is in the queue and lane it belongs in (for invariants; O(n)). */
  boolean lanesHoldTheirJobs(List<Slot> slots) {
    int counted = 0;
    for (GroupQueue queue : queues(slots)) {
      if (!queue.holdsItsJobs()) {
        return false;
      }
      counted += queue.live;
    }
    return counted == length;
  }

  /** J6 (docs/rules.md): how many queued jobs are ahead of {@code job} by order (O(backlog)). */
  int ahead(Job job, List<Slot> slots) {
    int count = 0;
    for (GroupQueue queue : queues(slots)) {
      count += queue.countBefore(job.order);
    }
    return count;
  }

  /** The backlog's own state, tombstones included, for {@link Fingerprints}. */
  String fingerprint() {
    StringBuilder out = new StringBuilder("length=").append(length).append(" bytes=")
        .append(bytes).append(" suspects=").append(suspects).append(" nextBack=")
        .append(nextBack).append(" nextFront=").append(nextFront).append(" any=")
        .append(any.describe());
    for (GroupQueue queue : queues(d.slots)) {
      out.append("\n  ").append(queue.describe());
    }
    return out.toString();
  }
}
