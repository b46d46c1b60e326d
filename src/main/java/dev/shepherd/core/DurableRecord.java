package dev.shepherd.core;

import java.util.List;
import java.util.Objects;

/**
 * One change of what must survive a durable pool's coordinator (HA, A3 in docs/rules.md), emitted
 * as {@link Effect.Persist} in the transition that makes it. Replayed in order by a {@link Ledger},
 * a pool's records rebuild exactly its {@link DurableImage}: the accepted, unanswered jobs (where
 * each is, with its attempts, stops and due time), the key bindings, the worker hosts, the
 * dead-letter set and the recent outcomes. A record names slots, jobs and keys by id only, so it
 * outlives the pool that wrote it.
 */
public sealed interface DurableRecord {

  /**
   * A job was accepted at backlog position {@code order}; {@code generated} is the {@code N} of a
   * generated id {@code job-N} (0 for a caller's id), {@code target} its affinity slot or null;
   * {@code dueAt} above 0: it waits until then, to be appended (J4 in docs/rules.md); {@code retry}
   * its own failure retries, or null; {@code group} its group (null: none) and {@code priority} its
   * priority (F1, F3); {@code progressTimeoutMs} its own progress timeout (T2; 0: the pool's).
   */
  record Accepted(String job, long generated, long order, Object payload, String key,
      Object replyTo, long timeoutMs, long bytes, String target, long dueAt, FailureRetry retry,
      String group, int priority, long progressTimeoutMs) implements DurableRecord {
    public Accepted {
      Objects.requireNonNull(job, "job");
    }

    /** A job accepted with the pool's progress timeout (T2 in docs/rules.md). */
    public Accepted(String job, long generated, long order, Object payload, String key,
        Object replyTo, long timeoutMs, long bytes, String target, long dueAt, FailureRetry retry,
        String group, int priority) {
      this(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target, dueAt, retry,
          group, priority, 0);
    }

    /** This record with its due time {@code dueAt}. */
    public Accepted withDueAt(long dueAt) {
      return new Accepted(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target,
          dueAt, retry, group, priority, progressTimeoutMs);
    }

    /** A job accepted without a group, at the default priority. */
    public Accepted(String job, long generated, long order, Object payload, String key,
        Object replyTo, long timeoutMs, long bytes, String target, long dueAt,
        FailureRetry retry) {
      this(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target, dueAt, retry,
          null, PoolEvent.Submit.DEFAULT_PRIORITY);
    }

    /** A job accepted to run as soon as it can, with the pool's failure retries. */
    public Accepted(String job, long generated, long order, Object payload, String key,
        Object replyTo, long timeoutMs, long bytes, String target) {
      this(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target, 0, null, null,
          PoolEvent.Submit.DEFAULT_PRIORITY);
    }
  }

  /** The job was dispatched to {@code worker}; {@code attempt} counts its dispatches from 1. */
  record Assigned(String job, String worker, int attempt) implements DurableRecord {
    public Assigned {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(worker, "worker");
    }
  }

  /**
   * A job went back (P9, J3 in docs/rules.md): into the backlog at {@code order} ({@code dueAt} 0),
   * or to wait until {@code dueAt} and then go to the front; it carries why it was last
   * interrupted, its stops (J2) and failed attempts (J3). A waiting job whose time came is recorded
   * the same way, at its new {@code order}.
   */
  record Requeued(String job, long order, Interruption interruption, int stops, int failures,
      long dueAt) implements DurableRecord {
    public Requeued {
      Objects.requireNonNull(job, "job");
    }

    /** An interrupted job back in the backlog at {@code order}, neither suspect nor failed. */
    public Requeued(String job, long order, Interruption interruption) {
      this(job, order, interruption, 0, 0, 0);
    }
  }

  /**
   * The job was answered terminally (a cancel included): it leaves the image. The outcome and
   * where it went ride along, so a runtime that lost the answer on its way can send it again;
   * {@code remembered}, when not null, joins the recent outcomes (J6 in docs/rules.md).
   */
  record Answered(String job, Object replyTo, Outcome outcome, RecentOutcome remembered)
      implements DurableRecord {
    public Answered {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(outcome, "outcome");
    }

    /** An answer that is not remembered. */
    public Answered(String job, Object replyTo, Outcome outcome) {
      this(job, replyTo, outcome, null);
    }
  }

