package dev.shepherd.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The takeover path of a durable pool (A3 in docs/rules.md): a fresh pool of a newer term rebuilds
 * what the image of its predecessor holds, then carries on as if it had been there all along.
 *
 * <p>In order: the image's worker hosts come back LOST with their slots (H5; they return when
 * their hosts register again, H7, or retire after the grace, H6); slots the image names that
 * neither the configuration nor a host has come back as departed remote workers, retired at the
 * end; bindings are restored; queued jobs take their old backlog positions; jobs that were running
 * are interrupted {@code WORKER_STOPPED}, exit {@code NODE_LOST}, and settled by P9 (RETRY: back
 * to the front in their original order, within {@code maxAttempts}; FAIL: answered; not a fault
 * of theirs, so they do not wait a retry delay, J3); waiting jobs wait on for their due time
 * (one already past runs at once); the dead-letter set and the recent outcomes are as they were,
 * the oldest pushed out beyond this pool's limits when those are smaller (J5, J6); generated ids
 * continue past the recovered ones. The size of the pool's own slots a resize set (F6) comes back
 * too: slots it added are added first, and configured ones past it leave (their keys and jobs
 * move) once the jobs are back. The counters continue from the totals the predecessor last wrote
 * (T3).
 */
final class RecoveryFlow {
  private final PoolData d;
  private final ResizeFlow resize;

  RecoveryFlow(PoolData data, ResizeFlow resize) {
    this.d = data;
    this.resize = resize;
  }

  PoolError recover(PoolEvent.Recover e) {
    DurableImage image = e.image();
    String refusal = refusal(image);
    if (refusal != null) {
      return new PoolError.RecoveryRefused(refusal);
    }
    long now = e.now();
    d.recovered = true;
    continueCounters(e.counters());
    String cause = "the coordinator of term " + image.term() + " was replaced (term "
        + d.settings.term() + ")";
    // F6: the size a resize set comes back first, so the slots it added are the pool's own.
    List<String> added = image.size() == null ? List.of()
        : resize.grow(image.size().instances(), image.size().maxConcurrency());
    List<Host> lost = new ArrayList<>(image.hosts().size());
    for (DurableImage.HostImage h : image.hosts()) {
      Host host = new Host(h.host(), h.node(), now);
      host.state = HostState.LOST;
      d.hosts.put(host.id, host);
      for (String id : h.slots()) {
        Slot slot = d.addSlot(id, Slot.UNKNOWN_CAPACITY, host);
        host.slots.add(slot);
        slot.moveTo(Slot.Life.LOST);
      }
      lost.add(host);
    }
    List<Slot> orphans = new ArrayList<>();
    for (DurableImage.JobImage j : image.jobs()) {
      orphan(j.target(), orphans);
      orphan(j.worker(), orphans);
    }
    for (DurableImage.BindingImage b : image.bindings()) {
      orphan(b.worker(), orphans);
    }
    for (DurableImage.BindingImage b : image.bindings()) {
      d.bindings.restore(b.key(), d.slotsById.get(b.worker()), b.rebalanced());
    }
    restoreGroups(image);
    List<Job> interrupted = restoreJobs(image, cause);
    d.bindings.idleRestored();
    image.dead().forEach(d.dead::restore);
    image.recent().forEach(d.recent::restore);
    d.publish(new Notice.Recovered(d.settings.term(), image.term(), image.jobs().size(),
        interrupted.size()));
    d.trimRecovered();
    for (Host host : lost) {
      d.publish(new Notice.HostChanged(host.id, host.node, HostState.LOST, cause));
      for (Slot slot : host.slots) {
        d.publishPhase(slot);
      }
      d.out.add(new Effect.StartTimer(new Timer.HostGrace(host.id, host.since),
          host.since + d.settings.hosts().graceMs()));
    }
    for (Slot slot : d.slots) {
      d.refresh(slot);
    }
    d.requeues.settle(interrupted);
    d.requeues.armDue();
    if (image.size() != null) {
      List<String> draining = resize.shrink();
      d.publish(new Notice.Resized(d.local.instances, d.local.maxConcurrency, added, draining));
    }
    for (Slot slot : orphans) {
      slot.departed = true;
      d.visible--;
      d.retire(slot, Retirement.REPLACEMENT_UNAVAILABLE);
    }
    // Groups the image names with nothing left to keep are forgotten, once their jobs settled.
    for (DurableImage.GroupImage g : image.groups()) {
      FlowGroup group = d.groups.find(g.group());
      if (group != null) {
        d.groups.forgetIfIdle(group);
      }
    }
    d.dispatch(now);
    return null;
  }

