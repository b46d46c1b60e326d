package dev.shepherd.core;

import java.util.function.Consumer;

/**
 * The queued jobs of one group eligible for one place: any slot ({@code target} null) or one slot
 * (its keyed jobs, P4 in docs/rules.md). One {@link Lane} per priority level (F3), FIFO within a
 * level, and one for its suspects (J2). A queue is in its place's {@link FairRing} while it holds
 * jobs and its group may start them, or {@link #parked} with its group while the group is blocked
 * (F1, F4, F5): a blocked group never holds back another.
 */
final class GroupQueue {
  /** The lane of suspects, after the ten priority levels. */
  static final int SUSPECTS = PoolEvent.Submit.LOWEST_PRIORITY + 1;

  final FlowGroup group;
  final Slot target;
  /**
   * Creation order: breaks ties between queues of equal virtual time. A queue taken again for its
   * group ({@link #reuse}) gets a new one, as a new queue would.
   */
  long seq;
  private final Lane[] lanes = new Lane[SUSPECTS + 1];
  /** Lanes that may hold live jobs, as bits. */
  private int mask;
  int live;
  /** Virtual time used so far ({@link FairRing}). */
  long pass;
  /** The ring it is in, or null. */
  FairRing ring;
  /** Whether it waits with its blocked group, out of any ring. */
  boolean parked;

  GroupQueue(FlowGroup group, Slot target, long seq) {
    this.group = group;
    this.target = target;
    this.seq = seq;
  }

  /**
   * Makes this empty queue, out of every ring, what a new queue of its group and place numbered
   * {@code seq} would be: no lanes in use, no tombstones, no virtual time used. Its lanes keep
   * their storage (as large as the most they held), so a pool whose backlog keeps emptying (every
   * job dispatched at once, the common case below saturation) allocates no queue per job.
   */
  GroupQueue reuse(long seq) {
    assert live == 0 && ring == null && !parked : "reusing a queue in use: " + describe();
    for (Lane lane : lanes) {
      if (lane != null) {
        lane.clear();
      }
    }
    mask = 0;
    pass = 0;
    this.seq = seq;
    return this;
  }

  static int laneIndex(Job job) {
    return job.suspect() ? SUSPECTS : job.priority;
  }

  void add(Job job, boolean front) {
    int index = laneIndex(job);
    Lane lane = lanes[index];
    if (lane == null) {
      lane = lanes[index] = new Lane();
    }
    if (front) {
      lane.addFirst(job);
    } else {
      lane.addLast(job);
    }
    job.queue = this;
    job.lane = index;
    mask |= 1 << index;
    live++;
  }

  /**
   * Puts {@code job}, moved from another slot's queue (F6 in docs/rules.md), in its lane at its
   * own order, so the lane stays sorted.
   */
  void insert(Job job) {
    int index = laneIndex(job);
    Lane lane = lanes[index];
    if (lane == null) {
      lane = lanes[index] = new Lane();
    }
    lane.insert(job);
    job.queue = this;
    job.lane = index;
    mask |= 1 << index;
    live++;
  }

  /**
   * The job it starts next at {@code now}: the lowest effective priority level (F3 in
   * docs/rules.md: a job waiting {@code agingMs} is lifted one level, from its acceptance), then
   * the earliest order; suspects compete at their own level. O(levels).
   */
  Job best(long now, long agingMs) {
    Job best = null;
    int bestLevel = Integer.MAX_VALUE;
    for (int bits = mask; bits != 0; bits &= bits - 1) {
      int index = Integer.numberOfTrailingZeros(bits);
      Job head = lanes[index].head();
      if (head == null) {
        mask &= ~(1 << index);
        continue;
      }
      int level = level(head, now, agingMs);
      if (best == null || level < bestLevel || (level == bestLevel && head.order < best.order)) {
        best = head;
        bestLevel = level;
      }
    }
    return best;
  }

  /** {@code job}'s effective priority level at {@code now} (F3 in docs/rules.md). */
  static int level(Job job, long now, long agingMs) {
    if (agingMs <= 0 || job.priority == 0) {
      return job.priority;
    }
    long lifted = Math.max(0, now - job.acceptedAt) / agingMs;
    return (int) Math.max(0, job.priority - lifted);
  }

  /** Removes {@code job}, the head of its lane that {@link #best} just returned. */
  void take(Job job) {
    Lane lane = lanes[job.lane];
    lane.head();
    lane.take();
    live--;
  }

  /** A queued job of this queue was cancelled: it stays as a tombstone. */
  void cancelled(Job job) {
    lanes[job.lane].cancelled();
    live--;
  }

  void drain(Consumer<Job> sink) {
    for (Lane lane : lanes) {
      if (lane != null) {
        lane.drain(sink);
      }
    }
    live = 0;
    mask = 0;
  }

  void forEachLive(Consumer<Job> sink) {
    for (Lane lane : lanes) {
      if (lane != null) {
        lane.forEachLive(sink);
      }
    }
  }

  /** Live jobs of this queue whose order is below {@code order}. */
  int countBefore(long order) {
    int count = 0;
    for (Lane lane : lanes) {
      if (lane != null) {
        count += lane.countBefore(order);
      }
    }
    return count;
  }

  /** Whether every live job is in the lane it belongs in (for invariants). */
  boolean holdsItsJobs() {
    boolean[] held = {true};
    int counted = 0;
    for (int i = 0; i < lanes.length; i++) {
      Lane lane = lanes[i];
      if (lane == null) {
        continue;
      }
      int index = i;
      lane.forEachLive(job -> held[0] &= job.queue == this && job.lane == index
          && laneIndex(job) == index && job.group == group && job.target == target);
      counted += lane.live;
    }
    return held[0] && counted == live;
  }

  String name() {
    return (group.name == null ? "-" : group.name) + (target == null ? "" : "/" + target.id);
  }

  String describe() {
    StringBuilder out = new StringBuilder(name()).append(" live=").append(live).append(" pass=")
        .append(pass).append(parked ? " parked" : "").append(ring != null ? " ringed" : "");
    for (int i = 0; i < lanes.length; i++) {
      if (lanes[i] != null) {
        out.append(" L").append(i).append(lanes[i].describe());
      }
    }
    return out.toString();
  }
}
