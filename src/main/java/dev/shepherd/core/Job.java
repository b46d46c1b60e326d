package dev.shepherd.core;

/**
 * An accepted job, from admission to its terminal answer. Internal and mutable for speed; the
 * pool is its only writer. A job is in exactly one place: queued in the backlog, or running on one
 * slot (then {@link #token} is its live assignment).
 */
final class Job {
  /** Where the job is. */
  enum Place {
    QUEUED,
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

  Place place = Place.QUEUED;
  /** Position in the backlog order: lower runs first among jobs eligible for the same slot. */
  long order;
  /** Dispatches so far. */
  int attempts;
  /** Why it was last interrupted, if it was (RETRY), answered if it can never run. */
  Interruption interruption;
  /** While running: the slot, the assignment token and the deadline. */
  Slot slot;
  long token;
  long deadline;

  Job(String id, long generated, Object payload, Object replyTo, String key, long timeoutMs,
      long bytes, Slot target) {
    this.id = id;
    this.generated = generated;
    this.payload = payload;
    this.replyTo = replyTo;
    this.key = key;
    this.timeoutMs = timeoutMs;
    this.bytes = bytes;
    this.target = target;
  }

  boolean live() {
    return place == Place.QUEUED;
  }

  @Override
  public String toString() {
    return id + "[" + place + " order=" + order + " attempts=" + attempts
        + (target == null ? "" : " target=" + target.id)
        + (slot == null ? "" : " on=" + slot.id + "#" + token) + "]";
  }
}
