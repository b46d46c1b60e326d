package dev.shepherd.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One group's flow state (F1-F5 in docs/rules.md): its effective settings, its running and held
 * jobs, its pause, its rate-limited hold and token bucket, and its queues (one for any slot, one
 * per slot its keyed jobs are bound to). The pool's default group ({@code name} null) holds the
 * jobs without a group, for fairness only: no cap, no bucket, and its pause and holds are the
 * pool's. Internal and mutable; {@link Groups} is its only writer.
 */
final class FlowGroup {
  final String name;
  /** The configured override, or null. */
  final GroupSettings configured;
  /** The operator's run-time override, or null. */
  GroupSettings runtime;

  int concurrency;
  int queueCapacity;
  int weight = 1;
  TokenBucket bucket;

  /** Jobs of the group on slots (cancelled-running ones included, until their assignment ends). */
  int running;
  /** Jobs of the group in the backlog's bound: queued or waiting. */
  int held;
  /** When it was paused, or null. */
  Long pausedSince;
  /** Until when a rate-limited answer holds it (F4 in docs/rules.md), or 0. */
  long heldUntil;
  /**
   * While idle: kept until then, when its bucket is full and its hold over (F4 in
   * docs/rules.md), or 0.
   */
  long refillingUntil;
  /** The {@link Timer.GroupReady} started for it and not yet fired, or MAX_VALUE. */
  long readyAt = Long.MAX_VALUE;

  /** Its queue for any slot, made on first need. */
  GroupQueue any;
  /** Its queues of keyed jobs, by slot; made on first need, dropped when empty. */
  Map<Slot, GroupQueue> bySlot;
  /** Its queues taken out of their rings while it is blocked. */
  final List<GroupQueue> parked = new ArrayList<>(1);

  FlowGroup(String name, GroupSettings configured) {
    this.name = name;
    this.configured = configured;
  }

  /** The override in force: the run-time one, else the configured one, else null. */
  GroupSettings override() {
    return runtime != null ? runtime : configured;
  }

  /** Recomputes the effective settings from {@code defaults} and the override, at {@code now}. */
  void configure(GroupDefaults defaults, long now) {
    if (name == null) {
      // The default group has no override: a SetGroup and a journaled group always name one.
      concurrency = 0;
      queueCapacity = 0;
      weight = defaults.weight();
      bucket = null;
      return;
    }
    GroupSettings o = override();
    concurrency = o != null && o.concurrency() != null ? o.concurrency() : defaults.concurrency();
    queueCapacity = o != null && o.queueCapacity() != null ? o.queueCapacity()
        : defaults.queueCapacity();
    weight = o != null && o.weight() != null ? o.weight() : defaults.weight();
    RateLimit limit = o != null && o.rateLimit() != null ? o.rateLimit() : defaults.rateLimit();
    if (!Objects.equals(limit, bucket == null ? null : bucket.limit)) {
      bucket = limit == null ? null : new TokenBucket(limit, now);
    }
  }

  /**
   * The queue of its jobs eligible for {@code target} (null: any slot), made on first need with
   * the next of {@code groups}' queue numbers.
   */
  GroupQueue queueFor(Slot target, Groups groups) {
    if (target == null) {
      if (any == null) {
        any = new GroupQueue(this, null, groups.nextQueueSeq());
      }
      return any;
    }
    if (bySlot == null) {
      bySlot = new HashMap<>(2);
    }
    GroupQueue queue = bySlot.get(target);
    if (queue == null) {
      queue = new GroupQueue(this, target, groups.nextQueueSeq());
      bySlot.put(target, queue);
      target.queues.add(queue);
    }
    return queue;
  }

  /**
   * An empty queue out of its ring is let go: the next job makes a new one, which joins its ring
   * at the ring's virtual time (F2 in docs/rules.md).
   */
  void dropIfEmpty(GroupQueue queue) {
    if (queue.live != 0 || queue.ring != null) {
      return;
    }
    if (queue.target == null) {
      if (any == queue) {
        any = null;
      }
    } else if (bySlot.get(queue.target) == queue) {
      bySlot.remove(queue.target);
      queue.target.queues.remove(queue);
    }
  }

  /** Whether it counts {@code job} in its held jobs; counts it if not. */
  void enter(Job job) {
    if (!job.inBound) {
      job.inBound = true;
      held++;
    }
  }

  void leave(Job job) {
    if (job.inBound) {
      job.inBound = false;
      held--;
    }
  }

  /** Whether it is at its concurrency (F1 in docs/rules.md). */
  boolean capped() {
    return concurrency > 0 && running >= concurrency;
  }

  @Override
  public String toString() {
    return (name == null ? "<default>" : name) + "[running=" + running + " held=" + held
        + " conc=" + concurrency + " cap=" + queueCapacity + " weight=" + weight
        + (pausedSince != null ? " paused@" + pausedSince : "")
        + (heldUntil > 0 ? " heldUntil=" + heldUntil : "")
        + (readyAt != Long.MAX_VALUE ? " readyAt=" + readyAt : "")
        + (refillingUntil > 0 ? " refillingUntil=" + refillingUntil : "")
        + " parked=" + parked.size()
        + "]";
  }
}
