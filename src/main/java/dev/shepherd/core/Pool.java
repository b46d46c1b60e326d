package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * One pool's pure state machine: the single entry point {@link #apply} takes an event and returns
 * the effects to run, in order, or a typed refusal that left the state exactly as it was.
 * Deterministic, single-threaded, no clock (time rides on events), no I/O.
 *
 * <pre>{@code
 * Pool pool = Pool.create(PoolSettings.defaults("jobs", 4));
 * List<Effect> deploys = pool.start();                      // Deploy w-0 … w-3
 * pool.apply(new PoolEvent.WorkerCreated("w-0", 1, now));   // w-0 is IDLE
 * pool.apply(new PoolEvent.Submit("j1", payload, null, replyTo, 0, now));
 * // -> Respond(replyTo, Accepted(j1)), Assign(w-0, token, j1, payload, 1, null)
 * }</pre>
 */
public final class Pool {
  /**
   * T2 (docs/rules.md): a durable pool journals a job's checkpoint at most once per this many ms
   * of the reports' {@code now}, so a job that reports fast does not cost one replicated write per
   * report; a report held back is written with the job's next report past it, or before its
   * {@code Requeued} record.
   */
  public static final long CHECKPOINT_WRITE_MS = 1_000;

  private final PoolData d;
  private final JobFlow jobs;
  private final SlotFlow slots;
  private final HostFlow hosts;
  private final Shutdown shutdown;
  private final RecoveryFlow recovery;
  private final FlowControl flow;
  private final ResizeFlow resize;
  private final ProgressFlow progress;
  private boolean started;

  private Pool(PoolSettings settings) {
    this.d = new PoolData(settings);
    this.shutdown = new Shutdown(d);
    this.jobs = new JobFlow(d, shutdown);
    this.resize = new ResizeFlow(d, shutdown);
    this.slots = new SlotFlow(d, shutdown, resize);
    this.hosts = new HostFlow(d, slots, shutdown);
    this.recovery = new RecoveryFlow(d, resize);
    this.flow = new FlowControl(d);
    this.progress = new ProgressFlow(d, slots);
  }

  /** A pool whose configured slots are all INSTALLING (P2 in docs/rules.md). */
  public static Pool create(PoolSettings settings) {
    return new Pool(settings);
  }

  /** The first deployment of every configured slot; call once, before any event. */
  public List<Effect> start() {
    if (started) {
      throw new IllegalStateException("pool " + d.settings.name() + " already started");
    }
    started = true;
    List<Effect> deploys = new ArrayList<>(d.slots.size());
    for (Slot slot : d.slots) {
      deploys.add(new Effect.Deploy(slot.id, slot.incarnation));
    }
    return deploys;
  }

  /** Applies one event. */
  public Transition apply(PoolEvent event) {
    d.out = new ArrayList<>(4);
    d.verdict = Transition.Verdict.NONE;
    d.now = event.now();
    PoolError error = route(event);
    if (error != null) {
      assert d.out.isEmpty() : "a refused event produced effects: " + d.out;
      return new Transition.Refused(error);
    }
    // Draining slots that run nothing now leave (F6) before idle groups are forgotten (F1): a
    // slot that leaves may answer the last jobs of a group.
    resize.leaveDrained();
    d.groups.sweep();
    return new Transition.Applied(d.out, d.verdict);
  }

