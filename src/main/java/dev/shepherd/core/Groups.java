package dev.shepherd.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pool's groups and the pool-wide flow state (F1-F5 in docs/rules.md): which groups the pool
 * knows, whether a group (or the pool) may start a job now, the token buckets (refilled from the
 * events' time; one {@link Timer.GroupReady} per blocked bucket or hold, none per job), pauses and
 * holds, and what of it a durable pool journals.
 *
 * <p>A group is known while it has an override, is paused, holds or runs jobs, or waits for its
 * timer; otherwise it is forgotten, so memory stays bounded by the live tenants.
 */
final class Groups {
  private final PoolData d;
  private final FlowSettings flow;
  /** Named groups the pool knows. */
  private final Map<String, FlowGroup> named = new HashMap<>();
  /** The jobs without a group (fairness only). */
  final FlowGroup fallback;
  /** The pool's token bucket, or null. */
  final TokenBucket poolBucket;
  /** When the pool was paused, or null. */
  Long poolPausedSince;
  /** Until when a rate-limited answer of a job without a group holds the pool, or 0. */
  long poolHeldUntil;
  /** The pool's {@link Timer.GroupReady} started and not yet fired, or MAX_VALUE. */
  long poolReadyAt = Long.MAX_VALUE;
  /**
   * What the journal says of each group an operator touched (A3 in docs/rules.md): the image of a
   * durable pool carries exactly this.
   */
  final TreeMap<String, DurableImage.GroupImage> journaled = new TreeMap<>();
  private long nextQueueSeq;
  /** Groups that may have become idle in the transition under way. */
  private final List<FlowGroup> idleCandidates = new ArrayList<>();
  /** Idle groups kept until their bucket refills, earliest first. */
  private final java.util.PriorityQueue<Refill> refilling =
      new java.util.PriorityQueue<>(java.util.Comparator.comparingLong(Refill::at));

  Groups(PoolData data, FlowSettings flow) {
    this.d = data;
    this.flow = flow;
    this.fallback = new FlowGroup(null, null);
    fallback.configure(flow.defaults(), 0);
    this.poolBucket =
        flow.poolRateLimit() == null ? null : new TokenBucket(flow.poolRateLimit(), 0);
    for (Map.Entry<String, GroupSettings> e : flow.groups().entrySet()) {
      FlowGroup group = new FlowGroup(e.getKey(), e.getValue());
      group.configure(flow.defaults(), 0);
      if (Boolean.TRUE.equals(e.getValue().paused())) {
        group.pausedSince = 0L;
      }
      named.put(e.getKey(), group);
    }
  }

  FlowSettings settings() {
    return flow;
  }

  long agingMs() {
    return flow.priorityAgingMs();
  }

  long nextQueueSeq() {
    return nextQueueSeq++;
  }

  /** The group {@code name} names (null: the default group), or null when unknown. */
  FlowGroup find(String name) {
    return name == null ? fallback : named.get(name);
  }

  /** The group {@code name} names, made known if it is not. */
  FlowGroup of(String name) {
    if (name == null) {
      return fallback;
    }
    FlowGroup group = named.get(name);
    if (group == null) {
      group = new FlowGroup(name, null);
      group.configure(flow.defaults(), d.now);
      named.put(name, group);
    }
    return group;
  }

  /** Named groups the pool knows. */
  int count() {
    return named.size();
  }

  Iterable<FlowGroup> named() {
    return named.values();
  }

  /** Every group, the default one first, named ones by name (for drains, status and invariants). */
  List<FlowGroup> all() {
    List<FlowGroup> all = new ArrayList<>(named.size() + 1);
    all.add(fallback);
    new TreeMap<>(named).values().forEach(all::add);
    return all;
  }

  /**
   * Notes that {@code group} may have nothing left to keep; {@link #sweep} forgets it at the end
   * of the transition, once every job the transition moves (interrupted ones on their way back
   * included) is in its place again.
   */
  void forgetIfIdle(FlowGroup group) {
    if (group.name != null) {
      idleCandidates.add(group);
    }
  }

  /**
   * Forgets the groups noted during the transition that have nothing left to keep. A group whose
   * bucket is still refilling, or that a rate-limited answer still holds, is kept until its bucket
   * is full and its hold over (F4 in docs/rules.md: forgetting it must not give it a fresh
   * bucket), then forgotten by a later transition.
   */
  void sweep() {
    while (!refilling.isEmpty() && refilling.peek().at <= d.now) {
      FlowGroup group = refilling.poll().group;
      if (group.refillingUntil <= d.now) {
        idleCandidates.add(group);
      }
    }
    for (FlowGroup group : idleCandidates) {
      if (group.held != 0 || group.running != 0 || group.override() != null
          || group.pausedSince != null || group.readyAt != Long.MAX_VALUE
          || named.get(group.name) != group) {
        continue;
      }
      long until = Math.max(group.heldUntil,
          group.bucket == null ? Long.MIN_VALUE : group.bucket.fullAt(d.now));
      if (until > d.now) {
        if (group.refillingUntil != until) {
          group.refillingUntil = until;
          refilling.add(new Refill(group, until));
        }
        continue;
      }
      named.remove(group.name);
    }
    idleCandidates.clear();
  }

  /** A group kept only until {@code at}, when its bucket is full and its hold over. */
  private record Refill(FlowGroup group, long at) {}

  // ---- may it start (F1, F4, F5) -------------------------------------------------------------

  /**
   * Whether the pool may start a job now; arms its timer when a bucket or hold is what stops it.
   */
  boolean poolMayStart() {
    if (poolPausedSince != null || poolReadyAt != Long.MAX_VALUE) {
      return false;
    }
    long now = d.now;
    if (poolHeldUntil > now) {
      armPool(poolHeldUntil);
      return false;
    }
    if (poolBucket != null && !poolBucket.has(now)) {
      armPool(poolBucket.nextAt(now));
      return false;
    }
    return true;
  }

  /** Whether {@code group} may start a job now; arms its timer as {@link #poolMayStart} does. */
  boolean mayStart(FlowGroup group) {
    if (group.pausedSince != null || group.capped() || group.readyAt != Long.MAX_VALUE) {
      return false;
    }
    long now = d.now;
    if (group.heldUntil > now) {
      arm(group, group.heldUntil);
      return false;
    }
    if (group.bucket != null && !group.bucket.has(now)) {
      arm(group, group.bucket.nextAt(now));
      return false;
    }
    return true;
  }

  /** {@link #mayStart} without arming anything: for admission and invariants. */
  boolean runnable(FlowGroup group) {
    return group.pausedSince == null && !group.capped() && group.readyAt == Long.MAX_VALUE
        && group.heldUntil <= d.now && (group.bucket == null || group.bucket.has(d.now));
  }

  /** {@link #poolMayStart} without arming anything. */
  boolean poolRunnable() {
    return poolPausedSince == null && poolReadyAt == Long.MAX_VALUE && poolHeldUntil <= d.now
        && (poolBucket == null || poolBucket.has(d.now));
  }

  private void arm(FlowGroup group, long at) {
    group.readyAt = at;
    d.out.add(new Effect.StartTimer(new Timer.GroupReady(group.name, at), at));
  }

  private void armPool(long at) {
    poolReadyAt = at;
    d.out.add(new Effect.StartTimer(new Timer.GroupReady(null, at), at));
  }

  /** Stops waiting for {@code group}'s timer (its settings changed); dispatch arms it again. */
  void disarm(FlowGroup group) {
    if (group.readyAt != Long.MAX_VALUE) {
      d.out.add(new Effect.CancelTimer(new Timer.GroupReady(group.name, group.readyAt)));
      group.readyAt = Long.MAX_VALUE;
    }
  }

  /**
   * F4 (docs/rules.md): a rate-limited answer holds {@code group} (the pool, for the default
   * group) until {@code until}; dispatch arms its timer when it comes up.
   */
  void hold(FlowGroup group, long until) {
    if (group == fallback) {
      poolHeldUntil = Math.max(poolHeldUntil, until);
    } else {
      group.heldUntil = Math.max(group.heldUntil, until);
    }
  }

  // ---- starts and ends -----------------------------------------------------------------------

  /** {@code job} starts: it leaves the bound, runs in its group, and takes its tokens. */
  void started(Job job) {
    FlowGroup group = job.group;
    group.leave(job);
    group.running++;
    assert group.concurrency == 0 || group.running <= group.concurrency
        : "F1 a group starts beyond its concurrency: " + group;
    if (poolBucket != null) {
      poolBucket.take(d.now);
    }
    if (group.bucket != null) {
      group.bucket.take(d.now);
    }
  }

  /** {@code job}'s assignment ended: its group runs one fewer, which may unblock it. */
  void ended(Job job) {
    FlowGroup group = job.group;
    group.running--;
    if (!group.parked.isEmpty()) {
      d.backlog.unpark(group);
    }
  }

  /** A job left the pool for good (answered, or its cancelled assignment ended). */
  void left(Job job) {
    job.group.leave(job);
    forgetIfIdle(job.group);
  }
}
