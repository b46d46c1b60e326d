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
 * less than one start at any moment. O(log queues) per start; a ring of one queue (a pool with no
 * groups configured, or one group busy) keeps it out of the tree, so a start there costs two field
 * updates and no tree node.
 */
final class FairRing {
  /** Virtual time one start costs a queue of weight 1. */
  static final long STRIDE = 1L << 32;

  private static final Comparator<GroupQueue> ORDER =
      Comparator.<GroupQueue>comparingLong(q -> q.pass).thenComparingLong(q -> q.seq);

  /** The queues while there are two or more; empty while {@link #solo} holds the only one. */
  private final TreeSet<GroupQueue> queues = new TreeSet<>(ORDER);
  /** The ring's only queue, or null (then {@link #queues} holds them all). */
  private GroupQueue solo;
  /** The virtual time of the last start. */
  private long now;

  boolean isEmpty() {
    return solo == null && queues.isEmpty();
  }

  int size() {
    return solo != null ? 1 : queues.size();
  }

  /** The queue that starts next, or null. */
  GroupQueue first() {
    if (solo != null) {
      return solo;
    }
    return queues.isEmpty() ? null : queues.first();
  }

  /** {@code queue} joins the ring at the ring's virtual time (or later, if it used more). */
  void add(GroupQueue queue) {
    queue.pass = Math.max(queue.pass, now);
    if (solo == null && queues.isEmpty()) {
      solo = queue;
    } else {
      if (solo != null) {
        queues.add(solo);
        solo = null;
      }
      queues.add(queue);
    }
    queue.ring = this;
  }

  void remove(GroupQueue queue) {
    if (solo == queue) {
      solo = null;
    } else {
      queues.remove(queue);
      soloIfOne();
    }
    queue.ring = null;
  }

  /** The tree down to one queue: it becomes the solo one. */
  private void soloIfOne() {
    if (queues.size() == 1) {
      solo = queues.pollFirst();
    }
  }

  /**
   * {@code queue}, a member, made a start: it pays for it, and stays in the ring while it holds
   * jobs.
   */
  void charge(GroupQueue queue, int weight) {
    if (solo == queue) {
      now = Math.max(now, queue.pass);
      queue.pass += STRIDE / weight;
      if (queue.live <= 0) {
        solo = null;
        queue.ring = null;
      }
      return;
    }
    queues.remove(queue);
    now = Math.max(now, queue.pass);
    queue.pass += STRIDE / weight;
    if (queue.live > 0) {
      queues.add(queue);
    } else {
      queue.ring = null;
      soloIfOne();
    }
  }

  String describe() {
    StringBuilder out = new StringBuilder("vt=").append(now).append(" [");
    if (solo != null) {
      out.append(solo.name()).append('@').append(solo.pass).append(' ');
    }
    for (GroupQueue q : queues) {
      out.append(q.name()).append('@').append(q.pass).append(' ');
    }
    return out.append(']').toString();
  }
}
