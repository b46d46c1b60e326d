package dev.shepherd.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The bounded FIFO backlog, split for O(1) dispatch (P7): one queue of untargeted jobs and, per
 * slot, a queue of jobs targeted at it. Every job carries an {@link Job#order}; appended jobs get
 * increasing orders and jobs put back at the front get decreasing ones, so each queue stays sorted
 * and the earliest job eligible for a slot is the smaller of two queue heads.
 *
 * <p>Cancelled jobs stay in their queue as tombstones and are dropped when they reach the head;
 * {@link #length()} counts live jobs only.
 */
final class Backlog {
  private final ArrayDeque<Job> untargeted = new ArrayDeque<>();
  private int untargetedLive;
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
    return untargetedLive > 0;
  }

  /** Appends an accepted job (P3, P4). */
  void append(Job job) {
    job.order = nextBack++;
    job.place = Job.Place.QUEUED;
    if (job.target == null) {
      untargeted.addLast(job);
      untargetedLive++;
    } else {
      job.target.targeted.addLast(job);
      job.target.targetedLive++;
    }
    length++;
    bytes += job.bytes;
  }

  /**
   * Puts a recovered job back at its own {@code order} (A3). Jobs must come in increasing order,
   * before anything else is queued; later appends go behind them, later requeues before them.
   */
  void restore(Job job, long order) {
    job.order = order;
    job.place = Job.Place.QUEUED;
    if (job.target == null) {
      untargeted.addLast(job);
      untargetedLive++;
    } else {
      job.target.targeted.addLast(job);
      job.target.targetedLive++;
    }
    length++;
    bytes += job.bytes;
    nextBack = Math.max(nextBack, order + 1);
    nextFront = Math.min(nextFront, order - 1);
  }

  /** Puts interrupted jobs back at the front, keeping their given order (P9). */
  void putFront(List<Job> jobs) {
    for (int i = jobs.size() - 1; i >= 0; i--) {
      Job job = jobs.get(i);
      job.order = nextFront--;
      job.place = Job.Place.QUEUED;
      if (job.target == null) {
        untargeted.addFirst(job);
        untargetedLive++;
      } else {
        job.target.targeted.addFirst(job);
        job.target.targetedLive++;
      }
      length++;
      bytes += job.bytes;
    }
  }

  /** Removes and returns the earliest job eligible for {@code slot}, or null (P6). */
  Job takeFor(Slot slot) {
    Job shared = head(untargeted);
    Job own = head(slot.targeted);
    if (shared == null && own == null) {
      return null;
    }
    Job job;
    if (own == null || (shared != null && shared.order < own.order)) {
      job = untargeted.pollFirst();
      untargetedLive--;
    } else {
      job = slot.targeted.pollFirst();
      slot.targetedLive--;
    }
    length--;
    bytes -= job.bytes;
    return job;
  }

  /** Marks a queued job cancelled; it is skipped when it reaches the head. */
  void cancel(Job job) {
    job.place = Job.Place.CANCELLED_QUEUED;
    if (job.target == null) {
      untargetedLive--;
    } else {
      job.target.targetedLive--;
    }
    length--;
    bytes -= job.bytes;
  }

  /** Removes every live job targeted at {@code slot}, in order. */
  void drainTargeted(Slot slot, Consumer<Job> sink) {
    Job job;
    while ((job = slot.targeted.pollFirst()) != null) {
      if (job.live()) {
        length--;
        bytes -= job.bytes;
        sink.accept(job);
      }
    }
    slot.targetedLive = 0;
  }

  /** Removes every live job, in backlog order. */
  void drainAll(List<Slot> slots, Consumer<Job> sink) {
    List<Job> all = new ArrayList<>(length);
    for (Job job : untargeted) {
      if (job.live()) {
        all.add(job);
      }
    }
    untargeted.clear();
    untargetedLive = 0;
    for (Slot slot : slots) {
      for (Job job : slot.targeted) {
        if (job.live()) {
          all.add(job);
        }
      }
      slot.targeted.clear();
      slot.targetedLive = 0;
    }
    all.sort((a, b) -> Long.compare(a.order, b.order));
    length = 0;
    bytes = 0;
    all.forEach(sink);
  }

  /** Every live job in backlog order (for status, tests and invariants; O(n log n)). */
  List<Job> inOrder(List<Slot> slots) {
    List<Job> all = new ArrayList<>(length);
    for (Job job : untargeted) {
      if (job.live()) {
        all.add(job);
      }
    }
    for (Slot slot : slots) {
      for (Job job : slot.targeted) {
        if (job.live()) {
          all.add(job);
        }
      }
    }
    all.sort((a, b) -> Long.compare(a.order, b.order));
    return all;
  }

  /** The backlog's own state, tombstones included, for {@link Fingerprints}. */
  String fingerprint() {
    StringBuilder out = new StringBuilder();
    out.append("length=").append(length).append(" bytes=").append(bytes).append(" untargetedLive=").append(untargetedLive)
        .append(" nextBack=").append(nextBack).append(" nextFront=").append(nextFront)
        .append(" untargeted=[");
    for (Job job : untargeted) {
      out.append(job.id).append(':').append(job.place).append(':').append(job.order).append(' ');
    }
    return out.append(']').toString();
  }

  private static Job head(ArrayDeque<Job> queue) {
    Job job;
    while ((job = queue.peekFirst()) != null && !job.live()) {
      queue.pollFirst();
    }
    return job;
  }
}
