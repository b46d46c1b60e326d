package dev.shepherd.core;

import java.util.List;
import java.util.Objects;

/**
 * What a durable pool's coordinator leaves behind for the next one (A3 in docs/rules.md): every
 * accepted, unanswered job with its place (queued at {@code order}, waiting until {@code dueAt}, or
 * running on {@code worker}), every key binding, every worker host with its slots, the highest
 * generated job number accepted, the dead-letter set (J5) and the recent outcomes (J6), both oldest
 * first, and the size of its own slots once a resize set it (F6; null: as configured). {@code
 * term} is the term of the pool that wrote it. A {@link Ledger} builds one from records; {@link
 * Pool#durableImage()} computes one from a pool's state; {@link PoolEvent.Recover} rebuilds a pool
 * from one. Jobs are in backlog order, bindings by key, hosts in registration order. For flow
 * control (section 11): {@code groups}, the run-time group overrides and paused groups by name,
 * and {@code pausedSince}, when the pool was paused (null: it is not), so a new leader enforces
 * the same limits (F1, F5).
 */
public record DurableImage(long term, long generated, List<JobImage> jobs,
    List<BindingImage> bindings, List<HostImage> hosts, List<DeadLetter> dead,
    List<RecentOutcome> recent, List<GroupImage> groups, Long pausedSince, PoolSize size) {

  public DurableImage {
    jobs = List.copyOf(jobs);
    bindings = List.copyOf(bindings);
    hosts = List.copyOf(hosts);
    dead = List.copyOf(dead);
    recent = List.copyOf(recent);
    groups = groups == null ? List.of() : List.copyOf(groups);
  }

  /**
   * An image of a pool never resized ({@code size} null: as configured, F6 in docs/rules.md).
   */
  public DurableImage(long term, long generated, List<JobImage> jobs,
      List<BindingImage> bindings, List<HostImage> hosts, List<DeadLetter> dead,
      List<RecentOutcome> recent, List<GroupImage> groups, Long pausedSince) {
    this(term, generated, jobs, bindings, hosts, dead, recent, groups, pausedSince, null);
  }

  /** An image of a pool without run-time group state, never resized. */
  public DurableImage(long term, long generated, List<JobImage> jobs,
      List<BindingImage> bindings, List<HostImage> hosts, List<DeadLetter> dead,
      List<RecentOutcome> recent) {
    this(term, generated, jobs, bindings, hosts, dead, recent, List.of(), null, null);
  }

  /** An image without dead letters or recent outcomes. */
  public DurableImage(long term, long generated, List<JobImage> jobs,
      List<BindingImage> bindings, List<HostImage> hosts) {
    this(term, generated, jobs, bindings, hosts, List.of(), List.of());
  }

  /** Nothing survived (yet): the image of a durable pool that never accepted anything. */
  public static DurableImage empty(long term) {
    return new DurableImage(term, 0, List.of(), List.of(), List.of());
  }

  /**
   * One job: the fields of its submit, its backlog position, its dispatches so far, the slot it
   * runs on (null unless running), the interruption it carries (null if never interrupted); and
   * for section 10 (docs/rules.md): {@code dueAt} (above 0 while it waits; then {@code front}: it
   * goes to the front when due, as a retry, rather than the back, as a delayed submit), its {@code
   * stops} (J2), its failed attempts and its own failure retries (J3, null: the pool's); its
   * checkpoint as last written (T2: {@code checkpoint}, null if none, {@code checkpointBytes}
   * its cost), handed to its next attempt, and its own progress timeout (T2: {@code
   * progressTimeoutMs}, 0: the pool's).
   */
  public record JobImage(String job, long generated, long order, Object payload, String key,
      Object replyTo, long timeoutMs, long bytes, String target, int attempts, String worker,
      Interruption interruption, long dueAt, boolean front, int stops, int failures,
      FailureRetry retry, String group, int priority, Object checkpoint, long checkpointBytes,
      long progressTimeoutMs) {
    public JobImage {
      Objects.requireNonNull(job, "job");
    }

    /** A job with the pool's progress timeout (T2 in docs/rules.md). */
    public JobImage(String job, long generated, long order, Object payload, String key,
        Object replyTo, long timeoutMs, long bytes, String target, int attempts, String worker,
        Interruption interruption, long dueAt, boolean front, int stops, int failures,
        FailureRetry retry, String group, int priority, Object checkpoint,
        long checkpointBytes) {
      this(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target, attempts,
          worker, interruption, dueAt, front, stops, failures, retry, group, priority, checkpoint,
          checkpointBytes, 0);
    }

    /** A job without a checkpoint (T2 in docs/rules.md). */
    public JobImage(String job, long generated, long order, Object payload, String key,
        Object replyTo, long timeoutMs, long bytes, String target, int attempts, String worker,
        Interruption interruption, long dueAt, boolean front, int stops, int failures,
        FailureRetry retry, String group, int priority) {
      this(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target, attempts,
          worker, interruption, dueAt, front, stops, failures, retry, group, priority, null, 0);
    }

    /** A job without a group, at the default priority. */
    public JobImage(String job, long generated, long order, Object payload, String key,
        Object replyTo, long timeoutMs, long bytes, String target, int attempts, String worker,
        Interruption interruption, long dueAt, boolean front, int stops, int failures,
        FailureRetry retry) {
      this(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target, attempts,
          worker, interruption, dueAt, front, stops, failures, retry, null,
          PoolEvent.Submit.DEFAULT_PRIORITY);
    }

    /** A job that neither waits nor was judged nor failed. */
    public JobImage(String job, long generated, long order, Object payload, String key,
        Object replyTo, long timeoutMs, long bytes, String target, int attempts, String worker,
        Interruption interruption) {
      this(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target, attempts,
          worker, interruption, 0, false, 0, 0, null, null, PoolEvent.Submit.DEFAULT_PRIORITY);
    }

    /** The job {@code accepted} records, queued or waiting, never dispatched. */
    public static JobImage of(DurableRecord.Accepted a) {
      return new JobImage(a.job(), a.generated(), a.order(), a.payload(), a.key(), a.replyTo(),
          a.timeoutMs(), a.bytes(), a.target(), 0, null, null, a.dueAt(), false, 0, 0, a.retry(),
          a.group(), a.priority(), null, 0, a.progressTimeoutMs());
    }

    /** This job with {@code progress} as its checkpoint (T2 in docs/rules.md). */
    public JobImage withCheckpoint(Object progress, long progressBytes) {
      return new JobImage(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target,
          attempts, worker, interruption, dueAt, front, stops, failures, retry, group, priority,
          progress, progressBytes, progressTimeoutMs);
    }

    /** This job answered at {@code replyTo}. */
    public JobImage withReplyTo(Object replyTo) {
      return new JobImage(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target,
          attempts, worker, interruption, dueAt, front, stops, failures, retry, group, priority,
          checkpoint, checkpointBytes, progressTimeoutMs);
    }

    /** This job bound to run on {@code target} (F6 in docs/rules.md). */
    public JobImage withTarget(String target) {
      return new JobImage(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target,
          attempts, worker, interruption, dueAt, front, stops, failures, retry, group, priority,
          checkpoint, checkpointBytes, progressTimeoutMs);
    }

    /** This job waiting until {@code dueAt} (J4 in docs/rules.md). */
    public JobImage withDueAt(long dueAt) {
      return new JobImage(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target,
          attempts, worker, interruption, dueAt, front, stops, failures, retry, group, priority,
          checkpoint, checkpointBytes, progressTimeoutMs);
    }

    /** This job running on {@code worker}, its dispatch number {@code attempt}. */
    public JobImage assigned(String worker, int attempt) {
      return new JobImage(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target,
          attempt, worker, interruption, 0, false, stops, failures, retry, group, priority,
          checkpoint, checkpointBytes, progressTimeoutMs);
    }

    /**
     * This job back at {@code order} (P9, J3 in docs/rules.md), no longer running: queued, or
     * waiting until {@code dueAt} to go to the front; {@code attempts} its dispatches so far.
     */
    public JobImage back(long order, int attempts, Interruption interruption, long dueAt,
        int stops, int failures) {
      return new JobImage(job, generated, order, payload, key, replyTo, timeoutMs, bytes, target,
          attempts, null, interruption, dueAt, dueAt > 0, stops, failures, retry, group, priority,
          checkpoint, checkpointBytes, progressTimeoutMs);
    }
  }

  /** One key's binding; {@code rebalanced} when an operator set it. */
  public record BindingImage(String key, String worker, boolean rebalanced) {
    public BindingImage {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(worker, "worker");
    }
  }

  /** One worker host: the node it last registered from and its slots in slot order. */
  public record HostImage(String host, String node, List<String> slots) {
    public HostImage {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(node, "node");
      slots = List.copyOf(slots);
    }
  }

  /**
   * One group's run-time state (F1, F5 in docs/rules.md): the override an operator set ({@code
   * settings}, null: none) and, when it is paused, since when ({@code pausedSince}, null: not
   * paused).
   */
  public record GroupImage(String group, GroupSettings settings, Long pausedSince) {
    public GroupImage {
      Objects.requireNonNull(group, "group");
    }
  }
}