  /**
   * J6 (docs/rules.md): the oldest recent outcome, which is {@code job}'s, was forgotten to make
   * room.
   */
  record Forgotten(String job) implements DurableRecord {
    public Forgotten {
      Objects.requireNonNull(job, "job");
    }
  }

  /**
   * J5 (docs/rules.md): {@code entry} joined the dead-letter set (replacing any earlier entry of
   * its job).
   */
  record DeadLettered(DeadLetter entry) implements DurableRecord {
    public DeadLettered {
      Objects.requireNonNull(entry, "entry");
    }
  }

  /** J5 (docs/rules.md): {@code job} left the dead-letter set (replayed, discarded or evicted). */
  record DeadRemoved(String job) implements DurableRecord {
    public DeadRemoved {
      Objects.requireNonNull(job, "job");
    }
  }

  /**
   * {@code key} is bound to {@code worker}: by the selector, or by a rebalance (P4, P5 in
   * docs/rules.md).
   */
  record Bound(String key, String worker, boolean rebalanced) implements DurableRecord {
    public Bound {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(worker, "worker");
    }
  }

  /** The idle binding of {@code key} was forgotten (see {@link PoolLimits}). */
  record Unbound(String key) implements DurableRecord {
    public Unbound {
      Objects.requireNonNull(key, "key");
    }
  }

  /**
   * A worker host registered from {@code node}; {@code slots} are every slot the pool has had
   * from it, in slot order.
   */
  record HostKnown(String host, String node, List<String> slots) implements DurableRecord {
    public HostKnown {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(node, "node");
      slots = List.copyOf(slots);
    }
  }

  /**
   * F4 (docs/rules.md): a running job answered "rate limited" went back into the backlog at {@code
   * order}, its start not counted: {@code attempts} is its dispatches before that start.
   */
  record Returned(String job, long order, int attempts) implements DurableRecord {
    public Returned {
      Objects.requireNonNull(job, "job");
    }
  }

  /**
   * F1 (docs/rules.md): an operator set the run-time override of {@code group} ({@code settings}
   * null: removed, the configured override or the defaults apply again).
   */
  record GroupSet(String group, GroupSettings settings) implements DurableRecord {
    public GroupSet {
      Objects.requireNonNull(group, "group");
    }
  }

  /** F5 (docs/rules.md): {@code group} (null: the pool) was paused at {@code since}. */
  record Paused(String group, long since) implements DurableRecord {}

  /** F5 (docs/rules.md): {@code group} (null: the pool) was resumed. */
  record Resumed(String group) implements DurableRecord {}

  /**
   * F6 (docs/rules.md): a resize set the pool's own slots to {@code instances}, each of capacity
   * {@code maxConcurrency}; a new coordinator rebuilds that size.
   */
  record Resized(int instances, int maxConcurrency) implements DurableRecord {
    public Resized {
      new PoolSize(instances, maxConcurrency);
    }
  }

  /**
   * T2 (docs/rules.md): the running job's latest progress report, its checkpoint ({@code
   * progress}, {@code bytes} its cost), so that a retry on the next leader resumes from it. Only
   * the latest per job is kept, and a pool writes at most one per job per {@link
   * Pool#CHECKPOINT_WRITE_MS} (a report held back goes with the next write, see {@link
   * ProgressFlow}).
   */
  record Checkpointed(String job, Object progress, long bytes) implements DurableRecord {
    public Checkpointed {
      Objects.requireNonNull(job, "job");
    }
  }

  /**
   * F6 (docs/rules.md): the held job {@code job} must now run on {@code target}, because the slot
   * it was bound to leaves the pool and its key moved there.
   */
  record Retargeted(String job, String target) implements DurableRecord {
    public Retargeted {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(target, "target");
    }
  }
}
