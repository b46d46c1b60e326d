package dev.shepherd.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A deliberately simple model of the pool for differential testing: the original design's
 * linear-scan pool and supervisor, with Shepherd's extensions (capacity,
 * RETRY with attempts, timeouts, backoff, cancel, graceful stop, remote workers), on plain lists
 * and nothing else: slots in slot order, one list of jobs in backlog order, a list of bindings, a
 * list of restart timestamps. Every lookup is a scan; nothing is indexed, cached or counted.
 *
 * <p>The one backlog list, {@link #line}, holds every accepted, unanswered job in backlog order,
 * queued or running: the queued ones are the backlog, and a running job keeps its place so that
 * RETRY can put interrupted jobs back at the front "in their original order" simply by moving
 * them, in line order, to the front.
 *
 * <p>It must answer every event with the same {@link Transition} as {@link Pool} (effects in the
 * same order, the same errors) and the same {@link PoolSnapshot}.
 *
 * <p>Section 10 (J2-J7) rides on the same lists: a job waiting for its due time leaves the line
 * for {@link #waitingJobs} and comes back at the front (a retry) or the back (a delayed submit);
 * a suspect runs alone, and a slot whose first eligible job is a suspect takes nothing until it
 * is idle; the dead-letter set and the recent outcomes are lists, oldest first.
 *
 * <p>Section 11 (F1-F5 in docs/rules.md) lives in {@link ReferenceGroups}: jobs carry their group
 * and priority, admission asks it about pauses and group bounds, and dispatch asks it which job a
 * free slot starts next (the fair choice), every count a scan of these lists. A rate-limited
 * answer puts its job back at the front of the line with its start not counted.
 *
 * <p>It is longer than a test class should be because it is one state machine written out in one
 * place, in the order of the rules (P, S, C); split, its parts would share mutable state, which
 * is what the model exists to avoid.
 */
final class ReferencePool {

  private enum Life { INSTALLING, RUNNING, BACKING_OFF, RETIRED, LOST }

  private static final class RSlot {
    final String id;
    /** The host whose slot this is, or null. */
    String host;
    Life life = Life.INSTALLING;
    int incarnation = 1;
    int capacity;
    Retirement retirement;
    long backoffUntil;
    long runningSince;
    int failures;
    int restarts;
    boolean departed;
    /** F6: a local slot a resize is taking out. */
    boolean draining;
    boolean probing;
    int failedProbes;
    /** Live assignments in assignment order, cancelled ones included. */
    final List<RJob> running = new ArrayList<>();

    RSlot(String id, int capacity) {
      this.id = id;
      this.capacity = capacity;
    }
  }

  static final class RJob {
    final String id;
    /** Its group (F1), null for none. */
    String group;
    /** Its priority level (F3). */
    int priority = PoolEvent.Submit.DEFAULT_PRIORITY;
    /** When it was accepted or recovered: where aging counts from (F3). */
    long acceptedAt;
    final Object payload;
    final Object replyTo;
    final String key;
    final long timeoutMs;
    final long bytes;
    /** F6: moves when a resize takes its slot out. */
    String target;
    /** The N of a generated id job-N, or 0. */
    final long generated;
    /** The backlog position a durable pool records: appends count up, requeues count down. */
    long order;
    boolean queued = true;
    boolean cancelled;
    int attempts;
    long token;
    long deadline;
    Interruption interruption;
    FailureRetry retry;
    int stops;
    int failures;
    boolean ownStop;
    long startedAt;
    int startedIncarnation;
    long dueAt;
    long waitSeq;
    boolean front;
    final List<Attempt> history = new ArrayList<>();
    /** T2: its own progress timeout (0: the pool's), its checkpoint and when it was reported. */
    long progressTimeoutMs;
    Object checkpoint;
    long checkpointBytes;
    long progressAt;
    /** T2: when a durable pool last journaled its checkpoint (MIN_VALUE: never). */
    long checkpointWrittenAt = Long.MIN_VALUE;

    RJob(PoolEvent.Submit e, String id, long generated, String target) {
      this(id, generated, e.payload(), e.replyTo(), e.key(), e.timeoutMs(), e.bytes(), target);
      this.progressTimeoutMs = e.progressTimeoutMs();
      this.retry = e.retry();
      this.group = e.group();
      this.priority = e.priority();
      this.acceptedAt = e.now();
    }

    RJob(String id, long generated, Object payload, Object replyTo, String key, long timeoutMs,
        long bytes, String target) {
      this.id = id;
      this.generated = generated;
      this.payload = payload;
      this.replyTo = replyTo;
      this.key = key;
      this.timeoutMs = timeoutMs;
      this.bytes = bytes;
      this.target = target;
    }
  }

  /** A key's slot; {@code rebalanced} when an operator set it. */
  private record Binding(String key, String worker, boolean rebalanced) {}

  /** A worker host: its node, state, since when, and its slot ids in registration order. */
  private static final class RHost {
    final String id;
    String node;
    HostState state = HostState.UP;
    long since;
    /** H5: when it was last heard from while UP. */
    long lastHeard;
    final List<String> slots = new ArrayList<>();

    RHost(String id) {
      this.id = id;
    }
  }

  private final PoolSettings settings;
  private final List<RSlot> slots = new ArrayList<>();
  private final List<RJob> line = new ArrayList<>();
  /** Jobs waiting for a due time, in the order they began waiting. */
  private final List<RJob> waitingJobs = new ArrayList<>();
  /** T2: jobs whose latest checkpoint is held back from the journal, by id. */
  private final java.util.Map<String, RJob> heldCheckpoints = new java.util.HashMap<>();
  private long waitSeq;
  private long armedDue = Long.MAX_VALUE;
  private long retryJitter;
  private final List<DeadLetter> deadLetters = new ArrayList<>();
  private long deadEvicted;
  private final List<RecentOutcome> recent = new ArrayList<>();
  private long poisoned;
  private long deadLettered;
  private long now;
  private final List<Binding> bindings = new ArrayList<>();
  /** Keys whose binding is idle (no held job), least recently used first, by kind. */
  private final List<String> idleSelected = new ArrayList<>();
  private final List<String> idleRebalanced = new ArrayList<>();
  private long bindingsMade;
  private final List<Long> restartStamps = new ArrayList<>();
  private final List<RHost> hosts = new ArrayList<>();
  private long jitter;
  private PoolState state = PoolState.RUNNING;
  private long nextToken;
  private long generatedIds;
  private long drainDeadline;
  private long accepted;
  private long rejected;
  private long completed;
  private long failed;
  private long interrupted;
  private long cancelled;
  private long retried;
  private long restarts;
  private long budgetRefusals;
  private long ignoredFacts;
  private long revives;
  private long staleCompletions;
  /** Durable pools (A3): whether this one recovered, and the numbers its records carry. */
  private boolean recovered;
  private long generatedAccepted;
  private long nextBack;
  private long nextFront = -1;
  private List<Effect> out;
  private Transition.Verdict verdict;
  /** F6: the pool's own slot ids by position, and the size the last resize set. */
  private final List<String> local = new ArrayList<>();
  private int instances;
  private int maxConcurrency;
  private boolean resized;
  /** Section 11 (F1-F5): groups, pauses, holds, buckets and the fair choice. */
  private final ReferenceGroups groups;

  ReferencePool(PoolSettings settings) {
    this.settings = settings;
    this.nextToken = (settings.term() << PoolSettings.TERM_SHIFT) + 1;
    BackoffSettings backoff = settings.supervision().backoff();
    this.jitter = backoff == null ? 0 : backoff.seed();
    this.retryJitter = settings.jobs().seed();
    this.groups = new ReferenceGroups(settings.flow(), new FlowView());
    for (SlotSpec spec : settings.slots()) {
      slots.add(new RSlot(spec.id(), spec.maxConcurrency() == null ? -1 : spec.maxConcurrency()));
      local.add(spec.id());
    }
    instances = local.size();
    Integer first = settings.slots().isEmpty() ? null : settings.slots().get(0).maxConcurrency();
    maxConcurrency = first == null ? 1 : first;
  }

  List<Effect> start() {
    List<Effect> deploys = new ArrayList<>();
    for (RSlot slot : slots) {
      deploys.add(new Effect.Deploy(slot.id, slot.incarnation));
    }
    return deploys;
  }

  Transition apply(PoolEvent event) {
    out = new ArrayList<>();
    verdict = Transition.Verdict.NONE;
    now = event.now();
    PoolError error = route(event);
    if (error == null) {
      leaveDrained();
    }
    if (error == null) {
      groups.sweep();
    }
    return error != null ? new Transition.Refused(error) : new Transition.Applied(out, verdict);
  }

  private PoolError route(PoolEvent event) {
    if (event instanceof PoolEvent.Submit e) {
      submit(e);
      return null;
    } else if (event instanceof PoolEvent.Completed e) {
      return complete(e);
    } else if (event instanceof PoolEvent.Cancel e) {
      cancel(e);
      return null;
    } else if (event instanceof PoolEvent.Rebalance e) {
      return rebalance(e);
    } else if (event instanceof PoolEvent.WorkerCreated e) {
      return created(e);
    } else if (event instanceof PoolEvent.CreationFailed e) {
      return creationFailed(e);
    } else if (event instanceof PoolEvent.WorkerStopped e) {
      return stopped(e);
    } else if (event instanceof PoolEvent.WorkerRegistered e) {
      return registered(e);
    } else if (event instanceof PoolEvent.CapacityAdvertised e) {
      return capacity(e);
    } else if (event instanceof PoolEvent.WorkerDeregistered e) {
      return deregistered(e);
    } else if (event instanceof PoolEvent.HostRegistered e) {
      return hostRegistered(e);
    } else if (event instanceof PoolEvent.HostLost e) {
      return hostLost(e);
    } else if (event instanceof PoolEvent.HostHeard e) {
      return hostHeard(e);
    } else if (event instanceof PoolEvent.HostDeregistered e) {
      return hostDeregistered(e);
    } else if (event instanceof PoolEvent.TimerFired e) {
      fired(e.timer(), e.now());
      return null;
    } else if (event instanceof PoolEvent.Revive e) {
      return revive(e);
    } else if (event instanceof PoolEvent.ReplayDead e) {
      return replay(e);
    } else if (event instanceof PoolEvent.DiscardDead e) {
      return discard(e);
    } else if (event instanceof PoolEvent.Recover e) {
      return recover(e);
    } else if (event instanceof PoolEvent.StopRequested e) {
      stopRequested(e.now());
      return null;
    } else if (event instanceof PoolEvent.Resize e) {
      return resize(e);
    } else if (event instanceof PoolEvent.SetGroup e) {
      setGroup(e);
      return null;
    } else if (event instanceof PoolEvent.Pause e) {
      pause(e);
      return null;
    } else if (event instanceof PoolEvent.Resume e) {
      resume(e);
      return null;
    } else if (event instanceof PoolEvent.RateLimited e) {
      return rateLimited(e);
    } else if (event instanceof PoolEvent.Progress e) {
      return progress(e);
    }
    throw new AssertionError("unhandled " + event);
  }

  // ---- admission (P3, P4, P15) -----------------------------------------------------------------

  private boolean submit(PoolEvent.Submit e) {
    String id = e.job();
    long generated = 0;
    if (id == null) {
      do {
        id = "job-" + (++generatedIds);
      } while (unanswered(id) != null);
      generated = generatedIds;
    }
    if (state != PoolState.RUNNING) {
      reject(e, id, RejectionReason.SHUTTING_DOWN, "the pool is " + state);
      return false;
    }
    if (noRecoverableWorkers()) {
      reject(e, id, RejectionReason.NO_RECOVERABLE_WORKERS, "every worker is retired");
      return false;
    }
    if (unanswered(id) != null) {
      reject(e, id, RejectionReason.DUPLICATE_JOB,
          "job '" + id + "' is already accepted and not yet answered");
      return false;
    }
    ReferenceGroups.RGroup known = groups.find(e.group());
    if (groups.settings().rejectWhenPaused()
        && (groups.poolPausedSince != null || (known != null && known.pausedSince != null))) {
      reject(e, id, RejectionReason.PAUSED, (groups.poolPausedSince != null ? "the pool"
          : "group '" + e.group() + "'") + " is paused and the pool rejects submits while paused");
      return false;
    }
    boolean startsNow;
    long delay = Math.min(e.delayMs(), settings.jobs().maxDelayMs());
    boolean waits = delay > 0;
    RSlot target = null;
    boolean unseen = false;
    if (e.key() != null) {
      String bound = boundWorker(e.key());
      if (bound == null) {
        unseen = true;
        bound = settings.selector().select(e.key(), new View());
        target = bound == null ? null : slot(bound);
        if (target == null) {
          reject(e, id, RejectionReason.AFFINITY_UNAVAILABLE,
              "the selector chose no known worker for key '" + e.key() + "'");
          return false;
        }
      } else {
        target = slot(bound);
      }
      if (target.life == Life.RETIRED || target.departed) {
        reject(e, id, RejectionReason.AFFINITY_UNAVAILABLE,
            "key '" + e.key() + "' is bound to retired worker '" + target.id + "'");
        return false;
      }
      startsNow = !waits && takesNow(target, known);
      String full = startsNow ? null : noRoom(e.bytes());
      if (full != null) {
        reject(e, id, RejectionReason.BACKLOG_FULL, "worker '" + target.id
            + "' cannot take it now and " + full);
        return false;
      }
    } else {
      startsNow = !waits && slots.stream().anyMatch(slot -> takesNow(slot, known));
      if (!startsNow && noRoom(e.bytes()) != null) {
        reject(e, id, RejectionReason.BACKLOG_FULL,
            (waits ? "a delayed job waits in the backlog and " : "no worker can take it now (busy, starting or backing off) and ")
                + noRoom(e.bytes()));
        return false;
      }
    }
    if (!startsNow && known != null && known.queueCapacity > 0
        && groupHeld(e.group()) >= known.queueCapacity) {
      reject(e, id, RejectionReason.GROUP_FULL, "group '" + e.group() + "' holds "
          + groupHeld(e.group()) + " jobs, its queueCapacity, and cannot start this one now");
      return false;
    }
    groups.of(e.group());
    RJob job = new RJob(e, id, generated, target == null ? null : target.id);
    job.order = nextBack++;
    long due = waits ? e.now() + delay : 0;
    if (waits) {
      startWaiting(job, due, false);
    } else {
      line.add(job);
      groups.enqueued(job);
    }
    if (unseen) {
      bindings.add(new Binding(e.key(), target.id, false));
      bindingsMade++;
      record(new DurableRecord.Bound(e.key(), target.id, false));
    } else if (e.key() != null) {
      idleSelected.remove(e.key());
      idleRebalanced.remove(e.key());
    }
    accepted++;
    generatedAccepted = Math.max(generatedAccepted, generated);
    record(new DurableRecord.Accepted(id, generated, job.order, e.payload(), e.key(), e.replyTo(),
        e.timeoutMs(), e.bytes(), job.target, due, e.retry(), e.group(), e.priority(),
        e.progressTimeoutMs()));
    out.add(new Effect.Respond(e.replyTo(), new Outcome.Accepted(id)));
    if (waits) {
      armDue();
    }
    dispatch(e.now());
    return true;
  }

  /**
   * Whether a job of {@code group} (null: not known yet) for {@code slot} would run there at once:
   * it is free, no queued suspect may come first (J2; any other eligible job would have started),
   * and the pool and the group may start (F1, F4, F5).
   */
  private boolean takesNow(RSlot slot, ReferenceGroups.RGroup group) {
    for (RJob job : queuedJobs()) {
      if (job.stops > 0 && (job.target == null || job.target.equals(slot.id))) {
        return false;
      }
    }
    return free(slot) && groups.poolRunnable() && (group == null || groups.runnable(group));
  }

  /** Why a job of {@code bytes} cannot wait in the backlog, or null (P3 by count and bytes). */
  private String noRoom(long bytes) {
    if (backlogLength() >= settings.backlogCapacity()) {
      return "the backlog holds " + backlogLength() + " jobs" + (waitingJobs.isEmpty() ? ""
          : " (" + waitingJobs.size() + " of them waiting for their due time)");
    }
    long queuedBytes = 0;
    for (RJob job : queuedJobs()) {
      queuedBytes += job.bytes;
    }
    for (RJob job : waitingJobs) {
      queuedBytes += job.bytes;
    }
    if (queuedBytes + bytes > settings.backlogMaxBytes()) {
      return "the backlog holds " + queuedBytes + " payload bytes of " + settings.backlogMaxBytes()
          + " (this payload: " + bytes + ")";
    }
    return null;
  }

  private void reject(PoolEvent.Submit e, String id, RejectionReason reason, String message) {
    rejected++;
    out.add(new Effect.Respond(e.replyTo(),
        new Outcome.Rejected(id, reason, e.payload(), message)));
  }

  // ---- completion, cancel, rebalance (P5, P8, P17) ---------------------------------------------

  private PoolError complete(PoolEvent.Completed e) {
    RSlot slot = slot(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed) {
      ignoredFacts++;
      return null;
    }
    RJob job = null;
    List<Long> tokens = new ArrayList<>();
    for (RJob held : slot.running) {
      tokens.add(held.token);
      if (held.token == e.assignment()) {
        job = held;
      }
    }
    if (job == null) {
      staleCompletions++;
      return tokens.isEmpty()
          ? new PoolError.CompletionForUnavailableWorker(e.worker(), phase(slot))
          : new PoolError.StaleCompletion(e.worker(), tokens, e.assignment());
    }
    slot.running.remove(job);
    ended(slot, job);
    if (e.error() != null && !job.cancelled) {
      attemptEnded(job, slot, "FAILED", e.error().message());
    }
    slot.probing = false;
    slot.failedProbes = 0;
    if (job.cancelled) {
      left(job);
    } else if (e.error() == null) {
      line.remove(job);
      completed++;
      conclude(job, new Outcome.Completed(job.id, e.result(), slot.id, job.attempts), e.bytes());
    } else {
      failedAttempt(job, slot, e.error());
    }
    dispatch(e.now());
    finishDrainIfIdle(e.now());
    return null;
  }

  /** J3: a failure runs again while its retries allow, first in line; else it is answered. */
  private void failedAttempt(RJob job, RSlot slot, JobError error) {
    job.failures++;
    FailureRetry retry = job.retry != null ? job.retry : settings.jobs().retryFailures();
    if (state == PoolState.RUNNING && job.attempts < retry.maxAttempts()) {
      retried++;
      Backoff backoff = retry.backoff();
      long delay = backoff.none() ? 0 : delayOf(backoff, job.failures);
      if (delay == 0) {
        line.remove(job);
        line.add(0, job);
        job.order = nextFront--;
        job.queued = true;
        groups.enqueued(job);
        record(new DurableRecord.Requeued(job.id, job.order, job.interruption, job.stops,
            job.failures, 0));
      } else {
        line.remove(job);
        startWaiting(job, now + delay, true);
        record(new DurableRecord.Requeued(job.id, job.order, job.interruption, job.stops,
            job.failures, job.dueAt));
        armDue();
      }
      return;
    }
    line.remove(job);
    failed++;
    Outcome answer = new Outcome.Failed(job.id, error, slot.id, job.attempts);
    conclude(job, answer, error.message().length());
    if (settings.jobs().deadLetterFailed()) {
      deadLetter(job, answer);
    }
  }

  /** The n-th delay of {@code backoff}, drawing the retry jitter. */
  private long delayOf(Backoff backoff, int n) {
    retryJitter += 0x9e3779b97f4a7c15L;
    double draw = (Hashing.mix64(retryJitter) >>> 11) * 0x1.0p-53;
    double base = Math.min((double) backoff.maxMs(),
        backoff.initialMs() * Math.pow(backoff.multiplier(), Math.max(0, n - 1)));
    return Math.min(backoff.maxMs(),
        Math.max(1, Math.round(base * (1 + backoff.jitter() * (2 * draw - 1)))));
  }

  private void cancel(PoolEvent.Cancel e) {
    RJob job = unanswered(e.job());
    if (job == null) {
      return;
    }
    boolean waiting = waitingJobs.remove(job);
    boolean running = !job.queued && !waiting;
    line.remove(job);
    if (!running && !waiting) {
      groups.cancelled(job);
    }
    job.cancelled = true;
    cancelled++;
    conclude(job, new Outcome.Cancelled(job.id), 0);
    verdict = new Transition.Verdict.Cancelled(job.id);
    if (!running && !waiting) {
      dispatch(e.now());
    }
    if (running) {
      for (RSlot slot : slots) {
        if (slot.running.contains(job)) {
          out.add(new Effect.CancelRunning(slot.id, job.token, job.id));
        }
      }
    }
  }

  private PoolError rebalance(PoolEvent.Rebalance e) {
    RSlot slot = slot(e.worker());
    if (slot == null || slot.departed) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.life == Life.RETIRED) {
      return new PoolError.RebalanceToRetiredWorker(e.worker(), slot.retirement);
    }
    if (slot.draining) {
      return new PoolError.WorkerLeaving(e.worker());
    }
    boolean found = false;
    for (int i = 0; i < bindings.size(); i++) {
      if (bindings.get(i).key().equals(e.key())) {
        bindings.set(i, new Binding(e.key(), slot.id, true));
        found = true;
      }
    }
    if (!found) {
      bindings.add(new Binding(e.key(), slot.id, true));
      bindingsMade++;
    }
    record(new DurableRecord.Bound(e.key(), slot.id, true));
    idleSelected.remove(e.key());
    idleRebalanced.remove(e.key());
    if (!held(e.key())) {
      becomeIdle(e.key());
    }
    return null;
  }

  // ---- creation (P2, P12) ----------------------------------------------------------------------

  private PoolError created(PoolEvent.WorkerCreated e) {
    RSlot slot = slot(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed) {
      ignoredFacts++;
      return null;
    }
    if (slot.incarnation != e.incarnation()) {
      return new PoolError.StaleIncarnation(e.worker(), slot.incarnation, e.incarnation());
    }
    if (state == PoolState.STOPPED) {
      out.add(new Effect.Stop(slot.id, slot.incarnation, Exit.NORMAL));
      return null;
    }
    if (slot.life != Life.INSTALLING) {
      return new PoolError.CreationResolvedWhileUnavailable(e.worker(), phase(slot));
    }
    slot.life = Life.RUNNING;
    slot.runningSince = e.now();
    publishPhase(slot);
    dispatch(e.now());
    return null;
  }

  private PoolError creationFailed(PoolEvent.CreationFailed e) {
    RSlot slot = slot(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed || state == PoolState.STOPPED) {
      ignoredFacts++;
      return null;
    }
    if (slot.incarnation != e.incarnation()) {
      return new PoolError.StaleIncarnation(e.worker(), slot.incarnation, e.incarnation());
    }
    if (slot.life != Life.INSTALLING) {
      return new PoolError.CreationResolvedWhileUnavailable(e.worker(), phase(slot));
    }
    retireForNow(slot, Retirement.CREATION_REJECTED, e.now());
    finishDrainIfIdle(e.now());
    return null;
  }

  // ---- stops and supervision (P9, P10, P13, S1-S5) ---------------------------------------------

  private PoolError stopped(PoolEvent.WorkerStopped e) {
    RSlot slot = slot(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed || state == PoolState.STOPPED) {
      ignoredFacts++;
      return null;
    }
    if (slot.incarnation != e.incarnation()) {
      return new PoolError.StaleIncarnation(e.worker(), slot.incarnation, e.incarnation());
    }
    if (slot.life != Life.RUNNING) {
      return new PoolError.WorkerStoppedWhileUnavailable(e.worker(), phase(slot));
    }
    stop(slot, e.exit(), e.cause(), e.now());
    return null;
  }

  private void stop(RSlot dead, Exit exit, String cause, long now) {
    if (dead.draining) {
      drainingStopped(dead, exit, cause, now);
      return;
    }
    out.add(new Effect.Stop(dead.id, dead.incarnation, exit));
    boolean judged = settings.jobs().poisonAfter() > 0;
    boolean charged = !(judged && dead.running.stream().anyMatch(job -> job.stops > 0));
    List<String> jobs = new ArrayList<>();
    dead.running.forEach(job -> jobs.add(job.id));
    List<RJob> held = takeRunning(dead, new Interruption.WorkerStopped(dead.id, exit, cause));
    if (judged && (exit == Exit.CRASH || exit == Exit.TIMEOUT)) {
      for (RJob job : held) {
        job.stops++;
        job.ownStop = true;
      }
    }
    dead.life = Life.INSTALLING;
    if (state == PoolState.DRAINING) {
      settleWhileDraining(held);
      finishDrainIfIdle(now);
      return;
    }
    SupervisionSettings supervision = settings.supervision();
    if (!supervision.policy().restarts(exit)) {
      settle(held);
      retire(dead, Retirement.REPLACEMENT_UNAVAILABLE);
      dispatch(now);
      return;
    }
    if (supervision.restartWindowMs() != SupervisionSettings.INFINITE_WINDOW) {
      restartStamps.removeIf(stamp -> now - stamp > supervision.restartWindowMs());
    }
    List<RSlot> replaced = new ArrayList<>();
    for (RSlot slot : slots) {
      boolean chosen = switch (supervision.strategy()) {
        case ONE_FOR_ONE -> slot == dead;
        case ONE_FOR_ALL -> slot.life != Life.RETIRED && slot.life != Life.LOST && !slot.draining;
        case REST_FOR_ONE -> slot.life != Life.RETIRED && slot.life != Life.LOST && !slot.draining
            && slots.indexOf(slot) >= slots.indexOf(dead);
      };
      if (chosen) {
        replaced.add(slot);
      }
    }
    if (charged && restartStamps.size() + replaced.size() > supervision.maxRestarts()) {
      budgetRefusals++;
      out.add(new Effect.Publish(new Notice.BudgetExceeded(dead.id, restartStamps.size(),
          replaced.size(), supervision.maxRestarts(), supervision.onBudgetExceeded(), exit, cause,
          jobs, dead.restarts)));
      if (supervision.onBudgetExceeded() == BudgetReaction.RETIRE_WORKER) {
        settle(held);
        retireForNow(dead, Retirement.REPLACEMENT_UNAVAILABLE, now);
        dispatch(now);
      } else {
        // P9: FAIL answers the stop itself whatever the decision; RETRY cannot run again.
        settleWhileDraining(held);
        stopNow();
      }
      return;
    }
    for (int i = 0; charged && i < replaced.size(); i++) {
      restartStamps.add(now);
    }
    replace(dead, exit, cause, replaced, held, delay(dead, now), now, jobs, charged);
    dispatch(now);
  }

  private void replace(RSlot dead, Exit exit, String cause, List<RSlot> replaced,
      List<RJob> held, long delay, long now, List<String> jobs, boolean charged) {
    List<String> ids = new ArrayList<>();
    for (RSlot slot : replaced) {
      ids.add(slot.id);
      if (slot == dead) {
        continue;
      }
      if (slot.life == Life.RUNNING || slot.life == Life.INSTALLING) {
        out.add(new Effect.Stop(slot.id, slot.incarnation, Exit.SIBLING_RESTART));
      }
      held.addAll(takeRunning(slot, new Interruption.WorkerStopped(slot.id, Exit.SIBLING_RESTART,
          "sibling '" + dead.id + "' stopped (" + exit + ")")));
    }
    settle(held);
    out.add(new Effect.Publish(new Notice.RestartDecided(dead.id, exit, cause, ids, delay, jobs,
        charged)));
    for (RSlot slot : replaced) {
      slot.restarts++;
      restarts++;
      if (delay == 0) {
        slot.incarnation++;
        slot.life = Life.INSTALLING;
        out.add(new Effect.Deploy(slot.id, slot.incarnation));
      } else {
        slot.life = Life.BACKING_OFF;
        slot.backoffUntil = now + delay;
        out.add(new Effect.StartTimer(new Timer.BackoffEnd(slot.id, slot.backoffUntil),
            slot.backoffUntil));
      }
      publishPhase(slot);
    }
  }

  /** S5: the n-th consecutive failure waits min(max, initial * multiplier^(n-1)), ± jitter. */
  private long delay(RSlot dead, long now) {
    BackoffSettings backoff = settings.supervision().backoff();
    if (backoff == null) {
      return 0;
    }
    if (dead.failures > 0 && now - dead.runningSince >= backoff.resetAfterMs()) {
      dead.failures = 0;
    }
    dead.failures++;
    double base = Math.min((double) backoff.maxMs(),
        backoff.initialMs() * Math.pow(backoff.multiplier(), dead.failures - 1));
    jitter += 0x9e3779b97f4a7c15L;
    double draw = (Hashing.mix64(jitter) >>> 11) * 0x1.0p-53;
    double spread = backoff.jitter() * (2 * draw - 1);
    return Math.min(backoff.maxMs(), Math.max(0, Math.round((long) base * (1 + spread))));
  }

  /** Ends every assignment of {@code slot}; cancelled ones were answered and are dropped. */
  private List<RJob> takeRunning(RSlot slot, Interruption why) {
    List<RJob> held = new ArrayList<>();
    for (RJob job : new ArrayList<>(slot.running)) {
      ended(slot, job);
      if (!job.cancelled) {
        attemptEnded(job, slot,
            why instanceof Interruption.WorkerStopped w ? w.exit().name() : why.kind(),
            why instanceof Interruption.WorkerStopped w ? w.cause() : null);
        job.interruption = why;
        held.add(job);
      } else {
        slot.running.remove(job);
        left(job);
      }
    }
    slot.running.clear();
    return held;
  }

  /**
   * P9, P13, J2, J3: FAIL answers; RETRY answers poison and exhausted jobs (dead-lettering them),
   * sends suspects just stopped to wait their retry delay, and moves the rest to the front in line
   * order.
   */
  private void settle(List<RJob> held) {
    List<RJob> again = new ArrayList<>();
    List<RJob> later = new ArrayList<>();
    JobSettings rules = settings.jobs();
    for (RJob job : inLineOrder(held)) {
      boolean own = job.ownStop;
      job.ownStop = false;
      if (settings.interruption() == InterruptionPolicy.FAIL) {
        answerInterrupted(job, job.interruption);
      } else if (own && rules.poisonAfter() > 0 && job.stops >= rules.poisonAfter()) {
        poisoned++;
        Outcome answer = answerInterrupted(job, new Interruption.Poison(job.stops,
            (Interruption.WorkerStopped) job.interruption));
        deadLetter(job, answer);
      } else if (settings.maxAttempts() > 0 && job.attempts >= settings.maxAttempts()) {
        Outcome answer = answerInterrupted(job,
            new Interruption.AttemptsExhausted(job.attempts, job.interruption));
        deadLetter(job, answer);
      } else if (own && !rules.retryBackoff().none()) {
        later.add(job);
      } else {
        again.add(job);
      }
    }
    line.removeAll(again);
    line.addAll(0, again);
    for (int i = again.size() - 1; i >= 0; i--) {
      again.get(i).order = nextFront--;
      again.get(i).queued = true;
      groups.enqueued(again.get(i));
    }
    for (RJob job : again) {
      job.queued = true;
      record(new DurableRecord.Requeued(job.id, job.order, job.interruption, job.stops,
          job.failures, 0));
    }
    retried += again.size() + later.size();
    for (RJob job : later) {
      line.remove(job);
      startWaiting(job, now + delayOf(rules.retryBackoff(), job.stops), true);
      record(new DurableRecord.Requeued(job.id, job.order, job.interruption, job.stops,
          job.failures, job.dueAt));
    }
    if (!later.isEmpty()) {
      armDue();
    }
  }

  private void settleWhileDraining(List<RJob> held) {
    for (RJob job : inLineOrder(held)) {
      job.ownStop = false;
      answerInterrupted(job, settings.interruption() == InterruptionPolicy.FAIL
          ? job.interruption : new Interruption.PoolStopped());
    }
  }

  /** P10, P11: a retired slot's queued jobs are answered, and all of them if none is left. */
  private void retire(RSlot slot, Retirement reason) {
    for (String id : local) {
      RSlot draining = slot(id);
      if (draining.draining) {
        for (RJob job : draining.running) {
          if (!job.cancelled && slot.id.equals(job.target)) {
            job.target = draining.id;
            record(new DurableRecord.Retargeted(job.id, draining.id));
          }
        }
      }
    }
    slot.life = Life.RETIRED;
    slot.retirement = reason;
    publishPhase(slot);
    for (RJob job : queuedJobs()) {
      if (slot.id.equals(job.target)) {
        answerInterrupted(job, carried(job, new Interruption.AffinityRetired(slot.id, reason)));
      }
    }
    groups.drained(slot.id, false);
    for (RJob job : waitingInDueOrder()) {
      if (slot.id.equals(job.target)) {
        waitingJobs.remove(job);
        answerInterrupted(job, carried(job, new Interruption.AffinityRetired(slot.id, reason)));
      }
    }
    if (noRecoverableWorkers()) {
      for (RJob job : queuedJobs()) {
        answerInterrupted(job, carried(job, new Interruption.NoRecoverableWorkers()));
      }
      groups.drained(null, true);
      for (RJob job : waitingInDueOrder()) {
        waitingJobs.remove(job);
        answerInterrupted(job, carried(job, new Interruption.NoRecoverableWorkers()));
      }
    }
  }

  private static Interruption carried(RJob job, Interruption fallback) {
    return job.interruption != null ? job.interruption : fallback;
  }

  // ---- time (P14, S5, P16) ---------------------------------------------------------------------

  private void fired(Timer timer, long now) {
    if (timer instanceof Timer.ProgressSilence t) {
      RSlot slot = slot(t.worker());
      RJob job = null;
      if (slot != null && slot.life == Life.RUNNING && state != PoolState.STOPPED) {
        for (RJob held : slot.running) {
          if (held.token == t.assignment()) {
            job = held;
          }
        }
      }
      if (job == null) {
        ignoredFacts++;
        return;
      }
      long limit = progressTimeout(job);
      long end = Math.max(job.startedAt, job.progressAt) + limit;
      if (now < end) {
        out.add(new Effect.StartTimer(t, end));
        return;
      }
      stop(slot, Exit.TIMEOUT, "job '" + job.id + "' reported no progress for " + limit + " ms",
          now);
    } else if (timer instanceof Timer.JobDeadline t) {
      RSlot slot = slot(t.worker());
      RJob job = null;
      if (slot != null && slot.life == Life.RUNNING && state != PoolState.STOPPED) {
        for (RJob held : slot.running) {
          if (held.token == t.assignment()) {
            job = held;
          }
        }
      }
      if (job == null) {
        ignoredFacts++;
        return;
      }
      long limit = job.timeoutMs > 0 ? job.timeoutMs : settings.jobTimeoutMs();
      stop(slot, Exit.TIMEOUT, "job '" + job.id + "' ran past its timeout of " + limit + " ms",
          now);
    } else if (timer instanceof Timer.BackoffEnd t) {
      RSlot slot = slot(t.worker());
      if (slot == null || state != PoolState.RUNNING || slot.life != Life.BACKING_OFF
          || slot.backoffUntil != t.until()) {
        ignoredFacts++;
        return;
      }
      slot.incarnation++;
      slot.life = Life.INSTALLING;
      out.add(new Effect.Deploy(slot.id, slot.incarnation));
      publishPhase(slot);
    } else if (timer instanceof Timer.DrainDeadline) {
      if (state == PoolState.DRAINING) {
        stopNow();
      } else {
        ignoredFacts++;
      }
    } else if (timer instanceof Timer.HostLease t) {
      RHost host = host(t.host());
      if (host == null || host.state != HostState.UP || host.since != t.since()
          || state == PoolState.STOPPED) {
        ignoredFacts++;
        return;
      }
      long lease = settings.hosts().leaseMs();
      if (now - host.lastHeard < lease) {
        out.add(new Effect.StartTimer(t, host.lastHeard + lease));
        return;
      }
      loseHost(host, "no heartbeat from host '" + host.id + "' for " + (now - host.lastHeard)
          + " ms (heartbeatTimeoutMs " + lease + ")", now);
    } else if (timer instanceof Timer.HostGrace t) {
      RHost host = host(t.host());
      if (state != PoolState.RUNNING || host == null || host.state != HostState.LOST
          || host.since != t.since()) {
        ignoredFacts++;
        return;
      }
      for (String id : host.slots) {
        RSlot slot = slot(id);
        if (slot.life == Life.LOST) {
          retire(slot, Retirement.HOST_LOST);
        }
      }
    } else if (timer instanceof Timer.Revive t) {
      RSlot slot = slot(t.worker());
      if (slot == null || slot.departed || slot.incarnation != t.incarnation()
          || revivable(slot) != null) {
        ignoredFacts++;
        return;
      }
      revive(slot, false);
    } else if (timer instanceof Timer.Due t) {
      if (t.at() != armedDue) {
        ignoredFacts++;
        return;
      }
      armedDue = Long.MAX_VALUE;
      List<RJob> front = new ArrayList<>();
      List<RJob> back = new ArrayList<>();
      for (RJob job : waitingInDueOrder()) {
        if (job.dueAt <= now) {
          waitingJobs.remove(job);
          job.queued = true;
          (job.front ? front : back).add(job);
        }
      }
      line.addAll(0, front);
      for (int i = front.size() - 1; i >= 0; i--) {
        front.get(i).order = nextFront--;
        groups.enqueued(front.get(i));
      }
      for (RJob job : back) {
        line.add(job);
        job.order = nextBack++;
        groups.enqueued(job);
      }
      for (List<RJob> list : List.of(front, back)) {
        for (RJob job : list) {
          record(new DurableRecord.Requeued(job.id, job.order, job.interruption, job.stops,
              job.failures, 0));
        }
      }
      armDue();
      dispatch(now);
    } else if (timer instanceof Timer.GroupReady t) {
      groupReady(t);
    } else {
      throw new AssertionError("unhandled " + timer);
    }
  }

  // ---- revive ----------------------------------------------------------------------------------

  private PoolError revive(PoolEvent.Revive e) {
    RSlot slot = slot(e.worker());
    if (slot == null || slot.departed) {
      return new PoolError.UnknownWorker(e.worker());
    }
    String refusal = revivable(slot);
    if (refusal != null) {
      return new PoolError.ReviveRefused(slot.id, refusal);
    }
    revive(slot, true);
    return null;
  }

  private String revivable(RSlot slot) {
    if (state != PoolState.RUNNING) {
      return "the pool is " + state;
    }
    if (slot.life != Life.RETIRED) {
      return "it is " + phase(slot) + ", not retired";
    }
    if (slot.retirement == Retirement.HOST_LOST) {
      return "its host is lost; it comes back when the host registers again";
    }
    return null;
  }

  private void revive(RSlot slot, boolean byOperator) {
    Retirement was = slot.retirement;
    revives++;
    slot.incarnation++;
    slot.failures = 0;
    slot.probing = !byOperator;
    if (byOperator) {
      slot.failedProbes = 0;
    }
    slot.retirement = null;
    slot.life = Life.INSTALLING;
    out.add(new Effect.Publish(new Notice.Revived(slot.id, slot.incarnation, was, byOperator)));
    verdict = new Transition.Verdict.Revived(slot.id, slot.incarnation);
    out.add(new Effect.Deploy(slot.id, slot.incarnation));
    publishPhase(slot);
  }

  /** A slot the budget or a failed creation retired is revived later, if so configured. */
  private void retireForNow(RSlot slot, Retirement reason, long now) {
    retire(slot, reason);
    if (slot.probing) {
      slot.probing = false;
      slot.failedProbes++;
    }
    SupervisionSettings supervision = settings.supervision();
    long after = supervision.reviveAfterMs();
    if (after > 0) {
      long delay = (long) Math.min((double) supervision.reviveMaxMs(),
          after * Math.pow(2, Math.min(slot.failedProbes, 40)));
      out.add(new Effect.StartTimer(new Timer.Revive(slot.id, slot.incarnation), now + delay));
    }
  }

  // ---- graceful stop (P16, S4) -----------------------------------------------------------------

  private void stopRequested(long now) {
    if (state != PoolState.RUNNING) {
      return;
    }
    state = PoolState.DRAINING;
    out.add(new Effect.Publish(new Notice.PoolStateChanged(PoolState.DRAINING)));
    interruptQueued();
    if (countRunning() == 0 || settings.drainTimeoutMs() == 0) {
      stopNow();
      return;
    }
    drainDeadline = now + settings.drainTimeoutMs();
    out.add(new Effect.StartTimer(new Timer.DrainDeadline(), drainDeadline));
  }

  private void finishDrainIfIdle(long now) {
    if (state == PoolState.DRAINING && countRunning() == 0) {
      stopNow();
    }
  }

  private void stopNow() {
    if (state == PoolState.RUNNING) {
      out.add(new Effect.Publish(new Notice.PoolStateChanged(PoolState.DRAINING)));
    }
    state = PoolState.DRAINING;
    interruptQueued();
    List<RJob> held = new ArrayList<>();
    for (RSlot slot : slots) {
      held.addAll(takeRunning(slot, new Interruption.PoolStopped()));
    }
    for (RJob job : inLineOrder(held)) {
      answerInterrupted(job, new Interruption.PoolStopped());
    }
    for (RSlot slot : slots) {
      if (!slot.departed && (slot.life == Life.RUNNING || slot.life == Life.INSTALLING)) {
        out.add(new Effect.Stop(slot.id, slot.incarnation, Exit.NORMAL));
      }
    }
    state = PoolState.STOPPED;
    out.add(new Effect.Publish(new Notice.PoolStateChanged(PoolState.STOPPED)));
  }

  private void interruptQueued() {
    for (RJob job : queuedJobs()) {
      answerInterrupted(job, new Interruption.PoolStopped());
    }
    groups.drained(null, true);
    for (RJob job : waitingInDueOrder()) {
      waitingJobs.remove(job);
      answerInterrupted(job, new Interruption.PoolStopped());
    }
  }

  // ---- remote workers (C1-C4) ------------------------------------------------------------------

  private PoolError registered(PoolEvent.WorkerRegistered e) {
    if (e.maxConcurrency() != null && e.maxConcurrency() < 1) {
      return new PoolError.InvalidCapacity(e.worker(), e.maxConcurrency());
    }
    RSlot slot = slot(e.worker());
    if (slot != null && !slot.departed) {
      return new PoolError.DuplicateWorker(e.worker());
    }
    if (slot != null && slot.host != null) {
      return new PoolError.InvalidHostSlots(slot.host,
          "slot '" + slot.id + "' comes back only when its host registers");
    }
    int capacity = e.maxConcurrency() == null ? -1 : e.maxConcurrency();
    if (slot == null) {
      slot = new RSlot(e.worker(), capacity);
      slots.add(slot);
    } else {
      slot.departed = false;
      slot.incarnation++;
      slot.capacity = capacity;
      slot.failures = 0;
      slot.retirement = null;
    }
    slot.life = Life.RUNNING;
    slot.runningSince = e.now();
    publishPhase(slot);
    dispatch(e.now());
    return null;
  }

  private PoolError capacity(PoolEvent.CapacityAdvertised e) {
    if (e.maxConcurrency() < 1) {
      return new PoolError.InvalidCapacity(e.worker(), e.maxConcurrency());
    }
    RSlot slot = slot(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed) {
      ignoredFacts++;
      return null;
    }
    slot.capacity = e.maxConcurrency();
    dispatch(e.now());
    return null;
  }

  private PoolError deregistered(PoolEvent.WorkerDeregistered e) {
    RSlot slot = slot(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed) {
      ignoredFacts++;
      return null;
    }
    depart(List.of(slot), e.now());
    return null;
  }

  // ---- dispatch (P6, C2, C3): the seed's scan, repeated for capacities above one ---------------

  private void dispatch(long now) {
    if (state != PoolState.RUNNING) {
      return;
    }
    boolean progress = true;
    while (progress) {
      progress = false;
      for (RSlot slot : slots) {
        if (!free(slot) || (groups.ringEmpty(null) && groups.ringEmpty(slot.id))) {
          continue;
        }
        // F4, F5: a paused, held or empty-bucket pool starts nothing (its timer is armed).
        if (!groups.poolMayStart()) {
          return;
        }
        RJob job = groups.takeFor(slot.id, slot.running.isEmpty());
        if (job != null) {
          assign(slot, job, now);
          progress = true;
        }
      }
    }
  }

  private void assign(RSlot slot, RJob job, long now) {
    groups.started(job);
    job.queued = false;
    job.token = nextToken++;
    job.attempts++;
    job.startedAt = now;
    job.startedIncarnation = slot.incarnation;
    long timeout = job.timeoutMs > 0 ? job.timeoutMs : settings.jobTimeoutMs();
    job.deadline = timeout > 0 ? now + timeout : Long.MAX_VALUE;
    slot.running.add(job);
    record(new DurableRecord.Assigned(job.id, slot.id, job.attempts));
    out.add(new Effect.Assign(slot.id, job.token, job.id, job.payload, job.attempts, job.key,
        job.checkpoint));
    if (timeout > 0) {
      out.add(new Effect.StartTimer(new Timer.JobDeadline(slot.id, job.token), job.deadline));
    }
    if (progressTimeout(job) > 0) {
      out.add(new Effect.StartTimer(new Timer.ProgressSilence(slot.id, job.token),
          now + progressTimeout(job)));
    }
  }

  /** T2: the progress timeout that applies to {@code job} (0: none). */
  private long progressTimeout(RJob job) {
    return job.progressTimeoutMs > 0 ? job.progressTimeoutMs
        : settings.jobs().progressTimeoutMs();
  }

  /**
   * T2: a report of a live assignment becomes its job's checkpoint and is published; a stale one,
   * or one of a job answered cancelled, is ignored and counted.
   */
  private PoolError progress(PoolEvent.Progress e) {
    RSlot slot = slot(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    RJob job = null;
    if (!slot.departed) {
      for (RJob held : slot.running) {
        if (held.token == e.assignment()) {
          job = held;
        }
      }
    }
    if (job == null || job.cancelled) {
      ignoredFacts++;
      return null;
    }
    job.checkpoint = e.progress();
    job.checkpointBytes = e.bytes();
    job.progressAt = e.now();
    if (settings.durable()) {
      // T2, A3: at most one journaled checkpoint per job per CHECKPOINT_WRITE_MS; one held back
      // goes with the next report past that, or before the job's Requeued record.
      if (job.checkpointWrittenAt == Long.MIN_VALUE
          || e.now() - job.checkpointWrittenAt >= Pool.CHECKPOINT_WRITE_MS) {
        writeCheckpoint(job, e.now());
      } else {
        heldCheckpoints.put(job.id, job);
      }
    }
    out.add(new Effect.Progress(job.replyTo, job.id, slot.id, job.token, job.attempts,
        e.progress(), e.bytes()));
    return null;
  }

  /** An assignment ended: its job timeout no longer applies. */
  private void ended(RSlot slot, RJob job) {
    groups.ended(job);
    if (job.deadline != Long.MAX_VALUE) {
      out.add(new Effect.CancelTimer(new Timer.JobDeadline(slot.id, job.token)));
    }
    if (progressTimeout(job) > 0) {
      out.add(new Effect.CancelTimer(new Timer.ProgressSilence(slot.id, job.token)));
    }
  }

  /** C2: running, capacity known, fewer assignments than it, no suspect running (J2). */
  private static boolean free(RSlot slot) {
    return slot.life == Life.RUNNING && !slot.departed && !slot.draining && slot.capacity != -1
        && slot.running.size() < slot.capacity
        && slot.running.stream().noneMatch(job -> job.stops > 0);
  }

  // ---- answers and lookups ---------------------------------------------------------------------

  /**
   * A terminal answer: recorded (durable pools) and sent; the job leaves (its binding may become
   * idle) and its outcome is remembered (J6), the oldest forgotten beyond the bounds.
   */
  private void conclude(RJob job, Outcome outcome, long bytes) {
    Retention limits = settings.jobs().recentOutcomes();
    RecentOutcome remembered = limits.capacity() > 0
        ? new RecentOutcome(job.id, outcome, now, bytes) : null;
    record(new DurableRecord.Answered(job.id, job.replyTo, outcome, remembered));
    out.add(new Effect.Respond(job.replyTo, outcome));
    left(job);
    if (remembered != null) {
      recent.add(remembered);
      forgetBeyondBounds();
    }
  }

  private long recentBytes() {
    long sum = 0;
    for (RecentOutcome r : recent) {
      sum += r.bytes();
    }
    return sum;
  }

  /** J5: the job joins the dead-letter set (if it keeps any), the oldest evicted beyond it. */
  private void deadLetter(RJob job, Outcome answer) {
    Retention limits = settings.jobs().deadLetter();
    if (limits.capacity() == 0) {
      return;
    }
    DeadLetter entry = new DeadLetter(job.id, job.key, job.payload, job.bytes, job.timeoutMs,
        job.history, answer, now, job.group, job.priority, job.retry);
    deadLettered++;
    deadLetters.removeIf(d -> d.job().equals(job.id));
    deadLetters.add(entry);
    List<String> evicted = evictBeyondBounds();
    record(new DurableRecord.DeadLettered(entry));
    out.add(new Effect.Publish(new Notice.DeadLettered(job.id, entry.reason(),
        job.history.isEmpty() ? null : job.history.get(job.history.size() - 1).worker(),
        job.attempts, deadLetters.size())));
    evicted(evicted);
  }

  private void evicted(List<String> ids) {
    for (String id : ids) {
      record(new DurableRecord.DeadRemoved(id));
      out.add(new Effect.Publish(new Notice.DeadLetterRemoved(id,
          Notice.DeadLetterRemoval.EVICTED, deadLetters.size())));
    }
  }

  /** J5, J6: recovered under smaller limits, the oldest beyond them go, recorded. */
  private void trimRecovered() {
    evicted(evictBeyondBounds());
    forgetBeyondBounds();
  }

  /** J5: the oldest dead letters beyond the set's bounds leave, counted; their ids, oldest first. */
  private List<String> evictBeyondBounds() {
    Retention limits = settings.jobs().deadLetter();
    List<String> evicted = new ArrayList<>();
    while (deadLetters.size() > limits.capacity() || deadBytes() > limits.maxBytes()) {
      evicted.add(deadLetters.remove(0).job());
      deadEvicted++;
    }
    return evicted;
  }

  /** J6: the oldest outcomes beyond the bounds are forgotten, recorded. */
  private void forgetBeyondBounds() {
    Retention limits = settings.jobs().recentOutcomes();
    while (recent.size() > limits.capacity() || recentBytes() > limits.maxBytes()) {
      record(new DurableRecord.Forgotten(recent.remove(0).job()));
    }
  }

  private long deadBytes() {
    long sum = 0;
    for (DeadLetter d : deadLetters) {
      sum += d.bytes();
    }
    return sum;
  }

  private DeadLetter dead(String job) {
    for (DeadLetter d : deadLetters) {
      if (d.job().equals(job)) {
        return d;
      }
    }
    return null;
  }

  private PoolError replay(PoolEvent.ReplayDead e) {
    DeadLetter entry = dead(e.job());
    if (entry == null) {
      return new PoolError.UnknownJob(e.job(), "in the dead-letter set");
    }
    if (submit(new PoolEvent.Submit(entry.job(), entry.payload(), entry.key(), e.replyTo(),
        entry.timeoutMs(), entry.bytes(), 0, entry.retry(), entry.group(), entry.priority(),
        e.now()))) {
      removeDead(entry.job(), Notice.DeadLetterRemoval.REPLAYED);
    }
    return null;
  }

  private PoolError discard(PoolEvent.DiscardDead e) {
    if (dead(e.job()) == null) {
      return new PoolError.UnknownJob(e.job(), "in the dead-letter set");
    }
    removeDead(e.job(), Notice.DeadLetterRemoval.DISCARDED);
    return null;
  }

  private void removeDead(String job, Notice.DeadLetterRemoval why) {
    deadLetters.removeIf(d -> d.job().equals(job));
    record(new DurableRecord.DeadRemoved(job));
    out.add(new Effect.Publish(new Notice.DeadLetterRemoved(job, why, deadLetters.size())));
  }

  /** Records how {@code job}'s attempt on {@code slot} ended, keeping the latest 16. */
  private void attemptEnded(RJob job, RSlot slot, String ended, String detail) {
    if (job.history.size() == DeadLetter.MAX_ATTEMPTS) {
      job.history.remove(0);
    }
    job.history.add(new Attempt(job.attempts, slot.id, job.startedIncarnation, job.startedAt, now,
        ended, detail));
  }

  /** J3, J4: {@code job} leaves the line to wait until {@code due}. */
  private void startWaiting(RJob job, long due, boolean front) {
    job.queued = false;
    job.dueAt = due;
    job.waitSeq = waitSeq++;
    job.front = front;
    waitingJobs.add(job);
  }

  private List<RJob> waitingInDueOrder() {
    List<RJob> sorted = new ArrayList<>(waitingJobs);
    sorted.sort(Comparator.<RJob>comparingLong(j -> j.dueAt).thenComparingLong(j -> j.waitSeq));
    return sorted;
  }

  /** Starts the due timer of the earliest waiting job unless one that early is started. */
  private void armDue() {
    long next = Long.MAX_VALUE;
    for (RJob job : waitingJobs) {
      next = Math.min(next, job.dueAt);
    }
    if (next < armedDue) {
      if (armedDue != Long.MAX_VALUE) {
        out.add(new Effect.CancelTimer(new Timer.Due(armedDue)));
      }
      armedDue = next;
      out.add(new Effect.StartTimer(new Timer.Due(next), next));
    }
  }

  private void record(DurableRecord record) {
    if (settings.durable()) {
      if (record instanceof DurableRecord.Requeued r && heldCheckpoints.containsKey(r.job())) {
        RJob job = heldCheckpoints.get(r.job());
        writeCheckpoint(job, job.progressAt);
      } else if (record instanceof DurableRecord.Answered a) {
        heldCheckpoints.remove(a.job());
      }
      out.add(new Effect.Persist(record));
    }
  }

  private void writeCheckpoint(RJob job, long at) {
    heldCheckpoints.remove(job.id);
    job.checkpointWrittenAt = at;
    out.add(new Effect.Persist(new DurableRecord.Checkpointed(job.id, job.checkpoint,
        job.checkpointBytes)));
  }

  private Outcome answerInterrupted(RJob job, Interruption why) {
    line.remove(job);
    interrupted++;
    Outcome outcome = new Outcome.Interrupted(job.id, job.payload, job.attempts, why);
    conclude(job, outcome, job.bytes);
    return outcome;
  }

  // ---- idle bindings (PoolLimits) ---------------------------------------------------------------

  /** A job is no longer held (answered and off its slot): its key's binding may become idle. */
  private void left(RJob job) {
    if (job.key != null && !held(job.key) && !idleSelected.contains(job.key)
        && !idleRebalanced.contains(job.key)) {
      becomeIdle(job.key);
    }
  }

  /** Whether a queued or running job (cancelled ones included) has {@code key}. */
  private boolean held(String key) {
    for (RJob job : line) {
      if (key.equals(job.key)) {
        return true;
      }
    }
    for (RJob job : waitingJobs) {
      if (key.equals(job.key)) {
        return true;
      }
    }
    for (RSlot slot : slots) {
      for (RJob job : slot.running) {
        if (key.equals(job.key)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The binding of {@code key} joins the tail of its idle list; the oldest beyond it go. */
  private void becomeIdle(String key) {
    boolean rebalanced = false;
    for (Binding binding : bindings) {
      if (binding.key().equals(key)) {
        rebalanced = binding.rebalanced();
      }
    }
    List<String> idle = rebalanced ? idleRebalanced : idleSelected;
    int max = rebalanced ? settings.limits().maxRebalancedKeys() : settings.limits().maxIdleKeys();
    idle.add(key);
    while (idle.size() > max) {
      String oldest = idle.remove(0);
      bindings.removeIf(binding -> binding.key().equals(oldest));
      record(new DurableRecord.Unbound(oldest));
    }
  }

  private void publishPhase(RSlot slot) {
    out.add(new Effect.Publish(new Notice.PhaseChanged(slot.id, phase(slot), slot.incarnation,
        slot.life == Life.BACKING_OFF ? slot.backoffUntil : null,
        slot.life == Life.RETIRED ? slot.retirement : null)));
  }

  private static Phase phase(RSlot slot) {
    return switch (slot.life) {
      case INSTALLING -> Phase.INSTALLING;
      case RUNNING -> slot.draining ? Phase.DRAINING
          : slot.running.isEmpty() ? Phase.IDLE : Phase.ASSIGNED;
      case BACKING_OFF -> Phase.BACKING_OFF;
      case RETIRED -> Phase.RETIRED;
      case LOST -> Phase.LOST;
    };
  }

  private List<RJob> inLineOrder(List<RJob> jobs) {
    List<RJob> sorted = new ArrayList<>(jobs);
    sorted.sort(Comparator.comparingInt(line::indexOf));
    return sorted;
  }

  private List<RJob> queuedJobs() {
    List<RJob> queued = new ArrayList<>();
    for (RJob job : line) {
      if (job.queued) {
        queued.add(job);
      }
    }
    return queued;
  }

  /** Jobs held in the backlog's bound: queued and waiting. */
  private int backlogLength() {
    return queuedJobs().size() + waitingJobs.size();
  }

  private RJob unanswered(String id) {
    for (RJob job : line) {
      if (job.id.equals(id)) {
        return job;
      }
    }
    for (RJob job : waitingJobs) {
      if (job.id.equals(id)) {
        return job;
      }
    }
    return null;
  }

  private RSlot slot(String id) {
    for (RSlot slot : slots) {
      if (slot.id.equals(id)) {
        return slot;
      }
    }
    return null;
  }

  private String boundWorker(String key) {
    for (Binding binding : bindings) {
      if (binding.key().equals(key)) {
        return binding.worker();
      }
    }
    return null;
  }

  private int countNotRetired() {
    int count = 0;
    for (RSlot slot : slots) {
      if (slot.life != Life.RETIRED) {
        count++;
      }
    }
    return count;
  }

  private int countRunning() {
    int count = 0;
    for (RSlot slot : slots) {
      count += slot.running.size();
    }
    return count;
  }

  /** Remote slots leave: their jobs are interrupted and settled together, then each retires. */
  private void depart(List<RSlot> leaving, long now) {
    List<RJob> held = new ArrayList<>();
    for (RSlot slot : leaving) {
      held.addAll(
          takeRunning(slot, new Interruption.WorkerStopped(slot.id, Exit.NORMAL, "deregistered")));
    }
    if (state == PoolState.DRAINING) {
      settleWhileDraining(held);
    } else if (state == PoolState.RUNNING) {
      settle(held);
    }
    for (RSlot slot : leaving) {
      slot.departed = true;
      if (slot.life != Life.RETIRED) {
        retire(slot, Retirement.REPLACEMENT_UNAVAILABLE);
      }
    }
    dispatch(now);
    finishDrainIfIdle(now);
  }

  // ---- worker hosts (H1-H8) -------------------------------------------------------------------

  private PoolError hostRegistered(PoolEvent.HostRegistered e) {
    if (e.slots().isEmpty()) {
      return new PoolError.InvalidHostSlots(e.host(), "a host registers at least one slot");
    }
    List<String> ids = new ArrayList<>();
    for (SlotSpec spec : e.slots()) {
      if (ids.contains(spec.id())) {
        return new PoolError.InvalidHostSlots(e.host(), "slot '" + spec.id() + "' is named twice");
      }
      ids.add(spec.id());
      RSlot slot = slot(spec.id());
      if (slot != null && !e.host().equals(slot.host)) {
        return new PoolError.InvalidHostSlots(e.host(), "slot '" + spec.id() + "' belongs to "
            + (slot.host == null ? "the pool itself" : "host '" + slot.host + "'"));
      }
    }
    RHost host = host(e.host());
    if (host != null && host.state == HostState.UP) {
      if (host.node.equals(e.node())) {
        host.lastHeard = e.now();
        ignoredFacts++;
        return null;
      }
      return new PoolError.DuplicateHost(e.host(), host.node);
    }
    if (state != PoolState.RUNNING) {
      ignoredFacts++;
      return null;
    }
    if (host == null) {
      host = new RHost(e.host());
      hosts.add(host);
    }
    host.node = e.node();
    host.state = HostState.UP;
    host.since = e.now();
    host.lastHeard = e.now();
    out.add(new Effect.Publish(new Notice.HostChanged(host.id, host.node, HostState.UP, null)));
    out.add(new Effect.StartTimer(new Timer.HostLease(host.id, host.since),
        host.since + settings.hosts().leaseMs()));
    for (SlotSpec spec : e.slots()) {
      int capacity = spec.maxConcurrency() == null ? -1 : spec.maxConcurrency();
      RSlot slot = slot(spec.id());
      if (slot == null) {
        slot = new RSlot(spec.id(), capacity);
        slot.host = host.id;
        slots.add(slot);
        host.slots.add(slot.id);
      } else if (slot.life == Life.LOST || slot.departed
          || (slot.life == Life.RETIRED && slot.retirement == Retirement.HOST_LOST)) {
        slot.departed = false;
        slot.capacity = capacity;
        slot.incarnation++;
        slot.failures = 0;
        slot.retirement = null;
        slot.life = Life.INSTALLING;
      } else {
        continue;
      }
      out.add(new Effect.Deploy(slot.id, slot.incarnation));
      publishPhase(slot);
    }
    record(new DurableRecord.HostKnown(host.id, host.node, host.slots));
    List<RSlot> unnamed = new ArrayList<>();
    for (String id : host.slots) {
      if (!ids.contains(id) && !slot(id).departed) {
        unnamed.add(slot(id));
      }
    }
    if (!unnamed.isEmpty()) {
      depart(unnamed, e.now());
    }
    return null;
  }

  private PoolError hostLost(PoolEvent.HostLost e) {
    RHost host = host(e.host());
    if (host == null) {
      return new PoolError.UnknownHost(e.host());
    }
    if (host.state != HostState.UP || state == PoolState.STOPPED) {
      ignoredFacts++;
      return null;
    }
    loseHost(host, e.cause(), e.now());
    return null;
  }

  private PoolError hostHeard(PoolEvent.HostHeard e) {
    RHost host = host(e.host());
    if (host == null) {
      return new PoolError.UnknownHost(e.host());
    }
    if (host.state != HostState.UP) {
      ignoredFacts++;
      return null;
    }
    host.lastHeard = e.now();
    return null;
  }

  /** H5: an UP host is lost, by the cluster's word or by its lease. */
  private void loseHost(RHost host, String cause, long now) {
    host.state = HostState.LOST;
    host.since = now;
    out.add(new Effect.Publish(new Notice.HostChanged(host.id, host.node, HostState.LOST,
        cause)));
    List<RJob> held = new ArrayList<>();
    for (String id : host.slots) {
      RSlot slot = slot(id);
      if (slot.departed || slot.life == Life.RETIRED) {
        continue;
      }
      if (slot.life == Life.RUNNING || slot.life == Life.INSTALLING) {
        out.add(new Effect.Stop(slot.id, slot.incarnation, Exit.NODE_LOST));
      }
      held.addAll(takeRunning(slot,
          new Interruption.WorkerStopped(slot.id, Exit.NODE_LOST, cause)));
      slot.life = Life.LOST;
      publishPhase(slot);
    }
    if (state == PoolState.DRAINING) {
      settleWhileDraining(held);
      finishDrainIfIdle(now);
      return;
    }
    settle(held);
    out.add(new Effect.StartTimer(new Timer.HostGrace(host.id, host.since),
        host.since + settings.hosts().graceMs()));
    dispatch(now);
  }

  private PoolError hostDeregistered(PoolEvent.HostDeregistered e) {
    RHost host = host(e.host());
    if (host == null) {
      return new PoolError.UnknownHost(e.host());
    }
    if (host.state == HostState.GONE) {
      ignoredFacts++;
      return null;
    }
    host.state = HostState.GONE;
    host.since = e.now();
    out.add(new Effect.Publish(new Notice.HostChanged(host.id, host.node, HostState.GONE, null)));
    List<RSlot> leaving = new ArrayList<>();
    for (String id : host.slots) {
      if (!slot(id).departed) {
        leaving.add(slot(id));
      }
    }
    depart(leaving, e.now());
    return null;
  }

  private RHost host(String id) {
    for (RHost host : hosts) {
      if (host.id.equals(id)) {
        return host;
      }
    }
    return null;
  }

  /** P11 as H8 reads it: at least one slot not departed, and every one of them retired. */
  private boolean noRecoverableWorkers() {
    boolean any = false;
    for (RSlot slot : slots) {
      if (!slot.departed) {
        any = true;
        if (slot.life != Life.RETIRED) {
          return false;
        }
      }
    }
    return any;
  }

  // ---- recovery (A3) ---------------------------------------------------------------------------

  private PoolError recover(PoolEvent.Recover e) {
    DurableImage image = e.image();
    if (!settings.durable()) {
      return refused("pool " + settings.name() + " is not durable");
    }
    if (recovered || accepted + rejected > 0 || !hosts.isEmpty()
        || slots.size() != settings.slots().size() || state != PoolState.RUNNING) {
      return refused("pool " + settings.name() + " has already taken work (a pool recovers first)");
    }
    if (image.term() >= settings.term()) {
      return refused("the image is of term " + image.term() + ", not older than the pool's term "
          + settings.term());
    }
    List<String> jobIds = new ArrayList<>();
    for (DurableImage.JobImage j : image.jobs()) {
      if (jobIds.contains(j.job())) {
        return refused("job '" + j.job() + "' is in the image twice");
      }
      jobIds.add(j.job());
      if (j.dueAt() > 0 && j.worker() != null) {
        return refused("job '" + j.job() + "' is both waiting and running on '" + j.worker()
            + "'");
      }
      if (j.key() != null && j.target() == null) {
        return refused("job '" + j.job() + "' has key '" + j.key() + "' but no target");
      }
    }
    List<String> hostIds = new ArrayList<>();
    List<String> hostSlotIds = new ArrayList<>();
    for (DurableImage.HostImage h : image.hosts()) {
      if (hostIds.contains(h.host())) {
        return refused("host '" + h.host() + "' is in the image twice");
      }
      hostIds.add(h.host());
      for (String id : h.slots()) {
        boolean own = slot(id) != null;
        if (own || hostSlotIds.contains(id)) {
          return refused("slot '" + id + "' of host '" + h.host() + "' belongs to "
              + (own ? "the pool itself" : "two hosts"));
        }
        hostSlotIds.add(id);
      }
    }
    long now = e.now();
    recovered = true;
    // T3: the totals of the predecessor's last write are where the counters go on from.
    Counters totals = e.counters();
    if (totals != null) {
      accepted = totals.accepted();
      rejected = totals.rejected();
      completed = totals.completed();
      failed = totals.failed();
      interrupted = totals.interrupted();
      cancelled = totals.cancelled();
      retried = totals.retried();
      restarts = totals.restarts();
      staleCompletions = totals.staleCompletions();
      budgetRefusals = totals.budgetRefusals();
      ignoredFacts = totals.ignoredFacts();
      revives = totals.revives();
      poisoned = totals.poisoned();
      deadLettered = totals.deadLettered();
      deadEvicted = totals.deadLetterEvicted();
    }
    String cause = "the coordinator of term " + image.term() + " was replaced (term "
        + settings.term() + ")";
    List<String> added = image.size() == null ? List.of()
        : grow(image.size().instances(), image.size().maxConcurrency());
    List<RHost> lost = new ArrayList<>();
    for (DurableImage.HostImage h : image.hosts()) {
      RHost host = new RHost(h.host());
      host.node = h.node();
      host.state = HostState.LOST;
      host.since = now;
      hosts.add(host);
      for (String id : h.slots()) {
        RSlot slot = new RSlot(id, -1);
        slot.host = host.id;
        slot.life = Life.LOST;
        slots.add(slot);
        host.slots.add(id);
      }
      lost.add(host);
    }
    List<RSlot> orphans = new ArrayList<>();
    for (DurableImage.JobImage j : image.jobs()) {
      orphan(j.target(), orphans);
      orphan(j.worker(), orphans);
    }
    for (DurableImage.BindingImage b : image.bindings()) {
      orphan(b.worker(), orphans);
    }
    for (DurableImage.BindingImage b : image.bindings()) {
      bindings.add(new Binding(b.key(), b.worker(), b.rebalanced()));
      bindingsMade++;
    }
    generatedAccepted = image.generated();
    groups.poolPausedSince = image.pausedSince();
    for (DurableImage.GroupImage g : image.groups()) {
      ReferenceGroups.RGroup group = groups.of(g.group());
      group.runtime = g.settings();
      groups.configure(group, now);
      group.pausedSince = g.pausedSince();
    }
    List<RJob> held = new ArrayList<>();
    for (DurableImage.JobImage j : image.jobs()) {
      RJob job = new RJob(j.job(), j.generated(), j.payload(), j.replyTo(), j.key(),
          j.timeoutMs(), j.bytes(), j.target());
      job.attempts = j.attempts();
      job.interruption = j.interruption();
      job.order = j.order();
      job.retry = j.retry();
      job.stops = j.stops();
      job.failures = j.failures();
      job.group = j.group();
      job.priority = j.priority();
      job.checkpoint = j.checkpoint();
      job.checkpointBytes = j.checkpointBytes();
      job.progressTimeoutMs = j.progressTimeoutMs();
      job.acceptedAt = now;
      groups.of(j.group());
      generatedAccepted = Math.max(generatedAccepted, j.generated());
      if (job.key != null && boundWorker(job.key) == null) {
        bindings.add(new Binding(job.key, job.target, false));
        bindingsMade++;
        record(new DurableRecord.Bound(job.key, job.target, false));
      }
      if (j.dueAt() > 0) {
        nextBack = Math.max(nextBack, j.order() + 1);
        nextFront = Math.min(nextFront, j.order() - 1);
        startWaiting(job, j.dueAt(), j.front());
        continue;
      }
      line.add(job);
      if (j.worker() == null) {
        groups.enqueued(job);
        nextBack = Math.max(nextBack, j.order() + 1);
        nextFront = Math.min(nextFront, j.order() - 1);
      } else {
        job.queued = false;
        job.interruption = new Interruption.WorkerStopped(j.worker(), Exit.NODE_LOST, cause);
        held.add(job);
      }
    }
    generatedIds = Math.max(generatedIds, generatedAccepted);
    deadLetters.addAll(image.dead());
    recent.addAll(image.recent());
    List<String> keys = new ArrayList<>();
    bindings.forEach(b -> keys.add(b.key()));
    keys.sort(null);
    for (String key : keys) {
      if (boundWorker(key) != null && !held(key) && !idleSelected.contains(key)
          && !idleRebalanced.contains(key)) {
        becomeIdle(key);
      }
    }
    out.add(new Effect.Publish(new Notice.Recovered(settings.term(), image.term(),
        image.jobs().size(), held.size())));
    trimRecovered();
    for (RHost host : lost) {
      out.add(new Effect.Publish(new Notice.HostChanged(host.id, host.node, HostState.LOST,
          cause)));
      for (String id : host.slots) {
        publishPhase(slot(id));
      }
      out.add(new Effect.StartTimer(new Timer.HostGrace(host.id, now),
          now + settings.hosts().graceMs()));
    }
    settle(held);
    armDue();
    if (image.size() != null) {
      List<String> draining = shrink();
      out.add(new Effect.Publish(new Notice.Resized(instances, maxConcurrency, added, draining)));
    }
    for (RSlot slot : orphans) {
      slot.departed = true;
      retire(slot, Retirement.REPLACEMENT_UNAVAILABLE);
    }
    dispatch(now);
    return null;
  }

  private void orphan(String id, List<RSlot> orphans) {
    if (id != null && slot(id) == null) {
      RSlot slot = new RSlot(id, -1);
      slots.add(slot);
      orphans.add(slot);
    }
  }

  private static PoolError refused(String reason) {
    return new PoolError.RecoveryRefused(reason);
  }

  // ---- resize (F6) -----------------------------------------------------------------------------

  private PoolError resize(PoolEvent.Resize e) {
    if (state != PoolState.RUNNING) {
      return new PoolError.ResizeRefused(null, "the pool is " + state);
    }
    if (e.instances() == 0 && !settings.hosts().hostsOnly()) {
      return new PoolError.ResizeRefused("instances", "must be at least 1: this pool does not"
          + " run on worker hosts alone (was 0)");
    }
    for (int i = local.size(); i < e.instances(); i++) {
      if (slot("w-" + i) != null) {
        return new PoolError.ResizeRefused("instances", "slot id 'w-" + i
            + "' belongs to a worker that is not the pool's own (was " + e.instances() + ")");
      }
    }
    record(new DurableRecord.Resized(e.instances(), e.maxConcurrency()));
    List<String> added = grow(e.instances(), e.maxConcurrency());
    List<String> draining = shrink();
    out.add(new Effect.Publish(new Notice.Resized(instances, maxConcurrency, added, draining)));
    dispatch(e.now());
    return null;
  }

  private List<String> grow(int wanted, int capacity) {
    resized = true;
    instances = wanted;
    maxConcurrency = capacity;
    List<String> added = new ArrayList<>();
    for (int i = 0; i < local.size(); i++) {
      RSlot slot = slot(local.get(i));
      if (slot.departed) {
        if (i < wanted) {
          slot.departed = false;
          slot.incarnation++;
          slot.capacity = capacity;
          slot.failures = 0;
          slot.probing = false;
          slot.failedProbes = 0;
          slot.life = Life.INSTALLING;
          slot.retirement = null;
          out.add(new Effect.Deploy(slot.id, slot.incarnation));
          publishPhase(slot);
          added.add(slot.id);
        }
        continue;
      }
      slot.capacity = capacity;
      if (slot.draining && i < wanted) {
        slot.draining = false;
        for (RJob job : slot.running) {
          if (!job.cancelled && job.target != null && !job.target.equals(slot.id)) {
            job.target = slot.id;
            record(new DurableRecord.Retargeted(job.id, slot.id));
          }
        }
        publishPhase(slot);
      }
    }
    for (int i = local.size(); i < wanted; i++) {
      RSlot slot = new RSlot("w-" + i, capacity);
      slots.add(slot);
      local.add(slot.id);
      out.add(new Effect.Deploy(slot.id, slot.incarnation));
      publishPhase(slot);
      added.add(slot.id);
    }
    return added;
  }

  private List<String> shrink() {
    List<RSlot> leaving = new ArrayList<>();
    for (int i = instances; i < local.size(); i++) {
      RSlot slot = slot(local.get(i));
      if (!slot.departed && !slot.draining) {
        slot.draining = true;
        leaving.add(slot);
      }
    }
    for (RSlot slot : leaving) {
      moveKeys(slot);
    }
    List<String> draining = new ArrayList<>();
    for (RSlot slot : leaving) {
      draining.add(slot.id);
      drain(slot);
    }
    return draining;
  }

  private void moveKeys(RSlot slot) {
    List<String> keys = new ArrayList<>();
    for (Binding binding : bindings) {
      if (binding.worker().equals(slot.id)) {
        keys.add(binding.key());
      }
    }
    keys.sort(null);
    View view = new View();
    for (String key : keys) {
      String chosen = settings.selector().select(key, view);
      RSlot to = chosen == null ? null : slot(chosen);
      if (to != null && to != slot && view.selectable(slots.indexOf(to))) {
        for (int i = 0; i < bindings.size(); i++) {
          Binding b = bindings.get(i);
          if (b.key().equals(key)) {
            bindings.set(i, new Binding(key, to.id, b.rebalanced()));
            record(new DurableRecord.Bound(key, to.id, b.rebalanced()));
          }
        }
      }
    }
  }

  private void drain(RSlot slot) {
    for (RJob job : queuedJobs()) {
      if (retarget(job, slot)) {
        groups.enqueued(job);
      }
    }
    groups.drained(slot.id, false);
    for (RJob job : waitingInDueOrder()) {
      retarget(job, slot);
    }
    for (String id : local) {
      RSlot other = slot(id);
      if (other.draining) {
        for (RJob job : other.running) {
          if (!job.cancelled) {
            retarget(job, slot);
          }
        }
      }
    }
    if (slot.running.isEmpty()) {
      leave(slot, true);
    } else {
      publishPhase(slot);
    }
  }

  /** Moves {@code job} off {@code from} to its key's slot when that one may take it. */
  private boolean retarget(RJob job, RSlot from) {
    if (!from.id.equals(job.target)) {
      return false;
    }
    String bound = job.key == null ? null : boundWorker(job.key);
    if (bound != null && !bound.equals(job.target)
        && new View().selectable(slots.indexOf(slot(bound)))) {
      job.target = bound;
      record(new DurableRecord.Retargeted(job.id, bound));
      return true;
    }
    return false;
  }

  private void leave(RSlot slot, boolean stop) {
    Interruption none = new Interruption.NoRecoverableWorkers();
    for (RJob job : queuedJobs()) {
      if (slot.id.equals(job.target)) {
        answerInterrupted(job, carried(job, none));
      }
    }
    groups.drained(slot.id, false);
    for (RJob job : waitingInDueOrder()) {
      if (slot.id.equals(job.target)) {
        waitingJobs.remove(job);
        answerInterrupted(job, carried(job, none));
      }
    }
    if (stop && (slot.life == Life.RUNNING || slot.life == Life.INSTALLING)) {
      out.add(new Effect.Stop(slot.id, slot.incarnation, Exit.NORMAL));
    }
    slot.draining = false;
    slot.life = Life.RETIRED;
    slot.departed = true;
    out.add(new Effect.Publish(new Notice.SlotRemoved(slot.id, slot.incarnation)));
    if (noRecoverableWorkers()) {
      for (RJob job : queuedJobs()) {
        answerInterrupted(job, carried(job, none));
      }
      groups.drained(null, true);
      for (RJob job : waitingInDueOrder()) {
        waitingJobs.remove(job);
        answerInterrupted(job, carried(job, none));
      }
    }
  }

  private void leaveDrained() {
    if (state == PoolState.STOPPED) {
      return;
    }
    for (String id : local) {
      RSlot slot = slot(id);
      if (slot.draining && slot.departed) {
        slot.draining = false;
      } else if (slot.draining && slot.running.isEmpty()) {
        leave(slot, true);
      }
    }
  }

  private void drainingStopped(RSlot slot, Exit exit, String cause, long now) {
    out.add(new Effect.Stop(slot.id, slot.incarnation, exit));
    boolean judged = settings.jobs().poisonAfter() > 0;
    List<RJob> held = takeRunning(slot, new Interruption.WorkerStopped(slot.id, exit, cause));
    if (judged && (exit == Exit.CRASH || exit == Exit.TIMEOUT)) {
      for (RJob job : held) {
        job.stops++;
        job.ownStop = true;
      }
    }
    if (state == PoolState.DRAINING) {
      settleWhileDraining(held);
    } else {
      settle(held);
    }
    leave(slot, false);
    dispatch(now);
    finishDrainIfIdle(now);
  }

  // ---- flow control (F1, F4, F5) -------------------------------------------------------------

  /** F1: the run-time override replaces the previous one; its {@code paused} pauses or resumes. */
  private void setGroup(PoolEvent.SetGroup e) {
    ReferenceGroups.RGroup group = groups.of(e.group());
    group.runtime = e.settings();
    groups.configure(group, e.now());
    groups.disarm(group);
    record(new DurableRecord.GroupSet(e.group(), e.settings()));
    Boolean paused = e.settings() == null ? null : e.settings().paused();
    if (Boolean.TRUE.equals(paused) && group.pausedSince == null) {
      group.pausedSince = e.now();
      record(new DurableRecord.Paused(group.name, e.now()));
    } else if (Boolean.FALSE.equals(paused) && group.pausedSince != null) {
      group.pausedSince = null;
      record(new DurableRecord.Resumed(group.name));
    }
    groups.unpark(group.name);
    dispatch(e.now());
  }

  /** F5: nothing new is dispatched from the pool or the group; idempotent. */
  private void pause(PoolEvent.Pause e) {
    if (e.group() == null) {
      if (groups.poolPausedSince == null) {
        groups.poolPausedSince = e.now();
        record(new DurableRecord.Paused(null, e.now()));
      }
      return;
    }
    ReferenceGroups.RGroup group = groups.of(e.group());
    if (group.pausedSince == null) {
      group.pausedSince = e.now();
      record(new DurableRecord.Paused(group.name, e.now()));
      // A slot that waited to be idle for this group's suspect (J2) may take another's job now.
      dispatch(e.now());
    }
  }

  /** F5: resume dispatches at once; resuming what is not paused changes nothing. */
  private void resume(PoolEvent.Resume e) {
    if (e.group() == null) {
      if (groups.poolPausedSince != null) {
        groups.poolPausedSince = null;
        record(new DurableRecord.Resumed(null));
        dispatch(e.now());
      }
      return;
    }
    ReferenceGroups.RGroup group = groups.find(e.group());
    if (group != null && group.pausedSince != null) {
      group.pausedSince = null;
      record(new DurableRecord.Resumed(group.name));
      groups.unpark(group.name);
      dispatch(e.now());
    }
  }

  /** F4: a token refilled or a hold ended; a timer of the past is ignored and counted. */
  private void groupReady(Timer.GroupReady t) {
    if (t.group() == null) {
      if (groups.poolReadyAt != t.at()) {
        ignoredFacts++;
        return;
      }
      groups.poolReadyAt = Long.MAX_VALUE;
      dispatch(now);
      return;
    }
    ReferenceGroups.RGroup group = groups.find(t.group());
    if (group == null || group.readyAt != t.at()) {
      ignoredFacts++;
      return;
    }
    group.readyAt = Long.MAX_VALUE;
    groups.unpark(group.name);
    dispatch(now);
  }

  /**
   * F4: "rate limited for holdMs", fenced like a completion: the job goes back to the front with
   * its start not counted, and its group (the pool, without one) is held; a stopping pool answers
   * it interrupted.
   */
  private PoolError rateLimited(PoolEvent.RateLimited e) {
    RSlot slot = slot(e.worker());
    if (slot == null) {
      return new PoolError.UnknownWorker(e.worker());
    }
    if (slot.departed) {
      ignoredFacts++;
      return null;
    }
    RJob job = null;
    List<Long> tokens = new ArrayList<>();
    for (RJob held : slot.running) {
      tokens.add(held.token);
      if (held.token == e.assignment()) {
        job = held;
      }
    }
    if (job == null) {
      staleCompletions++;
      return tokens.isEmpty()
          ? new PoolError.CompletionForUnavailableWorker(e.worker(), phase(slot))
          : new PoolError.StaleCompletion(e.worker(), tokens, e.assignment());
    }
    slot.running.remove(job);
    ended(slot, job);
    slot.probing = false;
    slot.failedProbes = 0;
    if (job.cancelled) {
      left(job);
    } else if (state != PoolState.RUNNING) {
      answerInterrupted(job, new Interruption.PoolStopped());
    } else {
      job.attempts--;
      line.remove(job);
      line.add(0, job);
      job.order = nextFront--;
      job.queued = true;
      groups.enqueued(job);
      record(new DurableRecord.Returned(job.id, job.order, job.attempts));
      groups.hold(job.group, e.now() + e.holdMs());
    }
    dispatch(e.now());
    finishDrainIfIdle(e.now());
    return null;
  }

  /** Jobs of {@code group} held in the bound: queued and waiting. */
  private int groupHeld(String group) {
    int count = 0;
    for (RJob job : queuedJobs()) {
      if (java.util.Objects.equals(group, job.group)) {
        count++;
      }
    }
    for (RJob job : waitingJobs) {
      if (java.util.Objects.equals(group, job.group)) {
        count++;
      }
    }
    return count;
  }

  /** What the groups see of the model's jobs. */
  private final class FlowView implements ReferenceGroups.Jobs {
    @Override
    public List<RJob> queued() {
      return queuedJobs();
    }

    @Override
    public int running(String group) {
      int count = 0;
      for (RSlot slot : slots) {
        for (RJob job : slot.running) {
          if (java.util.Objects.equals(group, job.group)) {
            count++;
          }
        }
      }
      return count;
    }

    @Override
    public int held(String group) {
      return groupHeld(group);
    }

    @Override
    public long now() {
      return now;
    }

    @Override
    public void effect(Effect effect) {
      out.add(effect);
    }
  }

  // ---- status ----------------------------------------------------------------------------------

  PoolSnapshot snapshot(long now) {
    List<PoolSnapshot.SlotStatus> statuses = new ArrayList<>();
    for (RSlot slot : slots) {
      if (slot.departed) {
        continue;
      }
      List<PoolSnapshot.AssignmentStatus> assignments = new ArrayList<>();
      for (RJob job : slot.running) {
        assignments.add(new PoolSnapshot.AssignmentStatus(job.token, job.id));
      }
      statuses.add(new PoolSnapshot.SlotStatus(slot.id, phase(slot), slot.capacity,
          slot.running.size(), List.copyOf(assignments), slot.incarnation, slot.restarts,
          slot.life == Life.RETIRED ? slot.retirement : null,
          slot.life == Life.BACKING_OFF ? slot.backoffUntil : null, slot.host));
    }
    List<PoolSnapshot.HostStatus> hostStatuses = new ArrayList<>();
    for (RHost host : hosts) {
      if (host.state == HostState.GONE) {
        continue;
      }
      List<String> ids = new ArrayList<>();
      for (String id : host.slots) {
        if (!slot(id).departed) {
          ids.add(id);
        }
      }
      hostStatuses.add(new PoolSnapshot.HostStatus(host.id, host.node, host.state,
          List.copyOf(ids), host.since));
    }
    long window = settings.supervision().restartWindowMs();
    int inWindow = 0;
    for (long stamp : restartStamps) {
      if (window == SupervisionSettings.INFINITE_WINDOW || now - stamp <= window) {
        inWindow++;
      }
    }
    Counters counters = new Counters(accepted, rejected, completed, failed, interrupted,
        cancelled, retried, restarts, staleCompletions, budgetRefusals, ignoredFacts, revives,
        poisoned, deadLettered, deadEvicted);
    Long nextDue = null;
    for (RJob job : waitingJobs) {
      nextDue = nextDue == null ? job.dueAt : Math.min(nextDue, job.dueAt);
    }
    return new PoolSnapshot(settings.name(), state, backlogLength(), settings.backlogCapacity(),
        List.copyOf(statuses), counters, inWindow, settings.supervision().maxRestarts(), window,
        List.copyOf(hostStatuses), null, waitingJobs.size(), nextDue, deadLetters.size(),
        groups.poolPausedSince != null, groups.poolPausedSince, groups.busiest(now),
        groups.count(), new PoolSize(instances, maxConcurrency));
  }

  /** What an {@link AffinitySelector} sees: the slots in slot order. */
  private final class View implements SlotView {
    @Override
    public int size() {
      return slots.size();
    }

    @Override
    public String id(int index) {
      return slots.get(index).id;
    }

    @Override
    public long idHash(int index) {
      return Hashing.hash64(slots.get(index).id);
    }

    @Override
    public boolean selectable(int index) {
      RSlot slot = slots.get(index);
      return slot.life != Life.RETIRED && !slot.departed && slot.life != Life.LOST
          && !slot.draining;
    }

    @Override
    public int inFlight(int index) {
      return slots.get(index).running.size();
    }

    @Override
    public int capacity(int index) {
      return slots.get(index).capacity;
    }

    @Override
    public int queued(int index) {
      int count = 0;
      for (RJob job : line) {
        if (job.queued && slots.get(index).id.equals(job.target)) {
          count++;
        }
      }
      return count;
    }

    @Override
    public long bindings() {
      return bindingsMade;
    }
  }
}
