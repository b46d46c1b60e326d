package dev.shepherd.core;

import java.util.List;
import java.util.Objects;

/**
 * Everything that can happen to a pool: requests from submitters and operators, facts reported by
 * slots, and the passage of time. Every event carries {@code now}, milliseconds that never
 * decrease (the runtime's monotonic clock, whose origin is its own): the core reads no clock, and
 * every time it computes (a deadline, a due time, when something happened) is on that clock.
 */
public sealed interface PoolEvent {

  /** When the event happened, in the runtime's milliseconds. */
  long now();

  /**
   * A job to run. {@code job} may be null (an id is generated), {@code key} null (no affinity),
   * {@code timeoutMs} 0 (the pool's default). {@code replyTo} is opaque to the core: it comes back
   * on every {@link Effect.Respond} for this job. {@code bytes} is what the payload costs while
   * queued, as the runtime measures it; it counts against {@link PoolSettings#backlogMaxBytes()}.
   * {@code delayMs} above 0 holds the job back that long (J4 in docs/rules.md; at most {@link
   * JobSettings#maxDelayMs()}, more is held that long); {@code retry} overrides the pool's
   * {@link JobSettings#retryFailures()} for this job (null: the pool's). {@code group} names the
   * job's group (F1 in docs/rules.md; null: none, the pool's default group for fairness, 1-256
   * characters otherwise) and {@code priority} orders it within the group (F3: 0-9, 0 first,
   * {@link #DEFAULT_PRIORITY} by default). {@code progressTimeoutMs} above 0 overrides the pool's
   * {@link JobSettings#progressTimeoutMs()} for this job (T2; 0: the pool's).
   */
  record Submit(String job, Object payload, String key, Object replyTo, long timeoutMs,
      long bytes, long delayMs, FailureRetry retry, String group, int priority,
      long progressTimeoutMs, long now) implements PoolEvent {
    /** The priority of a submit that names none (F3 in docs/rules.md). */
    public static final int DEFAULT_PRIORITY = 5;
    /** The lowest priority level (the highest number). */
    public static final int LOWEST_PRIORITY = 9;

    public Submit {
      if (group != null && !FlowSettings.validGroup(group)) {
        throw new IllegalArgumentException("group must be 1 to " + FlowSettings.MAX_GROUP_LENGTH
            + " characters");
      }
      if (priority < 0 || priority > LOWEST_PRIORITY) {
        throw new IllegalArgumentException("priority must be between 0 and " + LOWEST_PRIORITY
            + ": " + priority);
      }
      if (timeoutMs < 0) {
        throw new IllegalArgumentException("timeoutMs must not be negative: " + timeoutMs);
      }
      if (bytes < 0) {
        throw new IllegalArgumentException("bytes must not be negative: " + bytes);
      }
      if (delayMs < 0) {
        throw new IllegalArgumentException("delayMs must not be negative: " + delayMs);
      }
      if (progressTimeoutMs < 0) {
        throw new IllegalArgumentException("progressTimeoutMs must not be negative: "
            + progressTimeoutMs);
      }
    }

    /** A submit with the pool's progress timeout (T2 in docs/rules.md). */
    public Submit(String job, Object payload, String key, Object replyTo, long timeoutMs,
        long bytes, long delayMs, FailureRetry retry, String group, int priority, long now) {
      this(job, payload, key, replyTo, timeoutMs, bytes, delayMs, retry, group, priority, 0, now);
    }

    /** A submit without a group, at the default priority. */
    public Submit(String job, Object payload, String key, Object replyTo, long timeoutMs,
        long bytes, long delayMs, FailureRetry retry, long now) {
      this(job, payload, key, replyTo, timeoutMs, bytes, delayMs, retry, null, DEFAULT_PRIORITY,
          0, now);
    }

    /** A submit to run as soon as it can, with the pool's failure retries. */
    public Submit(String job, Object payload, String key, Object replyTo, long timeoutMs,
        long bytes, long now) {
      this(job, payload, key, replyTo, timeoutMs, bytes, 0, null, null, DEFAULT_PRIORITY, 0, now);
    }

    /** A submit whose payload costs nothing against the byte budget. */
    public Submit(String job, Object payload, String key, Object replyTo, long timeoutMs,
        long now) {
      this(job, payload, key, replyTo, timeoutMs, 0, 0, null, null, DEFAULT_PRIORITY, 0, now);
    }
  }

  /**
   * A worker finished an assignment: {@code error} null means it returned {@code result}. {@code
   * bytes} is what the result costs to remember (J6 in docs/rules.md), as the runtime measures it
   * (0: nothing).
   */
  record Completed(String worker, long assignment, Object result, JobError error, long bytes,
      long now) implements PoolEvent {
    public Completed {
      Objects.requireNonNull(worker, "worker");
      if (bytes < 0) {
        throw new IllegalArgumentException("bytes must not be negative: " + bytes);
      }
    }

    /** A completion whose result costs nothing to remember. */
    public Completed(String worker, long assignment, Object result, JobError error, long now) {
      this(worker, assignment, result, error, 0, now);
    }
  }

