package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * An accepted job, from admission to its terminal answer. Internal and mutable for speed; the
 * pool is its only writer. A job is in exactly one place: queued in the backlog (in the lane
 * {@link Backlog#laneOf} names), waiting for its due time, or running on one slot (then {@link
 * #token} is its live assignment).
 */
final class Job {
  /** Where the job is. */
  enum Place {
    QUEUED,
    /** Held back until {@link #dueAt} (J3, J4 in docs/rules.md). */
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
  /**
   * The slot the job must run on (affinity), or null for any slot; it moves only when a resize
   * takes its slot out (F6 in docs/rules.md), and only through the backlog while it is queued.
   */
  Slot target;
  /** Its group (F1 in docs/rules.md): the pool's default group for a job without one. */
  final FlowGroup group;
  /** Its priority level, 0 first (F3 in docs/rules.md). */
  final int priority;
  /**
   * When it was accepted (or recovered): where priority aging counts from (F3 in docs/rules.md).
   */
  final long acceptedAt;
  /** Whether its group counts it as held in the bound (queued or waiting). */
  boolean inBound;
  /** While queued: its queue and the lane in it. */
  GroupQueue queue;
  int lane;

  Place place = Place.QUEUED;
  /** Position in the backlog order: lower runs first among jobs eligible for the same slot. */
  long order;
  /** Dispatches so far. */
  int attempts;
  /** Why it was last interrupted, if it was (RETRY), answered if it can never run. */
  Interruption interruption;
  /** While running: the slot, the assignment token, and when it started there. */
  Slot slot;
  long token;
  long startedAt;
  /**
   * What section 10 (docs/rules.md) knows of a job that failed, stopped its worker, waits or has
   * retries of its own; null for the many jobs that never do, so they cost nothing more to hold.
   */
  Fate fate;

  /** The state of one job under section 10 (docs/rules.md) (see {@link #fate}). */
  static final class Fate {
    /** Retries of failed attempts for this job (J3 in docs/rules.md), or null for the pool's. */
    FailureRetry retry;
    /** Attempts that failed (J3 in docs/rules.md). */
    int failures;
    /**
     * Stops of the incarnations that were running it with exit CRASH or TIMEOUT (J2 in
     * docs/rules.md); above 0 it is a suspect and runs alone.
     */
    int stops;
    /**
     * Whether its last interruption was one of those stops (its retry then waits, J3 in
     * docs/rules.md).
     */
    boolean stoppedRunningIt;
    /** While WAITING: when it may run, the order it began waiting in, and where it goes then. */
    long dueAt;
    long waitSeq;
    boolean resumeAtFront;
    /** Attempts that did not succeed, the latest {@link DeadLetter#MAX_ATTEMPTS}; null if none. */
    List<Attempt> history;
    /** T2 (docs/rules.md): its own progress timeout, or 0 for the pool's. */
    long progressTimeoutMs;
    /** T2 (docs/rules.md): the last progress reported (its checkpoint), its cost, and when. */
    Object checkpoint;
    long checkpointBytes;
    long progressAt;
    /**
     * T2, A3 (docs/rules.md): the checkpoint a durable pool last wrote ({@code durableCheckpoint},
     * its cost), when ({@code checkpointWrittenAt}, {@link Long#MIN_VALUE}: never), and whether a
     * later report waits to be written ({@code checkpointHeld}).
     */
    Object durableCheckpoint;
    long durableCheckpointBytes;
    long checkpointWrittenAt = Long.MIN_VALUE;
    boolean checkpointHeld;
  }

  Job(String id, long generated, Object payload, Object replyTo, String key, long timeoutMs,
      long bytes, Slot target, FailureRetry retry, FlowGroup group, int priority,
      long acceptedAt) {
    this.group = group;
    this.priority = priority;
    this.acceptedAt = acceptedAt;
    this.id = id;
    this.generated = generated;
    this.payload = payload;
    this.replyTo = replyTo;
    this.key = key;
    this.timeoutMs = timeoutMs;
    this.bytes = bytes;
    this.target = target;
    if (retry != null) {
      fate().retry = retry;
    }
  }

  /** Its {@link Fate}, made on first need. */
  Fate fate() {
    if (fate == null) {
      fate = new Fate();
    }
    return fate;
  }

  FailureRetry retry() {
    return fate == null ? null : fate.retry;
  }

  int failures() {
    return fate == null ? 0 : fate.failures;
  }

  int stops() {
    return fate == null ? 0 : fate.stops;
  }

  /** Whether its last interruption was its own stop; and forgets it. */
  boolean takeStoppedRunningIt() {
    if (fate == null || !fate.stoppedRunningIt) {
      return false;
    }
    fate.stoppedRunningIt = false;
    return true;
  }

  /** T2 (docs/rules.md): the last progress reported, or null. */
  Object checkpoint() {
    return fate == null ? null : fate.checkpoint;
  }

  long checkpointBytes() {
    return fate == null ? 0 : fate.checkpointBytes;
  }

  /** T2 (docs/rules.md): its own progress timeout, or 0 for the pool's. */
  long progressTimeoutMs() {
    return fate == null ? 0 : fate.progressTimeoutMs;
  }

  /** T2 (docs/rules.md): the progress timeout that applies to it, given the pool's (0: none). */
  long progressTimeout(long poolProgressTimeoutMs) {
    long own = progressTimeoutMs();
    return own > 0 ? own : poolProgressTimeoutMs;
  }

  /**
   * T2 (docs/rules.md): when the attempt under way was last heard from: when it started, or its
   * last progress report if that came later.
   */
  long lastHeard() {
    return fate == null ? startedAt : Math.max(startedAt, fate.progressAt);
  }

  /** While WAITING: its due time. */
  long dueAt() {
    return fate.dueAt;
  }

  /**
   * Its deadline while running, given the pool's job timeout (P14 in docs/rules.md); MAX_VALUE for
   * none.
   */
  long deadline(long poolTimeoutMs) {
    long timeout = timeoutMs > 0 ? timeoutMs : poolTimeoutMs;
    return timeout > 0 ? startedAt + timeout : Long.MAX_VALUE;
  }

  boolean live() {
    return place == Place.QUEUED;
  }

  /** J2 (docs/rules.md): it was running when its incarnation crashed or hung. */
  boolean suspect() {
    return fate != null && fate.stops > 0;
  }

  /**
   * Records how the attempt under way ended (J5 in docs/rules.md), while {@link #slot} still holds
   * it: the slot's current incarnation is the one that ran it.
   */
  void attemptEnded(long now, String ended, String detail) {
    Fate f = fate();
    if (f.history == null) {
      f.history = new ArrayList<>(2);
    } else if (f.history.size() == DeadLetter.MAX_ATTEMPTS) {
      f.history.remove(0);
    }
    f.history.add(new Attempt(attempts, slot.id, slot.incarnation, startedAt, now, ended,
        detail));
  }

  List<Attempt> attemptList() {
    return fate == null || fate.history == null ? List.of() : fate.history;
  }

  @Override
  public String toString() {
    return id + "[" + place + " order=" + order + " attempts=" + attempts
        + (stops() == 0 ? "" : " stops=" + stops())
        + (place == Place.WAITING ? " due=" + dueAt() : "")
        + (target == null ? "" : " target=" + target.id)
        + (group.name == null ? "" : " group=" + group.name)
        + (priority == PoolEvent.Submit.DEFAULT_PRIORITY ? "" : " priority=" + priority)
        + (slot == null ? "" : " on=" + slot.id + "#" + token) + "]";
  }
}
