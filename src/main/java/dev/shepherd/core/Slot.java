package dev.shepherd.core;

import java.util.ArrayList;

/**
 * One stable slot: identity, lifecycle and the work it holds. Internal and mutable; the pool is its
 * only writer, and {@link #moveTo} is the one place its lifecycle changes.
 *
 * <p>Legal moves: INSTALLING → RUNNING (created) | RETIRED (creation failed, not replaced) |
 * INSTALLING (replaced) | BACKING_OFF (replaced after a delay); RUNNING → INSTALLING (stopped,
 * replaced) | BACKING_OFF (stopped, delayed) | RETIRED; BACKING_OFF → INSTALLING (delay over) |
 * BACKING_OFF (delayed again) | RETIRED; RETIRED → RUNNING only by a fresh registration. A
 * stopped slot is INSTALLING while the supervisor decides, and a sibling may still be installing.
 * A host's slot also moves INSTALLING | RUNNING | BACKING_OFF → LOST when its host is lost,
 * LOST → RETIRED when the grace runs out, and LOST | RETIRED → INSTALLING when the host
 * registers again. A revive moves RETIRED → INSTALLING.
 */
final class Slot {
  /** Internal lifecycle; RUNNING shows as IDLE or ASSIGNED depending on its assignments. */
  enum Life {
    INSTALLING,
    RUNNING,
    BACKING_OFF,
    RETIRED,
    LOST
  }

  static final int UNKNOWN_CAPACITY = -1;

  final String id;
  /** The worker host whose slot this is, or null for a slot of the pool's own. */
  final Host host;
  /** Position in slot order; also the creation sequence REST_FOR_ONE reads. */
  final int index;
  final long idHash;

  Life life = Life.INSTALLING;
  int incarnation = 1;
  int capacity;
  /** Only while RETIRED. */
  Retirement retirement;
  /** Only while BACKING_OFF. */
  long backoffUntil;
  /** When the current incarnation was created (for the backoff reset). */
  long runningSince;
  int consecutiveFailures;
  int restarts;
  /**
   * A deregistered remote worker: benign for late facts (C4 in docs/rules.md), hidden from status.
   */
  boolean departed;
  /**
   * A local slot a resize is taking out (F6 in docs/rules.md): RUNNING, it takes nothing new and
   * leaves once its running jobs end.
   */
  boolean draining;

  /**
   * Revive probes in a row that retired again before the slot completed a job (J7 in
   * docs/rules.md).
   */
  int failedProbes;
  /** Whether the current incarnation is a revive probe that has not completed a job yet. */
  boolean probing;

  /** Live assignments (including cancelled-running ones, whose capacity frees on completion). */
  final ArrayList<Job> running = new ArrayList<>(1);
  /**
   * Of {@link #running}: suspects (J2 in docs/rules.md); while one runs, nothing else is dispatched
   * here.
   */
  int suspectsRunning;
  /**
   * The queues of keyed jobs targeted at this slot that may start (F2 in docs/rules.md; see {@link
   * Backlog}).
   */
  final FairRing ring = new FairRing();
  /** Every group's queue of jobs targeted at this slot, in creation order. */
  final java.util.LinkedHashSet<GroupQueue> queues = new java.util.LinkedHashSet<>(2);
  /** Live queued jobs targeted at it, suspects included. */
  int queuedLive;
  /** Of those, suspects (J2 in docs/rules.md). */
  int suspectsLive;

  Slot(String id, int index, int capacity, Host host) {
    this.id = id;
    this.host = host;
    this.index = index;
    this.idHash = Hashing.hash64(id);
    this.capacity = capacity;
  }

  /**
   * C2 (docs/rules.md): selectable only while running with a known capacity above its in-flight
   * count, and not running a suspect (J2).
   */
  boolean hasFreeCapacity() {
    return life == Life.RUNNING && capacity != UNKNOWN_CAPACITY && running.size() < capacity
        && suspectsRunning == 0 && !draining;
  }

  /** Queued jobs targeted at it, suspects included. */
  int targetedLive() {
    return queuedLive;
  }

  boolean retired() {
    return life == Life.RETIRED;
  }

  Phase phase() {
    return switch (life) {
      case INSTALLING -> Phase.INSTALLING;
      case RUNNING -> draining ? Phase.DRAINING : running.isEmpty() ? Phase.IDLE : Phase.ASSIGNED;
      case BACKING_OFF -> Phase.BACKING_OFF;
      case RETIRED -> Phase.RETIRED;
      case LOST -> Phase.LOST;
    };
  }

  void moveTo(Life next) {
    boolean legal = switch (life) {
      case INSTALLING -> next != Life.LOST || host != null;
      case RUNNING -> next != Life.RUNNING && (next != Life.LOST || host != null);
      case BACKING_OFF -> next == Life.INSTALLING || next == Life.RETIRED
          || next == Life.BACKING_OFF || (next == Life.LOST && host != null);
      case RETIRED -> next == Life.RUNNING || next == Life.INSTALLING;
      case LOST -> next == Life.INSTALLING || next == Life.RETIRED;
    };
    if (!legal) {
      throw new IllegalStateException("slot " + id + ": illegal move " + life + " -> " + next);
    }
    life = next;
    if (next != Life.RETIRED) {
      retirement = null;
    }
  }

  /** The position in {@link #running} of the assignment {@code token}, or -1. */
  int runningIndex(long token) {
    for (int i = 0; i < running.size(); i++) {
      if (running.get(i).token == token) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    return id + "[" + phase() + " inc=" + incarnation + " cap=" + capacity + " running="
        + running + " targeted=" + queuedLive + " (" + suspectsLive + " suspects)]";
  }
}