  /**
   * T2 (docs/rules.md): the attempt holding assignment {@code assignment} on {@code worker}
   * reported {@code progress} (opaque to the core, never null), which costs {@code bytes} to keep
   * (at most {@link JobProgress#MAX_BYTES}). Fenced like {@link Completed}: a report for no live
   * assignment of the slot is ignored and counted. Otherwise it becomes the job's checkpoint
   * (handed to its next attempt), is published, and resets the attempt's progress timeout.
   */
  record Progress(String worker, long assignment, Object progress, long bytes, long now)
      implements PoolEvent {
    public Progress {
      Objects.requireNonNull(worker, "worker");
      Objects.requireNonNull(progress, "progress");
      if (bytes < 0 || bytes > JobProgress.MAX_BYTES) {
        throw new IllegalArgumentException("progress must cost 0 to " + JobProgress.MAX_BYTES
            + " bytes: " + bytes);
      }
    }
  }

  /** Bind {@code key} to {@code worker} for later submissions (P5 in docs/rules.md). */
  record Rebalance(String key, String worker, long now) implements PoolEvent {
    public Rebalance {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(worker, "worker");
    }
  }

  /** Cancel a queued or running job (P17 in docs/rules.md). */
  record Cancel(String job, long now) implements PoolEvent {
    public Cancel {
      Objects.requireNonNull(job, "job");
    }
  }

  /** The slot's incarnation deployed successfully (P2 in docs/rules.md). */
  record WorkerCreated(String worker, int incarnation, long now) implements PoolEvent {
    public WorkerCreated {
      Objects.requireNonNull(worker, "worker");
    }
  }

  /** The slot's incarnation failed to deploy (P2 in docs/rules.md): the slot retires. */
  record CreationFailed(String worker, int incarnation, String cause, long now)
      implements PoolEvent {
    public CreationFailed {
      Objects.requireNonNull(worker, "worker");
    }
  }

  /**
   * The slot's incarnation stopped (P9 in docs/rules.md); the supervisor decides what follows
   * (section 4).
   */
  record WorkerStopped(String worker, int incarnation, Exit exit, String cause, long now)
      implements PoolEvent {
    public WorkerStopped {
      Objects.requireNonNull(worker, "worker");
      Objects.requireNonNull(exit, "exit");
    }
  }

  /**
   * A remote worker joined; {@code maxConcurrency} null means its capacity is unknown (C1 in
   * docs/rules.md).
   */
  record WorkerRegistered(String worker, Integer maxConcurrency, long now) implements PoolEvent {
    public WorkerRegistered {
      Objects.requireNonNull(worker, "worker");
    }
  }

  /** A worker announced how many assignments it runs at once (C1 in docs/rules.md). */
  record CapacityAdvertised(String worker, int maxConcurrency, long now) implements PoolEvent {
    public CapacityAdvertised {
      Objects.requireNonNull(worker, "worker");
    }
  }

  /** A remote worker left on purpose; its running jobs are interrupted with exit NORMAL. */
  record WorkerDeregistered(String worker, long now) implements PoolEvent {
    public WorkerDeregistered {
      Objects.requireNonNull(worker, "worker");
    }
  }

  /**
   * A worker host (another node) registered its slots, in slot order (H1, H2, H7 in docs/rules.md).
   * An unknown host's slots join the pool INSTALLING and are deployed; a lost host's slots come
   * back with a new incarnation. {@code node} is the cluster member it runs on.
   */
  record HostRegistered(String host, String node, List<SlotSpec> slots, long now)
      implements PoolEvent {
    public HostRegistered {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(node, "node");
      slots = List.copyOf(slots);
    }
  }

  /**
   * A host's node left the cluster or its heartbeats stopped (H5 in docs/rules.md): its slots are
   * LOST. {@code cause} says which, for the interrupted jobs' reason.
   */
  record HostLost(String host, String cause, long now) implements PoolEvent {
    public HostLost {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(cause, "cause");
    }
  }

  /**
   * Something came from an UP host (a heartbeat, reports): its lease (H5 in docs/rules.md) runs
   * from {@code now}.
   */
  record HostHeard(String host, long now) implements PoolEvent {
    public HostHeard {
      Objects.requireNonNull(host, "host");
    }
  }

  /** A host left on purpose: its slots depart as deregistered workers do. */
  record HostDeregistered(String host, long now) implements PoolEvent {
    public HostDeregistered {
      Objects.requireNonNull(host, "host");
    }
  }

  /**
   * A timer the pool started has expired: a job timeout (P14 in docs/rules.md), a backoff end (S5),
   * the drain deadline (P16), a lost host's grace (H6), a revive, or waiting jobs' due time (J3,
   * J4). A fire that no longer applies changes nothing.
   */
  record TimerFired(Timer timer, long now) implements PoolEvent {
    public TimerFired {
      Objects.requireNonNull(timer, "timer");
    }
  }

