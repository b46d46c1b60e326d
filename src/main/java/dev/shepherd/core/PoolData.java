package dev.shepherd.core;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * All of one pool's state, and the operations every transition shares: answering jobs, keeping
 * the dispatch index current, dispatching, interrupting and retiring. The flows ({@link JobFlow},
 * {@link SlotFlow}, {@link Shutdown}) validate first and only then call these mutators, so a
 * refused event changes nothing.
 *
 * <p>The dispatch index is two bit sets over slot positions: {@link #free} (running, capacity
 * known and not reached, no suspect running) and {@link #freeWithTargeted} (free, and its ring of
 * keyed jobs' queues is not empty). While the pool's ring of untargeted queues is not empty every
 * free slot may have work, otherwise only the second set does. Dispatch therefore touches only
 * slots that may take a job, plus a few word scans per slot-64 (P7 in docs/rules.md); what a
 * slot takes is the backlog's fair choice (F1-F3, {@link Backlog}).
 *
 * <p>{@link #now} is the time of the event being applied, set by {@link Pool#apply}: the core's
 * only notion of time.
 */
final class PoolData implements SlotView {
  final PoolSettings settings;
  final List<Slot> slots = new ArrayList<>();
  final Map<String, Slot> slotsById = new HashMap<>();
  /** Worker hosts that registered, in first-registration order. */
  final Map<String, Host> hosts = new java.util.LinkedHashMap<>();
  /** Accepted jobs not yet answered terminally, by id (P15, P17 in docs/rules.md). */
  final JobTable jobs = new JobTable();
  final Bindings bindings;
  final Backlog backlog = new Backlog(this);
  /** The pool's groups and flow state (section 11, F1-F5 in docs/rules.md). */
  final Groups groups;
  final Supervisor supervisor;
  final BitSet free = new BitSet();
  final BitSet freeWithTargeted = new BitSet();
  /** Jobs held back until a due time (J3, J4 in docs/rules.md). */
  final Waiting waiting = new Waiting();
  /** The dead-letter set (J5 in docs/rules.md). */
  final DeadLetters dead;
  /** Recently answered jobs (J6 in docs/rules.md). */
  final RecentOutcomes recent;
  /** The retry jitter source (J3 in docs/rules.md). */
  final Jitter retryJitter;
  /**
   * Where interrupted and failed jobs go next, and when waiting ones come back (J2-J4 in
   * docs/rules.md).
   */
  final Requeues requeues = new Requeues(this);
  /** The time of the event being applied. */
  long now;
  /** The pool's own slots and the size a resize set (F6 in docs/rules.md). */
  final LocalSlots local;

  PoolState state = PoolState.RUNNING;
  /**
   * Whether this pool was rebuilt from a durable image (A3 in docs/rules.md); a pool recovers at
   * most once.
   */
  boolean recovered;
  /** The highest generated job number accepted (or recovered): what a durable image keeps. */
  long generatedAccepted;
  long nextToken;
  int notRetired;
  /** Slots not departed (deregistered remote workers are hidden). */
  int visible;
  /** Live assignments over all slots, cancelled-running ones included. */
  int runningJobs;
  long drainDeadline;

  long accepted;
  long rejected;
  long completed;
  long failed;
  long interrupted;
  long cancelled;
  long retried;
  long restarts;
  long budgetRefusals;
  long ignoredFacts;
  long revives;
  /** Completions refused as stale or for a slot holding nothing (P8 in docs/rules.md). */
  long staleCompletions;
  long poisoned;
  long deadLettered;

  /** Records that a recent outcome was forgotten (durable pools, J6 in docs/rules.md). */
  private final java.util.function.Consumer<String> forgetting =
      job -> this.out.add(new Effect.Persist(new DurableRecord.Forgotten(job)));

  /** The effects of the transition under way. */
  ArrayList<Effect> out = new ArrayList<>();
  /** What the current transition decided about its request ({@link Transition#verdict}). */
  Transition.Verdict verdict = Transition.Verdict.NONE;

  PoolData(PoolSettings settings) {
    this.settings = settings;
    this.supervisor = new Supervisor(settings.supervision());
    this.groups = new Groups(this, settings.flow());
    this.dead = new DeadLetters(settings.jobs().deadLetter());
    this.recent = new RecentOutcomes(settings.jobs().recentOutcomes());
    this.retryJitter = new Jitter(settings.jobs().seed());
    this.bindings = new Bindings(settings.limits(), new Bindings.Recorder() {
      @Override
      public void bound(String key, Slot slot, boolean rebalanced) {
        record(new DurableRecord.Bound(key, slot.id, rebalanced));
      }

      @Override
      public void forgotten(String key) {
        record(new DurableRecord.Unbound(key));
      }
    });
    this.nextToken = (settings.term() << PoolSettings.TERM_SHIFT) + 1;
    for (SlotSpec spec : settings.slots()) {
      addSlot(spec.id(), spec.maxConcurrency() == null ? Slot.UNKNOWN_CAPACITY : spec.maxConcurrency());
    }
    this.local = new LocalSlots(this);
  }

  Slot addSlot(String id, int capacity) {
    return addSlot(id, capacity, null);
  }

  Slot addSlot(String id, int capacity, Host host) {
    Slot slot = new Slot(id, slots.size(), capacity, host);
    slots.add(slot);
    slotsById.put(id, slot);
    notRetired++;
    visible++;
    return slot;
  }

  /**
   * P11 (docs/rules.md) as H8 reads it: every slot the pool has is retired, and it has at least one
   * (a pool of hosts only queues work until a host arrives; LOST slots are recoverable).
   */
  boolean noRecoverableWorkers() {
    return notRetired == 0 && visible > 0;
  }

  // ---- durability (A3) -----------------------------------------------------------------------

  /**
   * Emits {@code record} when the pool is durable; otherwise nothing is kept. A job going back
   * ({@code Requeued}) has its held-back checkpoint written first (T2 in docs/rules.md), so the
   * next leader resumes its retry from the latest report.
   */
  void record(DurableRecord record) {
    if (settings.durable()) {
      if (record instanceof DurableRecord.Requeued r) {
        Job job = jobs.get(r.job());
        if (job != null && job.fate != null && job.fate.checkpointHeld) {
          writeCheckpoint(job, job.fate.progressAt);
        }
      }
      out.add(new Effect.Persist(record));
    }
  }

  /** T2 (docs/rules.md): writes {@code job}'s latest checkpoint, as of {@code now}. */
  void writeCheckpoint(Job job, long now) {
    Job.Fate fate = job.fate();
    fate.durableCheckpoint = fate.checkpoint;
    fate.durableCheckpointBytes = fate.checkpointBytes;
    fate.checkpointWrittenAt = now;
    fate.checkpointHeld = false;
    out.add(new Effect.Persist(new DurableRecord.Checkpointed(job.id, fate.checkpoint,
        fate.checkpointBytes)));
  }

  // ---- answers -------------------------------------------------------------------------------

  void respond(Object replyTo, Outcome outcome) {
    out.add(new Effect.Respond(replyTo, outcome));
  }

  /** Ends a job with a terminal outcome: it leaves the id table and is never answered again. */
  void finish(Job job, Outcome outcome) {
    finish(job, outcome, defaultBytes(job, outcome));
  }

  /**
   * Ends a job with a terminal outcome that costs {@code bytes} to remember (J6 in docs/rules.md):
   * it leaves the id table, is never answered again, and is remembered among the recent outcomes.
   */
  void finish(Job job, Outcome outcome, long bytes) {
    job.place = Job.Place.DONE;
    jobs.remove(job);
    if (outcome instanceof Outcome.Completed) {
      completed++;
    } else if (outcome instanceof Outcome.Failed) {
      failed++;
    } else if (outcome instanceof Outcome.Interrupted) {
      interrupted++;
    } else if (outcome instanceof Outcome.Cancelled) {
      cancelled++;
    } else {
      throw new AssertionError("not a terminal outcome: " + outcome);
    }
    RecentOutcome remembered = recent.enabled() ? new RecentOutcome(job.id, outcome, now, bytes)
        : null;
    record(new DurableRecord.Answered(job.id, job.replyTo, outcome, remembered));
    respond(job.replyTo, outcome);
    if (job.slot == null) {
      released(job);
    }
    if (remembered != null) {
      recent.add(remembered, settings.durable() ? forgetting : null);
    }
  }

  /**
   * What an outcome costs to remember when the runtime did not measure it: an interruption hands
   * the payload back, a cancel nothing (completions and failures come with their cost).
   */
  private static long defaultBytes(Job job, Outcome outcome) {
    return outcome instanceof Outcome.Interrupted ? job.bytes : 0;
  }

  /**
   * J5 (docs/rules.md): keeps an answered job in the dead-letter set (when it keeps anything),
   * evicting the oldest to make room.
   */
  void deadLetter(Job job, Outcome answer) {
    if (!dead.enabled()) {
      return;
    }
    DeadLetter entry = new DeadLetter(job.id, job.key, job.payload, job.bytes, job.timeoutMs,
        job.attemptList(), answer, now, job.group.name, job.priority, job.retry());
    deadLettered++;
    List<String> evicted = dead.add(entry);
    record(new DurableRecord.DeadLettered(entry));
    List<Attempt> attempts = entry.attempts();
    publish(new Notice.DeadLettered(job.id, entry.reason(),
        attempts.isEmpty() ? null : attempts.get(attempts.size() - 1).worker(), job.attempts,
        dead.size()));
    evicted(evicted);
  }

  /**
   * J5, J6 (docs/rules.md): a pool recovered under smaller limits than its predecessor kept
   * (its configuration changed across the takeover) evicts the oldest dead letters and forgets
   * the oldest outcomes beyond its own, recorded as if newer ones had pushed them out.
   */
  void trimRecovered() {
    evicted(dead.trim());
    recent.trim(settings.durable() ? forgetting : null);
  }

  private void evicted(List<String> ids) {
    for (String id : ids) {
      record(new DurableRecord.DeadRemoved(id));
      publish(new Notice.DeadLetterRemoved(id, Notice.DeadLetterRemoval.EVICTED, dead.size()));
    }
  }

  /**
   * A job left the pool: answered and off any slot (a job cancelled while running leaves when its
   * assignment ends). Its key's binding may become idle.
   */
  void released(Job job) {
    groups.left(job);
    if (job.key != null) {
      bindings.jobReleased(job.key);
    }
  }

  void interrupt(Job job, Interruption why) {
    finish(job, new Outcome.Interrupted(job.id, job.payload, job.attempts, why));
  }

  /** The interruption a job already carries, or {@code fallback} (P10, P11 in docs/rules.md). */
  static Interruption carried(Job job, Interruption fallback) {
    return job.interruption != null ? job.interruption : fallback;
  }

  void publish(Notice notice) {
    out.add(new Effect.Publish(notice));
  }

  void publishPhase(Slot slot) {
    publish(new Notice.PhaseChanged(slot.id, slot.phase(), slot.incarnation,
        slot.life == Slot.Life.BACKING_OFF ? slot.backoffUntil : null, slot.retirement));
  }

  // ---- dispatch (P6, C2, C3) -----------------------------------------------------------------

  void refresh(Slot slot) {
    boolean isFree = slot.hasFreeCapacity() && !slot.departed;
    free.set(slot.index, isFree);
    freeWithTargeted.set(slot.index, isFree && !slot.ring.isEmpty());
  }

  /** Jobs held in the backlog's bound: queued and waiting (P3, J3 in docs/rules.md). */
  int held() {
    return backlog.length() + waiting.size();
  }

  /** Payload bytes held in the backlog's bound: queued and waiting. */
  long heldBytes() {
    return backlog.bytes() + waiting.bytes();
  }

  /**
   * Whether a job of {@code group} (null: a group not known yet, which may start) that could run
   * on {@code slot} would be dispatched there at once: the pool and the group may start a job now
   * (F1, F4, F5 in docs/rules.md), the slot is free and no queued job comes first for it (by C3
   * (docs/rules.md) only a suspect, J2, can wait for a free slot: one for it, or an untargeted
   * one, which no slot is idle to take).
   */
  boolean takesNow(Slot slot, FlowGroup group) {
    return free.get(slot.index) && slot.suspectsLive == 0 && !backlog.hasSuspects()
        && mayStartNow(group);
  }

  /**
   * Whether some slot would take an untargeted job of {@code group} at once ({@link #takesNow}).
   */
  boolean someSlotTakesNow(FlowGroup group) {
    if (backlog.hasSuspects() || !mayStartNow(group)) {
      return false;
    }
    for (int i = free.nextSetBit(0); i >= 0; i = free.nextSetBit(i + 1)) {
      if (slots.get(i).suspectsLive == 0) {
        return true;
      }
    }
    return false;
  }

  private boolean mayStartNow(FlowGroup group) {
    return groups.poolRunnable() && (group == null || groups.runnable(group));
  }

  /**
   * Work-conserving dispatch: repeated passes in slot order, each free slot taking the earliest
   * job eligible for it, until no slot can take one. Only candidate slots are visited.
   */
  void dispatch(long now) {
    if (state != PoolState.RUNNING) {
      return;
    }
    boolean progress;
    do {
      progress = false;
      for (int i = nextCandidate(0); i >= 0; i = nextCandidate(i + 1)) {
        // F4, F5: a paused, held or empty-bucket pool starts nothing (its timer is armed).
        if (!groups.poolMayStart()) {
          return;
        }
        Slot slot = slots.get(i);
        Job job = backlog.takeFor(slot);
        if (job != null) {
          assign(slot, job, now);
          progress = true;
        }
      }
    } while (progress);
  }

  /** The next free slot from {@code from} that may take a job. */
  private int nextCandidate(int from) {
    return (backlog.hasUntargeted() ? free : freeWithTargeted).nextSetBit(from);
  }

  private void assign(Slot slot, Job job, long now) {
    assert slot.hasFreeCapacity() : "assignment beyond capacity: " + slot;
    groups.started(job);
    job.place = Job.Place.RUNNING;
    job.slot = slot;
    job.token = nextToken++;
    job.attempts++;
    job.startedAt = now;
    long deadline = job.deadline(settings.jobTimeoutMs());
    slot.running.add(job);
    if (job.suspect()) {
      slot.suspectsRunning++;
    }
    runningJobs++;
    refresh(slot);
    record(new DurableRecord.Assigned(job.id, slot.id, job.attempts));
    out.add(new Effect.Assign(slot.id, job.token, job.id, job.payload, job.attempts, job.key,
        job.checkpoint()));
    if (deadline != Long.MAX_VALUE) {
      out.add(new Effect.StartTimer(new Timer.JobDeadline(slot.id, job.token), deadline));
    }
    ProgressFlow.armed(this, slot, job);
  }

  /**
   * The job that assignment {@code assignment} of slot {@code worker} still runs, for a timer of
   * that assignment that fired (its job timeout, P14 in docs/rules.md; its progress silence, T2);
   * null, counted as an ignored fact, when the timer is stale: the slot is gone or not running,
   * the pool stopped, or the assignment ended. The job's {@code slot} is the slot.
   */
  Job liveAssignment(String worker, long assignment) {
    Slot slot = slotsById.get(worker);
    int at = slot == null || slot.life != Slot.Life.RUNNING || state == PoolState.STOPPED
        ? -1 : slot.runningIndex(assignment);
    if (at < 0) {
      ignoredFacts++;
      return null;
    }
    return slot.running.get(at);
  }

  /** An assignment ended: its job timeout (P14 in docs/rules.md) no longer applies. */
  void assignmentEnded(Slot slot, Job job) {
    if (job.deadline(settings.jobTimeoutMs()) != Long.MAX_VALUE) {
      out.add(new Effect.CancelTimer(new Timer.JobDeadline(slot.id, job.token)));
    }
    ProgressFlow.ended(this, slot, job);
  }

  // ---- interruption (P9, P13) ----------------------------------------------------------------

  /**
   * Ends every assignment {@code slot} holds, collecting the jobs to settle; a cancelled-running
   * job was already answered and is dropped.
   */
  void interruptRunning(Slot slot, Interruption why, List<Job> into) {
    String ended = why instanceof Interruption.WorkerStopped w ? w.exit().name() : why.kind();
    String detail = why instanceof Interruption.WorkerStopped w ? w.cause() : null;
    for (Job job : slot.running) {
      runningJobs--;
      assignmentEnded(slot, job);
      groups.ended(job);
      if (job.place == Job.Place.CANCELLED_RUNNING) {
        job.slot = null;
        job.place = Job.Place.DONE;
        released(job);
      } else {
        job.attemptEnded(now, ended, detail);
        job.slot = null;
        job.interruption = why;
        into.add(job);
      }
    }
    slot.running.clear();
    slot.suspectsRunning = 0;
    refresh(slot);
  }

  // ---- retirement (P10, P11) -----------------------------------------------------------------

  void retire(Slot slot, Retirement reason) {
    assert slot.running.isEmpty() : "retiring a slot that holds work: " + slot;
    if (local.draining > 0) {
      ResizeFlow.unbindFromRetired(this, slot);
    }
    slot.moveTo(Slot.Life.RETIRED);
    slot.retirement = reason;
    notRetired--;
    refresh(slot);
    publishPhase(slot);
    Interruption affinity = new Interruption.AffinityRetired(slot.id, reason);
    backlog.drainTargeted(slot, job -> interrupt(job, carried(job, affinity)));
    if (waiting.size() > 0) {
      waiting.drain(job -> job.target == slot)
          .forEach(job -> interrupt(job, carried(job, affinity)));
    }
    if (noRecoverableWorkers()) {
      Interruption none = new Interruption.NoRecoverableWorkers();
      backlog.drainAll(slots, job -> interrupt(job, carried(job, none)));
      waiting.drain(job -> true).forEach(job -> interrupt(job, carried(job, none)));
    }
  }

  // ---- SlotView ------------------------------------------------------------------------------

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
    return slots.get(index).idHash;
  }

  @Override
  public boolean selectable(int index) {
    Slot slot = slots.get(index);
    return !slot.retired() && !slot.departed && slot.life != Slot.Life.LOST && !slot.draining;
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
    return slots.get(index).targetedLive();
  }

  @Override
  public long bindings() {
    return bindings.made();
  }
}