  private PoolError route(PoolEvent event) {
    if (event instanceof PoolEvent.Submit e) {
      jobs.submit(e);
      return null;
    } else if (event instanceof PoolEvent.Completed e) {
      return jobs.complete(e);
    } else if (event instanceof PoolEvent.Cancel e) {
      jobs.cancel(e);
      return null;
    } else if (event instanceof PoolEvent.Rebalance e) {
      return jobs.rebalance(e);
    } else if (event instanceof PoolEvent.WorkerCreated e) {
      return slots.created(e);
    } else if (event instanceof PoolEvent.CreationFailed e) {
      return slots.creationFailed(e);
    } else if (event instanceof PoolEvent.WorkerStopped e) {
      return slots.stopped(e);
    } else if (event instanceof PoolEvent.WorkerRegistered e) {
      return slots.registered(e);
    } else if (event instanceof PoolEvent.CapacityAdvertised e) {
      return slots.capacity(e);
    } else if (event instanceof PoolEvent.WorkerDeregistered e) {
      return slots.deregistered(e);
    } else if (event instanceof PoolEvent.HostRegistered e) {
      return hosts.registered(e);
    } else if (event instanceof PoolEvent.HostLost e) {
      return hosts.lost(e);
    } else if (event instanceof PoolEvent.HostHeard e) {
      return hosts.heard(e);
    } else if (event instanceof PoolEvent.HostDeregistered e) {
      return hosts.deregistered(e);
    } else if (event instanceof PoolEvent.Revive e) {
      return slots.revive(e);
    } else if (event instanceof PoolEvent.ReplayDead e) {
      return jobs.replay(e);
    } else if (event instanceof PoolEvent.DiscardDead e) {
      return jobs.discard(e);
    } else if (event instanceof PoolEvent.TimerFired e) {
      fired(e.timer(), e.now());
      return null;
    } else if (event instanceof PoolEvent.Recover e) {
      return recovery.recover(e);
    } else if (event instanceof PoolEvent.SetGroup e) {
      flow.setGroup(e);
      return null;
    } else if (event instanceof PoolEvent.Pause e) {
      flow.pause(e);
      return null;
    } else if (event instanceof PoolEvent.Resume e) {
      flow.resume(e);
      return null;
    } else if (event instanceof PoolEvent.RateLimited e) {
      return jobs.rateLimited(e);
    } else if (event instanceof PoolEvent.StopRequested e) {
      shutdown.requested(e);
      return null;
    } else if (event instanceof PoolEvent.Resize e) {
      return resize.resize(e);
    } else if (event instanceof PoolEvent.Progress e) {
      return progress.progress(e);
    }
    throw new AssertionError("unhandled " + event);
  }

  /** A timer fired: each kind goes to its flow, which ignores (and counts) one of a past generation. */
  private void fired(Timer timer, long now) {
    if (timer instanceof Timer.JobDeadline t) {
      slots.deadline(t, now);
    } else if (timer instanceof Timer.BackoffEnd t) {
      slots.backoffEnded(t, now);
    } else if (timer instanceof Timer.DrainDeadline) {
      shutdown.deadline(now);
    } else if (timer instanceof Timer.HostLease t) {
      hosts.leaseCheck(t, now);
    } else if (timer instanceof Timer.HostGrace t) {
      hosts.graceOver(t, now);
    } else if (timer instanceof Timer.Revive t) {
      slots.reviveTimer(t, now);
    } else if (timer instanceof Timer.Due t) {
      d.requeues.due(t);
    } else if (timer instanceof Timer.GroupReady t) {
      flow.ready(t);
    } else if (timer instanceof Timer.ProgressSilence t) {
      progress.silence(t, now);
    } else {
      throw new AssertionError("unhandled " + timer);
    }
  }

  public String name() {
    return d.settings.name();
  }

  public PoolSettings settings() {
    return d.settings;
  }

  public PoolState state() {
    return d.state;
  }

  /** Jobs held in the backlog's bound: queued ones and waiting ones (P3, J3 in docs/rules.md). */
  public int backlogLength() {
    return d.held();
  }

