package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The resize path (F6 in docs/rules.md): the pool's own slots grow and shrink at run time, and
 * their capacity changes. A worker host's slots are never touched.
 *
 * <p>Growing brings back the local slots a shrink took out (same id, next incarnation) and then
 * adds new ones, {@code w-<position>}; each is INSTALLING and deployed ({@link Effect.Deploy}), and
 * serves once created (P2). Shrinking drains the highest positions: a draining slot is RUNNING but
 * takes nothing new (C2), its keys move to the selector's choice as a rebalance moves them (P5)
 * and so do the jobs bound to it (queued, waiting, and running ones for when they run again); once
 * it runs nothing it leaves ({@link Effect.Stop} with exit NORMAL, {@link Notice.SlotRemoved}):
 * hidden from the status as a departed worker, not retired, not charged to the budget, not seen by
 * the supervisor's strategy. A draining slot that stops (a crash, a hang past its job timeout) is
 * not replaced: its jobs are settled by P9 and it leaves at once. A slot that runs nothing when the
 * resize comes (INSTALLING, BACKING_OFF, RETIRED, or idle) leaves in the same step. A resize while
 * slots drain keeps the ones it wants again (their drain ends, and the keyed jobs they run are
 * bound to them again, for if they run again) and drains the ones it does not.
 *
 * <p>A key for which the selector finds no other slot (none is selectable) stays bound to the
 * leaving slot, and its queued jobs stay with it; when the slot leaves they are answered {@code
 * interrupted(NO_RECOVERABLE_WORKERS)}, and later submits of the key are refused {@code
 * AFFINITY_UNAVAILABLE} until a grow brings the slot back.
 *
 * <p>A resize reaching a pool that is not RUNNING is refused ({@code RESIZE_REFUSED}), as is one
 * to 0 slots of a pool that cannot run on worker hosts alone (H2). The cost is O(local slots) plus
 * O(bindings) and the jobs bound per slot that drains: an operator's action, not a job's (P7).
 */
final class ResizeFlow {
  private final PoolData d;
  private final Shutdown shutdown;

  ResizeFlow(PoolData data, Shutdown shutdown) {
    this.d = data;
    this.shutdown = shutdown;
  }

  PoolError resize(PoolEvent.Resize e) {
    if (d.state != PoolState.RUNNING) {
      return new PoolError.ResizeRefused(null, "the pool is " + d.state);
    }
    if (e.instances() == 0 && !d.settings.hosts().hostsOnly()) {
      return new PoolError.ResizeRefused("instances", "must be at least 1: this pool does not"
          + " run on worker hosts alone (was 0)");
    }
    LocalSlots local = d.local;
    for (int i = local.slots.size(); i < e.instances(); i++) {
      if (d.slotsById.containsKey(local.idAt(i))) {
        return new PoolError.ResizeRefused("instances", "slot id '" + local.idAt(i)
            + "' belongs to a worker that is not the pool's own (was " + e.instances() + ")");
      }
    }
    d.record(new DurableRecord.Resized(e.instances(), e.maxConcurrency()));
    List<String> added = grow(e.instances(), e.maxConcurrency());
    List<String> draining = shrink();
    d.publish(new Notice.Resized(local.instances, local.maxConcurrency, added, draining));
    d.dispatch(e.now());
    return null;
  }

  /**
   * Sets the size, keeps or brings back every local slot below {@code instances} (ending a drain),
   * adds the missing ones, and sets every local slot's capacity; returns the slots added.
   */
  List<String> grow(int instances, int maxConcurrency) {
    LocalSlots local = d.local;
    local.resized = true;
    local.instances = instances;
    local.maxConcurrency = maxConcurrency;
    List<String> added = new ArrayList<>();
    for (int i = 0; i < local.slots.size(); i++) {
      Slot slot = local.slots.get(i);
      if (slot.departed) {
        if (i < instances) {
          comeBack(slot);
          added.add(slot.id);
        }
        continue;
      }
      slot.capacity = maxConcurrency;
      if (slot.draining && i < instances) {
        slot.draining = false;
        local.draining--;
        // Only a draining slot runs jobs bound elsewhere: the ones it runs are its own again.
        for (Job job : slot.running) {
          if (job.place == Job.Place.RUNNING && job.target != null && job.target != slot) {
            job.target = slot;
            d.record(new DurableRecord.Retargeted(job.id, slot.id));
          }
        }
        d.refresh(slot);
        d.publishPhase(slot);
      } else {
        d.refresh(slot);
      }
    }
    for (int i = local.slots.size(); i < instances; i++) {
      // INSTALLING: it is out of the dispatch index until it is created.
      Slot slot = d.addSlot(local.idAt(i), maxConcurrency);
      local.slots.add(slot);
      d.out.add(new Effect.Deploy(slot.id, slot.incarnation));
      d.publishPhase(slot);
      added.add(slot.id);
    }
    return added;
  }

