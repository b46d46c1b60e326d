package dev.shepherd.cluster.hosts;

import dev.shepherd.core.Effect;
import dev.shepherd.runtime.trace.JobTrace;
import dev.shepherd.core.Exit;
import java.util.List;
import java.util.Objects;

/**
 * One command of a pool's coordinator to a worker host, as {@code docs/protocol.md} ("Worker
 * hosts") describes it. Every command but {@link Reregister} names the incarnation it is for; a
 * host ignores commands for an incarnation it is not running.
 */
public sealed interface HostCommand {

  /** Deploy incarnation {@code incarnation} of the slot (its first, or a replacement). */
  record Deploy(String worker, int incarnation) implements HostCommand {
    public Deploy {
      Objects.requireNonNull(worker, "worker");
    }
  }

  /** Undeploy incarnation {@code incarnation}; the host reports nothing more about it. */
  record Stop(String worker, int incarnation, Exit reason) implements HostCommand {
    public Stop {
      Objects.requireNonNull(worker, "worker");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * Run one job on incarnation {@code incarnation}, fenced by {@code assignment}; {@code
   * checkpoint} is the last progress of an earlier attempt (T2 in docs/rules.md), or null.
   */
  record Assign(String worker, int incarnation, long assignment, String job, Object payload,
      int attempt, String key, Object checkpoint, String traceparent, String tracestate)
      implements HostCommand {
    public Assign {
      Objects.requireNonNull(worker, "worker");
      Objects.requireNonNull(job, "job");
    }

    /** An assignment without a checkpoint or a trace. */
    public Assign(String worker, int incarnation, long assignment, String job, Object payload,
        int attempt, String key) {
      this(worker, incarnation, assignment, job, payload, attempt, key, null, null, null);
    }

    /** An assignment without a trace. */
    public Assign(String worker, int incarnation, long assignment, String job, Object payload,
        int attempt, String key, Object checkpoint) {
      this(worker, incarnation, assignment, job, payload, attempt, key, checkpoint, null, null);
    }

    /** The core's assignment, sent to the incarnation the coordinator knows the slot runs. */
    public static Assign of(Effect.Assign assign, int incarnation) {
      return of(assign, incarnation, null);
    }

    /**
     * The same, carrying the submitter's trace (T1 in docs/rules.md) as W3C strings, when it has
     * one: the host opens the attempt's span under it.
     */
    public static Assign of(Effect.Assign assign, int incarnation, JobTrace trace) {
      return new Assign(assign.worker(), incarnation, assign.assignment(), assign.job(),
          assign.payload(), assign.attempt(), assign.key(), assign.checkpoint(),
          trace == null ? null : trace.traceparent(), trace == null ? null : trace.tracestate());
    }
  }

  /**
   * The job of {@code assignment} was cancelled while running (P17 in docs/rules.md): the
   * incarnation is told, and a worker that looks can stop early. Its answer, whatever it is, is
   * stale.
   */
  record Cancel(String worker, int incarnation, long assignment) implements HostCommand {
    public Cancel {
      Objects.requireNonNull(worker, "worker");
    }
  }

  /**
   * The coordinator does not know the host (any more): it must register again. {@code round} is
   * the registration round of the heartbeat it answers (0: any); a host that has registered again
   * since ignores it, so heartbeats that crossed its re-registration do not reset it twice.
   */
  record Reregister(int round) implements HostCommand {
    /** A re-register command that names no round. */
    public Reregister() {
      this(0);
    }
  }

  /** One message to a host: the commands of one coordinator turn, in order, fenced by term. */
  record Batch(long term, List<HostCommand> items) {
    public Batch {
      items = List.copyOf(items);
    }
  }
}