  /**
   * J6 (docs/rules.md): where job {@code job} is, or null when it was never accepted or is
   * forgotten: held (queued with its position, waiting with its due time, running with its slot),
   * dead-lettered, or among the recent outcomes (the later job when both know the id). O(backlog)
   * for a queued job, O(1) otherwise.
   */
  public JobView lookup(String job) {
    Job held = d.jobs.get(job);
    if (held != null) {
      return switch (held.place) {
        case QUEUED -> new JobView(job, JobView.JobState.QUEUED, held.key,
            d.backlog.ahead(held, d.slots), null, null, held.attempts, null, null, null,
            held.checkpoint());
        case WAITING -> new JobView(job, JobView.JobState.WAITING, held.key, null, held.dueAt(),
            null, held.attempts, null, null, null, held.checkpoint());
        case RUNNING -> new JobView(job, JobView.JobState.RUNNING, held.key, null, null,
            held.slot.id, held.attempts, null, null, null, held.checkpoint());
        default -> throw new IllegalStateException("held job " + held + " in no place");
      };
    }
    DeadLetter dead = d.dead.get(job);
    RecentOutcome recent = d.recent.get(job);
    // A dead-lettered job is remembered with the same answer; a different one is a later job
    // that reused the id.
    if (dead != null && (recent == null || recent.outcome().equals(dead.answer()))) {
      List<Attempt> attempts = dead.attempts();
      return new JobView(job, JobView.JobState.DEAD, dead.key(), null, null,
          attempts.isEmpty() ? null : attempts.get(attempts.size() - 1).worker(),
          attemptsOf(dead.answer()), dead.answer(), dead.at(), dead);
    }
    if (recent != null) {
      return new JobView(job, JobView.JobState.ANSWERED, null, null, null,
          workerOf(recent.outcome()), attemptsOf(recent.outcome()), recent.outcome(),
          recent.at(), null);
    }
    return null;
  }

  private static Integer attemptsOf(Outcome outcome) {
    if (outcome instanceof Outcome.Completed c) {
      return c.attempts();
    } else if (outcome instanceof Outcome.Failed f) {
      return f.attempts();
    } else if (outcome instanceof Outcome.Interrupted i) {
      return i.attempts();
    }
    return null;
  }

  private static String workerOf(Outcome outcome) {
    if (outcome instanceof Outcome.Completed c) {
      return c.worker();
    } else if (outcome instanceof Outcome.Failed f) {
      return f.worker();
    }
    return null;
  }

  /**
   * J5 (docs/rules.md): up to {@code limit} dead-lettered jobs, newest first, after skipping {@code
   * offset}.
   */
  public List<DeadLetter> deadLetters(int offset, int limit) {
    if (offset < 0 || limit < 0) {
      throw new IllegalArgumentException("offset and limit must not be negative");
    }
    return d.dead.newestFirst(offset, limit);
  }

  /** J5 (docs/rules.md): the dead-lettered job {@code job}, or null. */
  public DeadLetter deadLetter(String job) {
    return d.dead.get(job);
  }

  /** J5 (docs/rules.md): how many jobs the dead-letter set holds. */
  public int deadLetterCount() {
    return d.dead.size();
  }

  /** Accepted jobs not yet answered. */
  public int unanswered() {
    return d.jobs.size();
  }

  /**
   * How many entries {@link #durableImage} holds (its jobs, dead letters, recent outcomes,
   * bindings and hosts), without building it: what a checkpoint costs to write, against which a
   * durable pool weighs its log (A3 in docs/rules.md). O(1).
   */
  public int durableEntries() {
    return d.jobs.size() + d.dead.size() + d.recent.size() + d.bindings.size() + d.hosts.size();
  }

  /** Whether {@code job} is accepted and not yet answered. */
  public boolean holds(String job) {
    return d.jobs.contains(job);
  }

  /** The slot {@code key} is bound to, or null. */
  public String binding(String key) {
    Slot slot = d.bindings.slotOf(key);
    return slot == null ? null : slot.id;
  }

  /** Slot ids in slot order, departed remote workers excluded. */
  public List<String> slotIds() {
    List<String> ids = new ArrayList<>(d.slots.size());
    for (Slot slot : d.slots) {
      if (!slot.departed) {
        ids.add(slot.id);
      }
    }
    return ids;
  }

  /** The current incarnation of {@code worker}, or 0 when unknown. */
  public int incarnation(String worker) {
    Slot slot = d.slotsById.get(worker);
    return slot == null ? 0 : slot.incarnation;
  }

