package dev.shepherd.core;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * One queue of the backlog, sorted by {@link Job#order}: appends come with increasing orders and
 * front insertions with decreasing ones. Cancelled jobs stay as tombstones until they reach the
 * head; {@link #live} counts the others.
 */
final class Lane {
  /** Room for three jobs: a lane made for one job (the backlog had emptied) does not grow. */
  private final ArrayDeque<Job> jobs = new ArrayDeque<>(3);
  int live;

  void addLast(Job job) {
    jobs.addLast(job);
    live++;
  }

  void addFirst(Job job) {
    jobs.addFirst(job);
    live++;
  }

  /**
   * Puts {@code job} in its place by order (a job moved from another lane, F6 in docs/rules.md):
   * O(1) at either end, O(lane) in the middle.
   */
  void insert(Job job) {
    Job last = jobs.peekLast();
    if (last == null || last.order < job.order) {
      jobs.addLast(job);
    } else if (jobs.peekFirst().order > job.order) {
      jobs.addFirst(job);
    } else {
      java.util.List<Job> all = new java.util.ArrayList<>(jobs);
      int at = 0;
      while (at < all.size() && all.get(at).order < job.order) {
        at++;
      }
      all.add(at, job);
      jobs.clear();
      jobs.addAll(all);
    }
    live++;
  }

  /** The earliest live job, dropping tombstones on the way; null when there is none. */
  Job head() {
    Job job;
    while ((job = jobs.peekFirst()) != null && !job.live()) {
      jobs.pollFirst();
    }
    return job;
  }

  /** Removes the head, which {@link #head()} just returned. */
  void take() {
    live--;
    jobs.pollFirst();
  }

  /** A job of this lane was cancelled: it stays as a tombstone. */
  void cancelled() {
    live--;
  }

  /** Hands every live job to {@code sink}, in order, and empties the lane. */
  void drain(Consumer<Job> sink) {
    Job job;
    while ((job = jobs.pollFirst()) != null) {
      if (job.live()) {
        sink.accept(job);
      }
    }
    live = 0;
  }

  /** Every live job, in order, without removing any. */
  void forEachLive(Consumer<Job> sink) {
    for (Job job : jobs) {
      if (job.live()) {
        sink.accept(job);
      }
    }
  }

  /** Live jobs whose order is below {@code order}. */
  int countBefore(long order) {
    int count = 0;
    for (Job job : jobs) {
      if (job.order >= order) {
        break;
      }
      if (job.live()) {
        count++;
      }
    }
    return count;
  }

  String describe() {
    StringBuilder out = new StringBuilder("[");
    for (Job job : jobs) {
      out.append(job.id).append(':').append(job.place).append(':').append(job.order).append(' ');
    }
    return out.append(']').toString();
  }
}
