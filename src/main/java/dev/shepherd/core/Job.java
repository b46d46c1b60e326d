package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * An accepted job, from admission to its terminal answer. Internal and mutable for speed; the
 * pool is its only writer. A job is in exactly one place: queued in the backlog (then {@link
 * #lane} is its queue), waiting for its due time, or running on one slot (then {@link #token} is
 * its live assignment).
 */
final class Job {
  /** Where the job is. */
  enum Place {
    QUEUED,
    /** Held back until {@link #dueAt} (J3, J4). */
    WAITING,
    RUNNING,
    /** Answered {@code cancelled} while running: its completion will be discarded. */
    CANCELLED_RUNNING,
    /** Removed from the backlog by a cancel; a tombstone until the queue head passes it. */
    CANCELLED_QUEUED,
    /** Answered terminally. */
    DONE
  }

  final String id;
  /** The {@code N} of a generated id {@code job-N}, or 0 for a caller-chosen one. */
  final long generated;
  final Object payload;
  final Object replyTo;
  final String key;
  final long timeoutMs;
  /** What the payload costs while queued (counted against the backlog's byte budget). */
  final long bytes;
  /** The slot the job must run on (affinity), or null for any slot. */
  final Slot target;
  /** Retries of failed attempts for this job (J3), or null for the pool's. */
  final FailureRetry retry;

  Place place = Place.QUEUED;
  /** Position in the backlog order: lower runs first among jobs eligible for the same slot. */
  long order;
  /** The queue it is in while QUEUED. */
  Lane lane;
  /** Dispatches so far. */
  int attempts;
  /** Attempts that failed (J3). */
  int failures;
  /**
   * Stops of the incarnations that were running it with exit CRASH or TIMEOUT (J2); above 0 it
   * is a suspect and runs alone.
   */
  int stops;
  /** Whether its last interruption was one of those stops (its retry then waits, J3). */
  boolean stoppedRunningIt;
  /** Why it was last interrupted, if it was (RETRY), answered if it can never run. */
  Interruption interruption;
  /** While running: the slot, the assignment token, the deadline, and when it started there. */
  Slot slot;
  long token;
  long deadline;
  long startedAt;
  int startedIncarnation;
  /** While WAITING: when it may run, the order it started waiting in, and where it goes then. */
  long dueAt;
  long waitSeq;
  boolean resumeAtFront;
  /** Attempts that did not succeed, the latest {@link DeadLetter#MAX_ATTEMPTS}; null if none. */
  List<Attempt> history;

  Job(String id, long generated, Object payload, Object replyTo, String key, long timeoutMs,
      long bytes, Slot target, FailureRetry retry) {
    this.id = id;
    this.generated = generated;
    this.payload = payload;
    this.replyTo = replyTo;
    this.key = key;
    this.timeoutMs = timeoutMs;
    this.bytes = bytes;
    this.target = target;
    this.retry = retry;
  }

  boolean live() {
    return place == Place.QUEUED;
  }

  /** J2: it was running when its incarnation crashed or hung. */
  boolean suspect() {
    return stops > 0;
  }

  /** Records how the attempt under way ended (J5). */
  void attemptEnded(long now, String ended, String detail) {
    if (history == null) {
      history = new ArrayList<>(2);
    } else if (history.size() == DeadLetter.MAX_ATTEMPTS) {
      history.remove(0);
    }
    history.add(new Attempt(attempts, slot == null ? null : slot.id, startedIncarnation,
        startedAt, now, ended, detail));
  }

  List<Attempt> attemptList() {
    return history == null ? List.of() : history;
  }

  @Override
  public String toString() {
    return id + "[" + place + " order=" + order + " attempts=" + attempts
        + (stops == 0 ? "" : " stops=" + stops)
        + (place == Place.WAITING ? " due=" + dueAt : "")
        + (target == null ? "" : " target=" + target.id)
        + (slot == null ? "" : " on=" + slot.id + "#" + token) + "]";
  }
}