  /**
   * Drains every live local slot at or past the size that is not draining yet, all at once (no key
   * moves to another one that leaves); returns them.
   */
  List<String> shrink() {
    LocalSlots local = d.local;
    List<Slot> leaving = new ArrayList<>();
    for (int i = local.instances; i < local.slots.size(); i++) {
      Slot slot = local.slots.get(i);
      if (!slot.departed && !slot.draining) {
        // Out of the dispatch index when its jobs move (Backlog.retarget refreshes it).
        slot.draining = true;
        local.draining++;
        leaving.add(slot);
      }
    }
    for (Slot slot : leaving) {
      moveKeys(slot);
    }
    List<String> draining = new ArrayList<>(leaving.size());
    for (Slot slot : leaving) {
      draining.add(slot.id);
      drain(slot);
    }
    return draining;
  }

  /** A local slot a shrink took out joins again with its next incarnation (INSTALLING). */
  private void comeBack(Slot slot) {
    slot.departed = false;
    d.visible++;
    d.notRetired++;
    slot.incarnation++;
    slot.capacity = d.local.maxConcurrency;
    slot.consecutiveFailures = 0;
    slot.probing = false;
    slot.failedProbes = 0;
    // INSTALLING, as it was while departed: still out of the dispatch index.
    slot.moveTo(Slot.Life.INSTALLING);
    d.out.add(new Effect.Deploy(slot.id, slot.incarnation));
    d.publishPhase(slot);
  }

  /** The keys bound to a leaving {@code slot} move to the selector's choice, in key order. */
  private void moveKeys(Slot slot) {
    for (String key : d.bindings.keysOf(slot)) {
      String chosen = d.settings.selector().select(key, d);
      Slot to = chosen == null ? null : d.slotsById.get(chosen);
      if (to != null && to != slot && d.selectable(to.index)) {
        d.bindings.move(key, to);
      }
    }
  }

  /**
   * Drains {@code slot}, whose keys moved: the jobs bound to it go where their keys are now; it
   * leaves now if it runs nothing, else once it does.
   */
  private void drain(Slot slot) {
    // The backlog keeps the dispatch index current: the slot's, and each new target's.
    for (Job job : d.backlog.retarget(slot, this::newTarget)) {
      d.record(new DurableRecord.Retargeted(job.id, job.target.id));
    }
    for (Job job : d.waiting.inOrder()) {
      retarget(job, slot);
    }
    // Only a draining slot runs jobs bound elsewhere: their slot drained while they ran.
    for (Slot other : d.local.slots) {
      if (other.draining) {
        for (Job job : other.running) {
          if (job.place == Job.Place.RUNNING) {
            retarget(job, slot);
          }
        }
      }
    }
    if (slot.running.isEmpty()) {
      leave(slot, true);
    } else {
      d.publishPhase(slot);
    }
  }

  /**
   * Where a job bound to a leaving slot goes: its key's slot now, if that one can take work; else
   * null (it stays, and is answered if the slot leaves first).
   */
  private Slot newTarget(Job job) {
    Slot bound = job.key == null ? null : d.bindings.slotOf(job.key);
    return bound == null || bound == job.target || !d.selectable(bound.index) ? null : bound;
  }