  /** The phase of {@code worker}, or null when unknown. */
  public Phase phase(String worker) {
    Slot slot = d.slotsById.get(worker);
    return slot == null ? null : slot.phase();
  }

  /**
   * F1 (docs/rules.md): the status of group {@code name} at {@code now}, or null when the pool
   * knows no such group (it has no override and holds none of its jobs). O(1).
   */
  public PoolSnapshot.GroupStatus group(String name, long now) {
    return Snapshots.group(d, name, now);
  }

  /** F1 (docs/rules.md): the status of group {@code name} (see {@link #group(String, long)}). */
  public PoolSnapshot.GroupStatus group(String name) {
    return group(name, d.now);
  }

  /**
   * F1 (docs/rules.md): the override in force for group {@code name}: the operator's run-time one
   * ({@link PoolEvent.SetGroup}), else the configured one, else null (the group has the pool's
   * group defaults). For merging a partial change onto it before a {@code SetGroup}. A configured
   * group is always known, so a group the pool does not know has no override.
   */
  public GroupSettings groupOverride(String name) {
    FlowGroup group = name == null ? null : d.groups.find(name);
    return group == null ? null : group.override();
  }

  /** The status at {@code now} (budget use depends on the time). */
  /**
   * The pool's totals, as its snapshot shows them: what a durable pool's writes carry, so that
   * the next term continues them (T3 in docs/rules.md).
   */
  public Counters counters() {
    return Snapshots.counters(d);
  }

  public PoolSnapshot snapshot(long now) {
    return Snapshots.of(d, now);
  }

  /**
   * What must survive this pool's coordinator, computed from its state (A3 in docs/rules.md): equal
   * to what its records, replayed by a {@link Ledger} from the image it started from, build. A
   * runtime writes it as a checkpoint. O(state).
   */
  public DurableImage durableImage() {
    List<Job> held = d.jobs.values();
    held.sort((a, b) -> Long.compare(a.order, b.order));
    List<DurableImage.JobImage> jobs = new ArrayList<>(held.size());
    for (Job job : held) {
      boolean waiting = job.place == Job.Place.WAITING;
      jobs.add(new DurableImage.JobImage(job.id, job.generated, job.order, job.payload, job.key,
          job.replyTo, job.timeoutMs, job.bytes, job.target == null ? null : job.target.id,
          job.attempts, job.place == Job.Place.RUNNING ? job.slot.id : null, job.interruption,
          waiting ? job.dueAt() : 0, waiting && job.fate.resumeAtFront, job.stops(),
          job.failures(), job.retry(), job.group.name, job.priority,
          job.fate == null ? null : job.fate.durableCheckpoint,
          job.fate == null ? 0 : job.fate.durableCheckpointBytes, job.progressTimeoutMs()));
    }
    List<DurableImage.BindingImage> bindings = new ArrayList<>();
    d.bindings.sorted().forEach((key, b) ->
        bindings.add(new DurableImage.BindingImage(key, b.slot.id, b.rebalanced)));
    List<DurableImage.HostImage> hosts = new ArrayList<>(d.hosts.size());
    for (Host host : d.hosts.values()) {
      List<String> ids = new ArrayList<>(host.slots.size());
      host.slots.forEach(slot -> ids.add(slot.id));
      hosts.add(new DurableImage.HostImage(host.id, host.node, ids));
    }
    return new DurableImage(d.settings.term(), d.generatedAccepted, jobs, bindings, hosts,
        d.dead.all(), d.recent.all(), new ArrayList<>(d.groups.journaled.values()),
        d.groups.poolPausedSince, d.local.resized ? d.local.size() : null);
  }

  /** A deterministic dump of the whole state (see {@link Fingerprints}); for tests. */
  String fingerprint() {
    return Fingerprints.of(d) + "\nstarted=" + started;
  }

  PoolData data() {
    return d;
  }
}
