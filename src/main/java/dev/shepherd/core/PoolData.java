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
 * known and not reached) and {@link #freeWithTargeted} (free and with queued jobs targeted at it).
 * While untargeted jobs are queued every free slot has work; otherwise only the second set does.
 * Dispatch therefore touches only slots that take a job, plus one word scan per slot-64 (P7).
 */
final class PoolData implements SlotView {
  final PoolSettings settings;
  final List<Slot> slots = new ArrayList<>();
  final Map<String, Slot> slotsById = new HashMap<>();
  /** Worker hosts that registered, in first-registration order. */
  final Map<String, Host> hosts = new java.util.LinkedHashMap<>();
  /** Accepted jobs not yet answered terminally, by id (P15, P17). */
  final JobTable jobs = new JobTable();
  final Bindings bindings;
  final Backlog backlog = new Backlog();
  final Supervisor supervisor;
  final BitSet free = new BitSet();
  final BitSet freeWithTargeted = new BitSet();

  PoolState state = PoolState.RUNNING;
  /** Whether this pool was rebuilt from a durable image (A3); a pool recovers at most once. */
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
  /** Completions refused as stale or for a slot holding nothing (P8). */
  long staleCompletions;

  /** The effects of the transition under way. */
  ArrayList<Effect> out = new ArrayList<>();

  PoolData(PoolSettings settings) {
    this.settings = settings;
    this.supervisor = new Supervisor(settings.supervision());
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
   * P11 as H8 reads it: every slot the pool has is retired, and it has at least one (a pool of
   * hosts only queues work until a host arrives; LOST slots are recoverable).
   */
  boolean noRecoverableWorkers() {
    return notRetired == 0 && visible > 0;
  }

  // ---- durability (A3) -----------------------------------------------------------------------

  /** Emits {@code record} when the pool is durable; otherwise nothing is kept. */
  void record(DurableRecord record) {
    if (settings.durable()) {
      out.add(new Effect.Persist(record));
    }
  }

  // ---- answers -------------------------------------------------------------------------------

  void respond(Object replyTo, Outcome outcome) {
    out.add(new Effect.Respond(replyTo, outcome));
  }

  /** Ends a job with a terminal outcome: it leaves the id table and is never answered again. */
  void finish(Job job, Outcome outcome) {
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
    record(new DurableRecord.Answered(job.id, job.replyTo, outcome));
    respond(job.replyTo, outcome);
    if (job.slot == null) {
      released(job);
    }
  }

  /**
   * A job left the pool: answered and off any slot (a job cancelled while running leaves when its
   * assignment ends). Its key's binding may become idle.
   */
  void released(Job job) {
    if (job.key != null) {
      bindings.jobReleased(job.key);
    }
  }

  void interrupt(Job job, Interruption why) {
    finish(job, new Outcome.Interrupted(job.id, job.payload, job.attempts, why));
  }

  /** The interruption a job already carries, or {@code fallback} (P10, P11). */
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
    freeWithTargeted.set(slot.index, isFree && slot.targetedLive > 0);
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
        Slot slot = slots.get(i);
        Job job = backlog.takeFor(slot);
        if (job == null) {
          throw new AssertionError("candidate " + slot + " had no eligible job");
        }
        assign(slot, job, now);
        progress = true;
      }
    } while (progress);
  }

  private int nextCandidate(int from) {
    return (backlog.hasUntargeted() ? free : freeWithTargeted).nextSetBit(from);
  }

  private void assign(Slot slot, Job job, long now) {
    assert slot.hasFreeCapacity() : "assignment beyond capacity: " + slot;
    job.place = Job.Place.RUNNING;
    job.slot = slot;
    job.token = nextToken++;
    job.attempts++;
    long timeout = job.timeoutMs > 0 ? job.timeoutMs : settings.jobTimeoutMs();
    job.deadline = timeout > 0 ? now + timeout : Long.MAX_VALUE;
    slot.running.add(job);
    runningJobs++;
    refresh(slot);
    record(new DurableRecord.Assigned(job.id, slot.id, job.attempts));
    out.add(new Effect.Assign(slot.id, job.token, job.id, job.payload, job.attempts, job.key));
    if (timeout > 0) {
      out.add(new Effect.StartTimer(new Timer.JobDeadline(slot.id, job.token), job.deadline));
    }
  }

  /** An assignment ended: its job timeout (P14) no longer applies. */
  void assignmentEnded(Slot slot, Job job) {
    if (job.deadline != Long.MAX_VALUE) {
      out.add(new Effect.CancelTimer(new Timer.JobDeadline(slot.id, job.token)));
    }
  }

  // ---- interruption (P9, P13) ----------------------------------------------------------------

  /**
   * Ends every assignment {@code slot} holds, collecting the jobs to settle; a cancelled-running
   * job was already answered and is dropped.
   */
  void interruptRunning(Slot slot, Interruption why, List<Job> into) {
    for (Job job : slot.running) {
      runningJobs--;
      assignmentEnded(slot, job);
      job.slot = null;
      if (job.place == Job.Place.CANCELLED_RUNNING) {
        job.place = Job.Place.DONE;
        released(job);
      } else {
        job.interruption = why;
        into.add(job);
      }
    }
    slot.running.clear();
    refresh(slot);
  }

  /**
   * Settles interrupted jobs by the interruption policy: FAIL answers each; RETRY puts them back
   * at the front in their original order, unless a job used up {@code maxAttempts}.
   */
  void settle(List<Job> interruptedJobs) {
    interruptedJobs.sort((a, b) -> Long.compare(a.order, b.order));
    if (settings.interruption() == InterruptionPolicy.FAIL) {
      for (Job job : interruptedJobs) {
        interrupt(job, job.interruption);
      }
      return;
    }
    List<Job> again = new ArrayList<>(interruptedJobs.size());
    for (Job job : interruptedJobs) {
      if (settings.maxAttempts() > 0 && job.attempts >= settings.maxAttempts()) {
        interrupt(job, new Interruption.AttemptsExhausted(job.attempts, job.interruption));
      } else {
        again.add(job);
      }
    }
    backlog.putFront(again);
    retried += again.size();
    for (Job job : again) {
      record(new DurableRecord.Requeued(job.id, job.order, job.interruption));
      if (job.target != null) {
        refresh(job.target);
      }
    }
  }

  // ---- retirement (P10, P11) -----------------------------------------------------------------

  void retire(Slot slot, Retirement reason) {
    assert slot.running.isEmpty() : "retiring a slot that holds work: " + slot;
    slot.moveTo(Slot.Life.RETIRED);
    slot.retirement = reason;
    notRetired--;
    refresh(slot);
    publishPhase(slot);
    Interruption affinity = new Interruption.AffinityRetired(slot.id, reason);
    backlog.drainTargeted(slot, job -> interrupt(job, carried(job, affinity)));
    if (noRecoverableWorkers()) {
      Interruption none = new Interruption.NoRecoverableWorkers();
      backlog.drainAll(slots, job -> interrupt(job, carried(job, none)));
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
    return !slot.retired() && !slot.departed && slot.life != Slot.Life.LOST;
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
    return slots.get(index).targetedLive;
  }

  @Override
  public long bindings() {
    return bindings.made();
  }
}
