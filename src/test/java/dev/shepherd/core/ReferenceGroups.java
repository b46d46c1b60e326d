package dev.shepherd.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The reference model's flow control (section 11, F1-F5 in docs/rules.md), on plain lists:
 * groups with their effective settings, pauses, rate-limited holds and token buckets, and the
 * fair choice written as the rule the core documents (stride scheduling, FairRing and FlowGroup):
 * jobs of one group for one place (any slot, or one slot) form a queue; a queue in its place's
 * ring starts next when it has used the least virtual time (ties to the older queue); a start
 * costs {@code 2^32 / weight}; a queue joins its ring at the ring's virtual time (the pass of the
 * last queue charged), so idle time earns no credit; an empty queue is let go (the next one
 * starts afresh); a queue whose group may not start is set aside (parked) when it comes up, and
 * rejoins when its group may have unblocked. Every count (running, held, live) is a scan of the
 * model's own jobs.
 */
final class ReferenceGroups {
  /** What the groups see of the model. */
  interface Jobs {
    /** Queued (live) jobs, in line order. */
    List<ReferencePool.RJob> queued();

    /** Jobs of {@code group} on slots, cancelled ones included. */
    int running(String group);

    /** Jobs of {@code group} queued or waiting. */
    int held(String group);

    long now();

    void effect(Effect effect);
  }

  static final long STRIDE = 1L << 32;
  static final int SUSPECTS = 10;

  /** One group's flow state. */
  static final class RGroup {
    final String name;
    final GroupSettings configured;
    GroupSettings runtime;
    int concurrency;
    int queueCapacity;
    int weight = 1;
    Bucket bucket;
    Long pausedSince;
    long heldUntil;
    long readyAt = Long.MAX_VALUE;

    RGroup(String name, GroupSettings configured) {
      this.name = name;
      this.configured = configured;
    }

    GroupSettings override() {
      return runtime != null ? runtime : configured;
    }
  }

  /** A token bucket: {@code permits} tokens, refilled continuously {@code permits} per {@code perMs}. */
  static final class Bucket {
    final RateLimit limit;
    /** Tokens times perMs. */
    private long units;
    private long at;

    Bucket(RateLimit limit, long now) {
      this.limit = limit;
      this.units = full();
      this.at = now;
    }

    private long full() {
      return (long) limit.permits() * limit.perMs();
    }

    private long unitsAt(long now) {
      long elapsed = Math.max(0, now - at);
      return elapsed >= limit.perMs() ? full()
          : Math.min(full(), units + elapsed * limit.permits());
    }

    boolean has(long now) {
      return unitsAt(now) >= limit.perMs();
    }

    void take(long now) {
      units = unitsAt(now) - limit.perMs();
      at = Math.max(at, now);
    }

    /** The first instant from {@code now} with {@code need} units. */
    private long when(long now, long need) {
      long missing = need - unitsAt(now);
      return missing <= 0 ? now : now + (missing + limit.permits() - 1) / limit.permits();
    }

    long tokenAt(long now) {
      return when(now, limit.perMs());
    }

    long fullAt(long now) {
      return when(now, full());
    }
  }

  /** The jobs of one group for one place; see the class comment. */
  static final class RQueue {
    final String group;
    final String target;
    final long seq;
    long pass;
    boolean ringed;
    boolean parked;
    /** Whether it is still its group's queue for its place (not let go). */
    boolean current = true;

    RQueue(String group, String target, long seq) {
      this.group = group;
      this.target = target;
      this.seq = seq;
    }
  }

  private final FlowSettings flow;
  private final Jobs jobs;
  private final RGroup fallback;
  private final List<RGroup> named = new ArrayList<>();
  private final List<RQueue> queues = new ArrayList<>();
  /** Each ring's virtual time, by place (null: any slot). */
  private final Map<String, Long> ringTime = new HashMap<>();
  private long nextSeq;
  final Bucket poolBucket;
  Long poolPausedSince;
  long poolHeldUntil;
  long poolReadyAt = Long.MAX_VALUE;