  /**
   * An operator puts a retired slot back in service with a new incarnation (not a supervisor
   * restart: the restart budget is not charged).
   */
  record Revive(String worker, long now) implements PoolEvent {
    public Revive {
      Objects.requireNonNull(worker, "worker");
    }
  }

  /**
   * J5 (docs/rules.md): an operator submits a dead-lettered job again: a new submission of its
   * payload, key and timeout under its own id, admitted like any submit (its admission goes to
   * {@code replyTo}). Once accepted it leaves the dead-letter set; rejected, it stays. An id not in
   * the set is refused ({@code UNKNOWN_JOB}).
   */
  record ReplayDead(String job, Object replyTo, long now) implements PoolEvent {
    public ReplayDead {
      Objects.requireNonNull(job, "job");
    }
  }

  /**
   * J5 (docs/rules.md): an operator discards a dead-lettered job; an id not in the set is refused.
   */
  record DiscardDead(String job, long now) implements PoolEvent {
    public DiscardDead {
      Objects.requireNonNull(job, "job");
    }
  }

  /**
   * A durable pool takes over from a coordinator of an older term (A3 in docs/rules.md): it
   * rebuilds what {@code image} holds. Queued jobs keep their backlog order; jobs that were running
   * are interrupted {@code WORKER_STOPPED} with exit {@code NODE_LOST} (P9 decides); the hosts'
   * slots are LOST until their hosts register again (H7); bindings hold. Only a fresh pool (nothing
   * accepted, no host) of a newer term may recover. {@code counters}, the totals of the last write
   * (null: none journaled), are where the pool's counters continue from (T3).
   */
  record Recover(DurableImage image, Counters counters, long now) implements PoolEvent {
    public Recover {
      Objects.requireNonNull(image, "image");
    }

    /** A recovery whose journal held no totals: the pool counts from zero. */
    public Recover(DurableImage image, long now) {
      this(image, null, now);
    }
  }

  /**
   * F1, F5 (docs/rules.md): an operator sets the override of group {@code group} at run time;
   * {@code settings} replaces any earlier run-time override (null: the configured override, or the
   * defaults, apply again). Its {@code paused} pauses ({@code true}) or resumes ({@code false}) the
   * group, null leaves that as it is.
   */
  record SetGroup(String group, GroupSettings settings, long now) implements PoolEvent {
    public SetGroup {
      if (!FlowSettings.validGroup(group)) {
        throw new IllegalArgumentException("group must be 1 to " + FlowSettings.MAX_GROUP_LENGTH
            + " characters");
      }
    }
  }

  /**
   * F5 (docs/rules.md): an operator pauses group {@code group}, or the pool when it is null:
   * nothing new is dispatched from it; running jobs finish. Pausing what is paused changes nothing.
   */
  record Pause(String group, long now) implements PoolEvent {
    public Pause {
      if (group != null && !FlowSettings.validGroup(group)) {
        throw new IllegalArgumentException("group must be 1 to " + FlowSettings.MAX_GROUP_LENGTH
            + " characters");
      }
    }
  }

  /**
   * F5 (docs/rules.md): an operator resumes group {@code group}, or the pool when it is null;
   * dispatch runs at once. Resuming what is not paused changes nothing.
   */
  record Resume(String group, long now) implements PoolEvent {
    public Resume {
      if (group != null && !FlowSettings.validGroup(group)) {
        throw new IllegalArgumentException("group must be 1 to " + FlowSettings.MAX_GROUP_LENGTH
            + " characters");
      }
    }
  }

  /**
   * F4 (docs/rules.md): the handler of assignment {@code assignment} on {@code worker} answered
   * "rate limited for {@code holdMs}" (a downstream's 429). Fenced like {@link Completed}: the job
   * goes back to the front of its group, uses no attempt, no restart budget and no failure; its
   * group (the pool, for a job without a group) is held {@code holdMs}.
   */
  record RateLimited(String worker, long assignment, long holdMs, long now) implements PoolEvent {
    public RateLimited {
      Objects.requireNonNull(worker, "worker");
      if (holdMs < 0) {
        throw new IllegalArgumentException("holdMs must not be negative: " + holdMs);
      }
    }
  }

  /**
   * Graceful stop (P16 in docs/rules.md): refuse new work, interrupt queued jobs, drain running
   * ones.
   */
  record StopRequested(long now) implements PoolEvent {}

  /**
   * F6 (docs/rules.md): an operator resizes the pool's own slots at run time: {@code instances}
   * local slots ({@code w-0 …}), each running up to {@code maxConcurrency} assignments. Growing
   * adds slots (INSTALLING, then serving); shrinking drains the highest ones (nothing new is
   * dispatched to them, their jobs finish, then they leave: not a retirement, not charged to the
   * budget), and keys bound to them move to the selector's choice. A worker host's slots are not
   * touched. Out-of-range values throw a {@link ConfigException} naming the field ({@link
   * PoolSize}).
   */
  record Resize(int instances, int maxConcurrency, long now) implements PoolEvent {
    public Resize {
      new PoolSize(instances, maxConcurrency);
    }
  }
}
