package dev.shepherd.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * Jobs held back until a due time (J3 (docs/rules.md) retry delays, J4 delayed submits), earliest
 * first: a binary heap by due time, then by the order they began waiting, so adding and releasing
 * cost O(log n) each. A job that leaves early (cancelled, or answered because it can never run)
 * stays in the heap as a tombstone until it surfaces; the heap is rebuilt when tombstones outnumber
 * the live. They count against the backlog's bound (count and bytes) while they wait.
 */
final class Waiting {
  static final Comparator<Job> DUE_ORDER =
      Comparator.<Job>comparingLong(job -> job.fate.dueAt)
          .thenComparingLong(job -> job.fate.waitSeq);

  private PriorityQueue<Job> heap = new PriorityQueue<>(DUE_ORDER);
  private int live;
  private long bytes;
  private long nextSeq;

  int size() {
    return live;
  }

  long bytes() {
    return bytes;
  }

  /** {@code job} waits until {@code dueAt}; then it goes to the front, or appended at the back. */
  void add(Job job, long dueAt, boolean front) {
    job.place = Job.Place.WAITING;
    job.group.enter(job);
    Job.Fate fate = job.fate();
    fate.dueAt = dueAt;
    fate.waitSeq = nextSeq++;
    fate.resumeAtFront = front;
    heap.add(job);
    live++;
    bytes += job.bytes;
  }

  /**
   * Puts a recovered waiting job back (A3 in docs/rules.md); recovered jobs come in their waiting
   * order.
   */
  void restore(Job job, long dueAt, boolean front) {
    add(job, dueAt, front);
  }

  /** The earliest due time of a live waiting job, or {@link Long#MAX_VALUE}. */
  long nextDue() {
    Job job;
    while ((job = heap.peek()) != null && job.place != Job.Place.WAITING) {
      heap.poll();
    }
    return job == null ? Long.MAX_VALUE : job.fate.dueAt;
  }

  /** Removes and returns every live job due at or before {@code now}, earliest first. */
  List<Job> takeDue(long now) {
    List<Job> due = new ArrayList<>();
    while (nextDue() <= now) {
      Job job = heap.poll();
      left(job);
      due.add(job);
    }
    return due;
  }

  /** {@code job} leaves before its time (it is being cancelled or answered). */
  void leave(Job job) {
    left(job);
    if (heap.size() > 64 && heap.size() > 2 * live) {
      PriorityQueue<Job> compact = new PriorityQueue<>(Math.max(1, live), DUE_ORDER);
      for (Job waiting : heap) {
        if (waiting.place == Job.Place.WAITING && waiting != job) {
          compact.add(waiting);
        }
      }
      heap = compact;
    }
  }

  private void left(Job job) {
    live--;
    bytes -= job.bytes;
  }

  /**
   * Removes every live job that {@code which} selects, in waiting order (P10, P11, P16 in
   * docs/rules.md: they are answered). O(n log n).
   */
  List<Job> drain(Predicate<Job> which) {
    List<Job> out = new ArrayList<>();
    for (Job job : heap) {
      if (job.place == Job.Place.WAITING && which.test(job)) {
        out.add(job);
      }
    }
    out.sort(DUE_ORDER);
    for (Job job : out) {
      left(job);
      job.place = Job.Place.DONE;
    }
    if (live == 0) {
      heap.clear();
    }
    return out;
  }

  /** Every live job in waiting order (for status, invariants and images). */
  List<Job> inOrder() {
    List<Job> out = new ArrayList<>(live);
    for (Job job : heap) {
      if (job.place == Job.Place.WAITING) {
        out.add(job);
      }
    }
    out.sort(DUE_ORDER);
    return out;
  }

  String fingerprint() {
    StringBuilder out = new StringBuilder("live=").append(live).append(" bytes=").append(bytes)
        .append(" nextSeq=").append(nextSeq).append(" [");
    for (Job job : inOrder()) {
      out.append(job.id).append('@').append(job.fate.dueAt).append('#').append(job.fate.waitSeq)
          .append(job.fate.resumeAtFront ? "F " : "B ");
    }
    return out.append(']').toString();
  }
}