  ReferenceGroups(FlowSettings flow, Jobs jobs) {
    this.flow = flow;
    this.jobs = jobs;
    this.fallback = new RGroup(null, null);
    configure(fallback, 0);
    this.poolBucket = flow.poolRateLimit() == null ? null : new Bucket(flow.poolRateLimit(), 0);
    for (Map.Entry<String, GroupSettings> e : flow.groups().entrySet()) {
      RGroup group = new RGroup(e.getKey(), e.getValue());
      configure(group, 0);
      if (Boolean.TRUE.equals(e.getValue().paused())) {
        group.pausedSince = 0L;
      }
      named.add(group);
    }
  }

  FlowSettings settings() {
    return flow;
  }

  // ---- groups ----------------------------------------------------------------------------------

  RGroup find(String name) {
    if (name == null) {
      return fallback;
    }
    for (RGroup group : named) {
      if (group.name.equals(name)) {
        return group;
      }
    }
    return null;
  }

  RGroup of(String name) {
    RGroup group = find(name);
    if (group == null) {
      group = new RGroup(name, null);
      configure(group, jobs.now());
      named.add(group);
    }
    return group;
  }

  /** The effective settings: the override's fields, else the defaults (F1, F2, F4). */
  void configure(RGroup g, long now) {
    GroupSettings o = g.override();
    GroupDefaults defaults = flow.defaults();
    g.weight = o != null && o.weight() != null ? o.weight() : defaults.weight();
    if (g.name == null) {
      g.concurrency = 0;
      g.queueCapacity = 0;
      g.bucket = null;
      return;
    }
    g.concurrency = o != null && o.concurrency() != null ? o.concurrency()
        : defaults.concurrency();
    g.queueCapacity = o != null && o.queueCapacity() != null ? o.queueCapacity()
        : defaults.queueCapacity();
    RateLimit limit = o != null && o.rateLimit() != null ? o.rateLimit() : defaults.rateLimit();
    if (!Objects.equals(limit, g.bucket == null ? null : g.bucket.limit)) {
      g.bucket = limit == null ? null : new Bucket(limit, now);
    }
  }

  /** Stops waiting for the group's timer (its settings changed). */
  void disarm(RGroup g) {
    if (g.readyAt != Long.MAX_VALUE) {
      jobs.effect(new Effect.CancelTimer(new Timer.GroupReady(g.name, g.readyAt)));
      g.readyAt = Long.MAX_VALUE;
    }
  }

  /** A rate-limited answer holds the group, or the pool for a job without one (F4). */
  void hold(String name, long until) {
    if (name == null) {
      poolHeldUntil = Math.max(poolHeldUntil, until);
    } else {
      RGroup g = find(name);
      g.heldUntil = Math.max(g.heldUntil, until);
    }
  }

  /**
   * At the end of a transition: an idle group (no override, no pause, no jobs, no timer) is
   * forgotten once its bucket is full and its hold over (F4).
   */
  void sweep() {
    long now = jobs.now();
    for (RGroup g : new ArrayList<>(named)) {
      boolean idle = jobs.held(g.name) == 0 && jobs.running(g.name) == 0 && g.override() == null
          && g.pausedSince == null && g.readyAt == Long.MAX_VALUE;
      long until = Math.max(g.heldUntil, g.bucket == null ? Long.MIN_VALUE : g.bucket.fullAt(now));
      if (idle && until <= now) {
        named.remove(g);
        queues.removeIf(q -> g.name.equals(q.group));
      }
    }
  }

  int count() {
    return named.size();
  }

  /** The busiest groups (running + held), ties by name, at most {@code flow.busiest()}. */
  List<PoolSnapshot.GroupStatus> busiest(long now) {
    List<RGroup> sorted = new ArrayList<>(named);
    sorted.sort((a, b) -> {
      int la = jobs.running(a.name) + jobs.held(a.name);
      int lb = jobs.running(b.name) + jobs.held(b.name);
      return la != lb ? Integer.compare(lb, la) : a.name.compareTo(b.name);
    });
    List<PoolSnapshot.GroupStatus> out = new ArrayList<>();
    for (int i = 0; i < sorted.size() && i < flow.busiest(); i++) {
      RGroup g = sorted.get(i);
      out.add(new PoolSnapshot.GroupStatus(g.name, jobs.running(g.name), jobs.held(g.name),
          g.concurrency, g.queueCapacity, g.weight, g.bucket == null ? null : g.bucket.limit,
          g.pausedSince != null, g.pausedSince, g.heldUntil > now ? g.heldUntil : null));
    }
    return out;
  }