  private void retarget(Job job, Slot from) {
    if (job.target != from) {
      return;
    }
    Slot to = newTarget(job);
    if (to != null) {
      job.target = to;
      d.record(new DurableRecord.Retargeted(job.id, to.id));
    }
  }

  /**
   * {@code retiring} retires (P10 in docs/rules.md) while jobs bound to it still run on draining
   * slots (their keys moved to it when their own slot began to drain): each is bound to the slot
   * it runs on again, so if it comes back it waits there and is answered when that slot leaves.
   */
  static void unbindFromRetired(PoolData d, Slot retiring) {
    for (Slot slot : d.local.slots) {
      if (slot.draining) {
        for (Job job : slot.running) {
          if (job.place == Job.Place.RUNNING && job.target == retiring) {
            job.target = slot;
            d.record(new DurableRecord.Retargeted(job.id, slot.id));
          }
        }
      }
    }
  }

  /**
   * A draining slot leaves (F6 in docs/rules.md): jobs still bound to it (no other slot could be
   * chosen) are answered {@code interrupted(NO_RECOVERABLE_WORKERS)}, its incarnation is stopped
   * unless {@code stop} is false (it stopped by itself), and it is hidden from the status. P11
   * holds after it.
   */
  private void leave(Slot slot, boolean stop) {
    Interruption none = new Interruption.NoRecoverableWorkers();
    d.backlog.drainTargeted(slot, job -> d.interrupt(job, PoolData.carried(job, none)));
    d.waiting.drain(job -> job.target == slot)
        .forEach(job -> d.interrupt(job, PoolData.carried(job, none)));
    if (stop && (slot.life == Slot.Life.RUNNING || slot.life == Slot.Life.INSTALLING)) {
      d.out.add(new Effect.Stop(slot.id, slot.incarnation, Exit.NORMAL));
    }
    slot.draining = false;
    d.local.draining--;
    if (!slot.retired()) {
      slot.moveTo(Slot.Life.RETIRED);
      d.notRetired--;
    }
    // Draining kept it out of the dispatch index; retired and departed, it stays out.
    slot.departed = true;
    d.visible--;
    d.publish(new Notice.SlotRemoved(slot.id, slot.incarnation));
    if (d.noRecoverableWorkers()) {
      d.backlog.drainAll(d.slots, job -> d.interrupt(job, PoolData.carried(job, none)));
      d.waiting.drain(job -> true).forEach(job -> d.interrupt(job, PoolData.carried(job, none)));
    }
  }

  /**
   * After each transition of a pool with draining slots: the ones that run nothing now leave, in
   * slot order (a stopped pool stopped them already).
   */
  void leaveDrained() {
    if (d.local.draining == 0 || d.state == PoolState.STOPPED) {
      return;
    }
    for (Slot slot : d.local.slots) {
      if (slot.draining && slot.departed) {
        // It left another way (deregistered as a remote worker would be): its drain is over.
        slot.draining = false;
        d.local.draining--;
      } else if (slot.draining && slot.running.isEmpty()) {
        leave(slot, true);
      }
    }
  }

  /**
   * A draining slot's incarnation stopped (crash, hang, or exit): P9 (docs/rules.md) settles
   * what it ran, the supervisor is not asked and the budget not charged, and the slot leaves at
   * once. J2 still counts the stop against the jobs it was running.
   */
  void stopped(Slot slot, Exit exit, String cause, long now) {
    d.out.add(new Effect.Stop(slot.id, slot.incarnation, exit));
    List<Job> interrupted = new ArrayList<>();
    d.interruptRunning(slot, new Interruption.WorkerStopped(slot.id, exit, cause), interrupted);
    if (d.settings.jobs().judgesJobs() && (exit == Exit.CRASH || exit == Exit.TIMEOUT)) {
      for (Job job : interrupted) {
        Job.Fate fate = job.fate();
        fate.stops++;
        fate.stoppedRunningIt = true;
      }
    }
    if (d.state == PoolState.DRAINING) {
      shutdown.settleWhileDraining(interrupted);
    } else {
      d.requeues.settle(interrupted);
    }
    leave(slot, false);
    d.dispatch(now);
    shutdown.finishDrainIfIdle(now);
  }
}