  /**
   * Puts every image job back: into the id table (generated ids in increasing order, as the table
   * wants them), then, in backlog order, queued ones at their positions; returns the ones that were
   * running, interrupted and not yet settled.
   */
  private List<Job> restoreJobs(DurableImage image, String cause) {
    List<Job> rebuilt = new ArrayList<>(image.jobs().size());
    d.generatedAccepted = image.generated();
    for (DurableImage.JobImage j : image.jobs()) {
      Slot target = j.target() == null ? null : d.slotsById.get(j.target());
      Job job = new Job(j.job(), j.generated(), j.payload(), j.replyTo(), j.key(), j.timeoutMs(),
          j.bytes(), target, j.retry(), d.groups.of(j.group()), j.priority(), d.now);
      job.attempts = j.attempts();
      if (j.stops() > 0 || j.failures() > 0) {
        job.fate().stops = j.stops();
        job.fate().failures = j.failures();
      }
      job.interruption = j.interruption();
      job.order = j.order();
      if (j.progressTimeoutMs() > 0) {
        // T2: its own progress timeout, not the pool's, guards its attempts here too.
        job.fate().progressTimeoutMs = j.progressTimeoutMs();
      }
      if (j.checkpoint() != null) {
        // T2: the retry on this leader resumes from the checkpoint the last one wrote.
        Job.Fate fate = job.fate();
        fate.checkpoint = j.checkpoint();
        fate.checkpointBytes = j.checkpointBytes();
        fate.durableCheckpoint = j.checkpoint();
        fate.durableCheckpointBytes = j.checkpointBytes();
      }
      rebuilt.add(job);
      d.generatedAccepted = Math.max(d.generatedAccepted, j.generated());
    }
    List<Job> byNumber = new ArrayList<>(rebuilt);
    byNumber.sort(Comparator.comparingLong(job -> job.generated));
    byNumber.forEach(d.jobs::add);
    d.jobs.continueAfter(d.generatedAccepted);
    List<Job> interrupted = new ArrayList<>();
    for (int i = 0; i < rebuilt.size(); i++) {
      Job job = rebuilt.get(i);
      DurableImage.JobImage j = image.jobs().get(i);
      if (job.key != null) {
        d.bindings.jobAccepted(job.key, job.target);
      }
      if (j.dueAt() > 0) {
        d.backlog.reserve(j.order());
        d.waiting.restore(job, j.dueAt(), j.front());
      } else if (j.worker() == null) {
        d.backlog.restore(job, j.order());
      } else {
        job.place = Job.Place.RUNNING;
        job.interruption = new Interruption.WorkerStopped(j.worker(), Exit.NODE_LOST, cause);
        interrupted.add(job);
      }
    }
    return interrupted;
  }

  /**
   * F1, F5 (docs/rules.md): the operators' group overrides and pauses, and the pool's pause, are
   * as the image says (a group it names as resumed is not paused, whatever its configuration
   * says).
   */
  private void restoreGroups(DurableImage image) {
    d.groups.poolPausedSince = image.pausedSince();
    for (DurableImage.GroupImage g : image.groups()) {
      FlowGroup group = d.groups.of(g.group());
      group.runtime = g.settings();
      group.configure(d.groups.settings().defaults(), d.now);
      group.pausedSince = g.pausedSince();
      d.groups.journaled.put(g.group(), g);
    }
  }

  /**
   * T3 (docs/rules.md): the totals go on from those of the predecessor's last write, before the
   * recovery itself counts (the running jobs it interrupts, retries or answers).
   */
  private void continueCounters(Counters c) {
    if (c == null) {
      return;
    }
    d.accepted = c.accepted();
    d.rejected = c.rejected();
    d.completed = c.completed();
    d.failed = c.failed();
    d.interrupted = c.interrupted();
    d.cancelled = c.cancelled();
    d.retried = c.retried();
    d.restarts = c.restarts();
    d.staleCompletions = c.staleCompletions();
    d.budgetRefusals = c.budgetRefusals();
    d.ignoredFacts = c.ignoredFacts();
    d.revives = c.revives();
    d.poisoned = c.poisoned();
    d.deadLettered = c.deadLettered();
    d.dead.continueEvicted(c.deadLetterEvicted());
  }

  /** A slot the image names that the pool lacks joins as a remote worker, to retire later. */
  private void orphan(String id, List<Slot> orphans) {
    if (id != null && !d.slotsById.containsKey(id)) {
      orphans.add(d.addSlot(id, Slot.UNKNOWN_CAPACITY, null));
    }
  }

  /** Why {@code image} cannot be recovered here, or null. Nothing is changed. */
  private String refusal(DurableImage image) {
    if (!d.settings.durable()) {
      return "pool " + d.settings.name() + " is not durable";
    }
    if (d.recovered || d.accepted + d.rejected > 0 || !d.hosts.isEmpty()
        || d.slots.size() != d.settings.slots().size() || d.state != PoolState.RUNNING) {
      return "pool " + d.settings.name() + " has already taken work (a pool recovers first)";
    }
    if (image.term() >= d.settings.term()) {
      return "the image is of term " + image.term() + ", not older than the pool's term "
          + d.settings.term();
    }
    Set<String> seen = new HashSet<>();
    for (DurableImage.JobImage j : image.jobs()) {
      if (!seen.add(j.job())) {
        return "job '" + j.job() + "' is in the image twice";
      }
      if (j.dueAt() > 0 && j.worker() != null) {
        return "job '" + j.job() + "' is both waiting and running on '" + j.worker() + "'";
      }
      if (j.key() != null && j.target() == null) {
        return "job '" + j.job() + "' has key '" + j.key() + "' but no target";
      }
    }
    Set<String> hostSlots = new HashSet<>();
    Set<String> hosts = new HashSet<>();
    for (DurableImage.HostImage h : image.hosts()) {
      if (!hosts.add(h.host())) {
        return "host '" + h.host() + "' is in the image twice";
      }
      for (String slot : h.slots()) {
        if (d.slotsById.containsKey(slot) || !hostSlots.add(slot)) {
          return "slot '" + slot + "' of host '" + h.host() + "' belongs to "
              + (d.slotsById.containsKey(slot) ? "the pool itself" : "two hosts");
        }
      }
    }
    return null;
  }
}