  // ---- may it start (F1, F4, F5) ---------------------------------------------------------------

  private boolean capped(RGroup g) {
    return g.concurrency > 0 && jobs.running(g.name) >= g.concurrency;
  }

  boolean poolRunnable() {
    long now = jobs.now();
    return poolPausedSince == null && poolReadyAt == Long.MAX_VALUE && poolHeldUntil <= now
        && (poolBucket == null || poolBucket.has(now));
  }

  boolean runnable(RGroup g) {
    long now = jobs.now();
    return g.pausedSince == null && !capped(g) && g.readyAt == Long.MAX_VALUE
        && g.heldUntil <= now && (g.bucket == null || g.bucket.has(now));
  }

  /** Whether the pool may start a job; arms its timer when a hold or its bucket stops it. */
  boolean poolMayStart() {
    if (poolPausedSince != null || poolReadyAt != Long.MAX_VALUE) {
      return false;
    }
    long now = jobs.now();
    long at = poolHeldUntil > now ? poolHeldUntil
        : poolBucket != null && !poolBucket.has(now) ? poolBucket.tokenAt(now) : 0;
    if (at == 0) {
      return true;
    }
    poolReadyAt = at;
    jobs.effect(new Effect.StartTimer(new Timer.GroupReady(null, at), at));
    return false;
  }

  private boolean mayStart(RGroup g) {
    if (g.pausedSince != null || capped(g) || g.readyAt != Long.MAX_VALUE) {
      return false;
    }
    long now = jobs.now();
    long at = g.heldUntil > now ? g.heldUntil
        : g.bucket != null && !g.bucket.has(now) ? g.bucket.tokenAt(now) : 0;
    if (at == 0) {
      return true;
    }
    g.readyAt = at;
    jobs.effect(new Effect.StartTimer(new Timer.GroupReady(g.name, at), at));
    return false;
  }

  /** A job starts: it takes a token of the pool's bucket and of its group's. */
  void started(ReferencePool.RJob job) {
    long now = jobs.now();
    if (poolBucket != null) {
      poolBucket.take(now);
    }
    RGroup g = find(job.group);
    if (g.bucket != null) {
      g.bucket.take(now);
    }
  }

  /** A job's assignment ended: its group may start again. */
  void ended(ReferencePool.RJob job) {
    unpark(job.group);
  }

  // ---- queues and rings (F2, F3) ---------------------------------------------------------------

  private RQueue current(String group, String target) {
    for (RQueue q : queues) {
      if (q.current && Objects.equals(q.group, group) && Objects.equals(q.target, target)) {
        return q;
      }
    }
    return null;
  }

  private List<ReferencePool.RJob> live(RQueue q) {
    List<ReferencePool.RJob> live = new ArrayList<>();
    if (q.current) {
      for (ReferencePool.RJob job : jobs.queued()) {
        if (Objects.equals(job.group, q.group) && Objects.equals(job.target, q.target)) {
          live.add(job);
        }
      }
    }
    return live;
  }

  private void join(RQueue q) {
    q.pass = Math.max(q.pass, ringTime.getOrDefault(q.target, 0L));
    q.ringed = true;
  }

  /** An empty queue out of its ring is let go. */
  private void drop(RQueue q) {
    if (!live(q).isEmpty() || q.ringed) {
      return;
    }
    q.current = false;
    if (!q.parked) {
      queues.remove(q);
    }
  }

  /** A job was queued: its queue is made on first need and joins its ring unless parked. */
  void enqueued(ReferencePool.RJob job) {
    RQueue q = current(job.group, job.target);
    if (q == null) {
      q = new RQueue(job.group, job.target, nextSeq++);
      queues.add(q);
    }
    if (!q.ringed && !q.parked) {
      join(q);
    }
  }

  /** A queued job was cancelled: its queue leaves its ring when empty. */
  void cancelled(ReferencePool.RJob job) {
    RQueue q = current(job.group, job.target);
    if (q != null && q.ringed && live(q).isEmpty()) {
      q.ringed = false;
      drop(q);
    }
  }

  /** Queued jobs were answered wholesale (of one slot, or all): their emptied queues go. */
  void drained(String target, boolean all) {
    for (RQueue q : new ArrayList<>(queues)) {
      if (q.current && (all || Objects.equals(target, q.target)) && live(q).isEmpty()) {
        q.ringed = false;
        drop(q);
      }
    }
  }

