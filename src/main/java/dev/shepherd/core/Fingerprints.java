package dev.shepherd.core;

import java.util.Map;
import java.util.TreeMap;

/**
 * A deterministic dump of a pool's whole internal state: slots with their queues in order
 * (cancelled tombstones included), jobs, bindings, budget stamps, jitter state, counters, the
 * dispatch index and the token counter. Two dumps are equal exactly when nothing observable or
 * internal changed, which is how the property tests prove that a refused event left the state as
 * it was. For tests and diagnostics; not part of the protocol.
 */
final class Fingerprints {
  private Fingerprints() {}

  /** The dump of {@code d}: O(state log state). */
  static String of(PoolData d) {
    StringBuilder out = new StringBuilder(512);
    out.append("state=").append(d.state).append(" nextToken=").append(d.nextToken)
        .append(" generatedIds=").append(d.jobs.generatedSoFar()).append(" notRetired=").append(d.notRetired)
        .append(" runningJobs=").append(d.runningJobs).append(" drainDeadline=").append(d.drainDeadline)
        .append("\ncounters=").append(d.accepted).append(',').append(d.rejected).append(',')
        .append(d.completed).append(',').append(d.failed).append(',').append(d.interrupted).append(',')
        .append(d.cancelled).append(',').append(d.retried).append(',').append(d.restarts).append(',')
        .append(d.budgetRefusals).append(',').append(d.ignoredFacts).append(',')
        .append(d.poisoned).append(',').append(d.deadLettered)
        .append("\nfree=").append(d.free).append(" freeWithTargeted=").append(d.freeWithTargeted)
        .append("\nwaiting: ").append(d.waiting.fingerprint()).append(" armedDue=")
        .append(d.requeues.armedDue).append(" retryJitter=").append(d.retryJitter.state())
        // Their deep hash codes: as telling as their text here, at a fraction of the cost.
        .append("\ndead: ").append(d.dead.size()).append('#').append(d.dead.all().hashCode())
        .append(" evicted=").append(d.dead.evicted())
        .append("\nrecent: ").append(d.recent.size()).append('#').append(d.recent.all().hashCode())
        .append("\nbudget=").append(d.supervisor.budget()).append(" jitter=")
        .append(d.supervisor.jitterState())
        .append("\nbacklog: ").append(d.backlog.fingerprint())
        .append("\nlocal: ").append(d.local.fingerprint())
        .append("\nflow: pausedSince=").append(d.groups.poolPausedSince).append(" heldUntil=")
        .append(d.groups.poolHeldUntil).append(" readyAt=").append(d.groups.poolReadyAt)
        .append(" bucket=").append(d.groups.poolBucket == null ? null
            : d.groups.poolBucket.describe())
        .append(" journaled=").append(d.groups.journaled);
    for (FlowGroup group : d.groups.all()) {
      out.append("\ngroup ").append(group).append(" bucket=")
          .append(group.bucket == null ? null : group.bucket.describe()).append(" runtime=")
          .append(group.runtime);
    }
    for (Slot slot : d.slots) {
      out.append("\nslot ").append(slot.id).append(" index=").append(slot.index)
          .append(" life=").append(slot.life).append(" inc=").append(slot.incarnation)
          .append(" cap=").append(slot.capacity).append(" retirement=").append(slot.retirement)
          .append(" backoffUntil=").append(slot.backoffUntil)
          .append(" runningSince=").append(slot.runningSince)
          .append(" failures=").append(slot.consecutiveFailures)
          .append(" restarts=").append(slot.restarts).append(" departed=").append(slot.departed)
          .append(" draining=").append(slot.draining)
          .append(" probing=").append(slot.probing).append(" failedProbes=")
          .append(slot.failedProbes).append(" suspectsRunning=").append(slot.suspectsRunning)
          .append(" running=[");
      for (Job job : slot.running) {
        appendJob(out, job);
      }
      out.append("] targeted=").append(slot.queuedLive).append(" suspects=")
          .append(slot.suspectsLive).append(" ring=").append(slot.ring.describe());
    }
    TreeMap<String, Job> jobs = new TreeMap<>();
    d.jobs.values().forEach(job -> jobs.put(job.id, job));
    for (Map.Entry<String, Job> entry : jobs.entrySet()) {
      out.append("\njob ").append(entry.getKey()).append(" -> ");
      appendJob(out, entry.getValue());
    }
    for (Map.Entry<String, Bindings.Binding> entry : d.bindings.sorted().entrySet()) {
      Bindings.Binding b = entry.getValue();
      out.append("\nbinding ").append(entry.getKey()).append(" -> ").append(b.slot.id)
          .append(" jobs=").append(b.jobs).append(" rebalanced=").append(b.rebalanced);
    }
    out.append("\nidle ").append(d.bindings.idleOrder());
    for (Host host : d.hosts.values()) {
      out.append("\nhost ").append(host);
      host.slots.forEach(slot -> out.append(' ').append(slot.id));
    }
    out.append("\nvisible=").append(d.visible).append(" recovered=").append(d.recovered)
        .append(" generatedAccepted=").append(d.generatedAccepted);
    return out.toString();
  }

  private static void appendJob(StringBuilder out, Job job) {
    out.append('{').append(job.id).append(' ').append(job.place).append(" order=")
        .append(job.order).append(" attempts=").append(job.attempts)
        .append(" target=").append(job.target == null ? null : job.target.id)
        .append(" key=").append(job.key).append(" timeout=").append(job.timeoutMs)
        .append(" slot=").append(job.slot == null ? null : job.slot.id)
        .append(" token=").append(job.token).append(" started=").append(job.startedAt)
        .append(" why=").append(job.interruption).append(" stops=").append(job.stops())
        .append(" failures=").append(job.failures()).append(" retry=").append(job.retry())
        .append(" due=").append(job.fate == null ? 0 : job.fate.dueAt)
        .append(" checkpoint=").append(job.checkpoint()).append('/').append(job.checkpointBytes())
        .append(" heard=").append(job.fate == null ? 0 : job.fate.progressAt)
        .append(" history=").append(job.attemptList().hashCode()).append(" payload=")
        .append(job.payload)
        .append(" replyTo=").append(job.replyTo).append('}');
  }

}
