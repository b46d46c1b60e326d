package dev.shepherd.core;

import java.util.Comparator;
import java.util.TreeSet;

/**
 * The fair scheduler over the {@link GroupQueue}s that may take one slot's jobs (F2 in
 * docs/rules.md): deficit round-robin in its smooth form (stride scheduling, or weighted fair
 * queueing by virtual time). Every start costs its queue {@code STRIDE / weight} of virtual time;
 * the next start goes to the queue that has used the least, ties to the older queue. A queue that
 * joins (its first job, or its group unblocked) starts at the ring's virtual time, so idle time
 * earns no credit. Under contention each queue gets starts in proportion to its weight, off by
 * less than one start at any moment. O(log queues) per start.
 */
final class FairRing {
  /** Virtual time one start costs a queue of weight 1. */
  static final long STRIDE = 1L << 32;

  /** By virtual time used, then age; written out, as it runs for nearly every job admitted. */
  private static final Comparator<GroupQueue> ORDER = (a, b) -> {
    int byPass = Long.compare(a.pass, b.pass);
    return byPass != 0 ? byPass : Long.compare(a.seq, b.seq);
  };

  private final TreeSet<GroupQueue> queues = new TreeSet<>(ORDER);
  /** The virtual time of the last start. */
  private long now;

  boolean isEmpty() {
    return queues.isEmpty();
  }

  /** The queue that starts next, or null. */
  GroupQueue first() {
    return queues.isEmpty() ? null : queues.first();
  }

  /** {@code queue} joins the ring at the ring's virtual time (or later, if it used more). */
  void add(GroupQueue queue) {
    queue.pass = Math.max(queue.pass, now);
    queues.add(queue);
    queue.ring = this;
  }

  void remove(GroupQueue queue) {
    queues.remove(queue);
    queue.ring = null;
  }

  /**
   * {@code queue}, a member, made a start: it pays for it, and stays in the ring while it holds
   * jobs.
   */
  void charge(GroupQueue queue, int weight) {
    queues.remove(queue);
    now = Math.max(now, queue.pass);
    queue.pass += STRIDE / weight;
    if (queue.live > 0) {
      queues.add(queue);
    } else {
      queue.ring = null;
    }
  }

  String describe() {
    StringBuilder out = new StringBuilder("vt=").append(now).append(" [");
    for (GroupQueue q : queues) {
      out.append(q.name()).append('@').append(q.pass).append(' ');
    }
    return out.append(']').toString();
  }
}