  /** The group may have unblocked: its parked queues rejoin (or go, when empty). */
  void unpark(String group) {
    for (RQueue q : new ArrayList<>(queues)) {
      if (q.parked && Objects.equals(q.group, group)) {
        q.parked = false;
        if (!live(q).isEmpty() && !q.ringed) {
          join(q);
        } else {
          drop(q);
        }
      }
    }
  }

  boolean ringEmpty(String target) {
    for (RQueue q : queues) {
      if (q.ringed && Objects.equals(q.target, target)) {
        return false;
      }
    }
    return true;
  }

  /** The ring's first queue whose group may start, parking those before it. */
  private RQueue next(String target) {
    while (true) {
      RQueue first = null;
      for (RQueue q : queues) {
        if (q.ringed && Objects.equals(q.target, target) && (first == null || q.pass < first.pass
            || (q.pass == first.pass && q.seq < first.seq))) {
          first = q;
        }
      }
      if (first == null || mayStart(find(first.group))) {
        return first;
      }
      first.ringed = false;
      first.parked = true;
    }
  }

  static int lane(ReferencePool.RJob job) {
    return job.stops > 0 ? SUSPECTS : job.priority;
  }

  /** F3: the effective level, lifted one per {@code priorityAgingMs} waited since acceptance. */
  int level(ReferencePool.RJob job) {
    long aging = flow.priorityAgingMs();
    if (aging <= 0 || job.priority == 0) {
      return job.priority;
    }
    long lifted = Math.max(0, jobs.now() - job.acceptedAt) / aging;
    return (int) Math.max(0, job.priority - lifted);
  }

  private boolean before(ReferencePool.RJob a, ReferencePool.RJob b) {
    int la = level(a);
    int lb = level(b);
    return la != lb ? la < lb : a.order < b.order;
  }

  /** The queue's next job: FIFO within each lane, the best lane head by level then order. */
  private ReferencePool.RJob best(RQueue q) {
    ReferencePool.RJob[] heads = new ReferencePool.RJob[SUSPECTS + 1];
    for (ReferencePool.RJob job : live(q)) {
      int lane = lane(job);
      if (heads[lane] == null || job.order < heads[lane].order) {
        heads[lane] = job;
      }
    }
    ReferencePool.RJob best = null;
    for (ReferencePool.RJob head : heads) {
      if (head != null && (best == null || before(head, best))) {
        best = head;
      }
    }
    return best;
  }

  /**
   * The job slot {@code slot} starts next, taken off the queue (its {@code queued} cleared), or
   * null. {@code idle}: the slot runs nothing (a suspect waits for that, J2).
   */
  ReferencePool.RJob takeFor(String slot, boolean idle) {
    RQueue untargeted = next(null);
    RQueue targeted = next(slot);
    RQueue q;
    if (untargeted == null || targeted == null) {
      q = untargeted == null ? targeted : untargeted;
    } else {
      ReferencePool.RJob a = best(untargeted);
      ReferencePool.RJob b = best(targeted);
      if (Objects.equals(untargeted.group, targeted.group) && level(a) != level(b)) {
        q = level(a) < level(b) ? untargeted : targeted;
      } else {
        q = a.order < b.order ? untargeted : targeted;
      }
    }
    if (q == null) {
      return null;
    }
    RQueue from = q;
    ReferencePool.RJob job = best(q);
    RQueue other = current(q.group, q.target == null ? slot : null);
    if (other != null && !other.parked && !live(other).isEmpty()) {
      ReferencePool.RJob alternative = best(other);
      if (before(alternative, job)) {
        from = other;
        job = alternative;
      }
    }
    if (lane(job) == SUSPECTS && !idle) {
      return null;
    }
    job.queued = false;
    ringTime.put(q.target, Math.max(ringTime.getOrDefault(q.target, 0L), q.pass));
    q.pass += STRIDE / find(q.group).weight;
    if (live(q).isEmpty()) {
      q.ringed = false;
    }
    if (from != q && from.ringed && live(from).isEmpty()) {
      from.ringed = false;
    }
    drop(q);
    drop(from);
    return job;
  }
}
