package dev.shepherd.core;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A pool's complete, validated configuration (P1 in docs/rules.md). Construction fails with a
 * {@link ConfigException} naming the field: {@code NO_WORKERS} for an empty topology, {@code
 * DUPLICATE_WORKER} for a repeated slot id.
 *
 * @param jobTimeoutMs default job timeout (P14); 0 means none
 * @param maxAttempts dispatches a RETRY job may have before ATTEMPTS_EXHAUSTED (P13); 0 unlimited
 * @param term the coordinator's term, carried in the high bits of assignment tokens (HA fencing)
 * @param limits bytes of queued payloads and idle key bindings the pool may hold
 * @param hosts whether the pool may run on hosts' slots alone, and how long lost ones wait
 * @param durable whether the pool records what must survive its coordinator ({@link
 *     Effect.Persist}) and can be rebuilt from it ({@link PoolEvent.Recover}): HA (section 8.5)
 * @param jobs how jobs that fail, wait and come back are treated (section 10); the constructors
 *     without it use {@link JobSettings#NONE}
 * @param flow flow control: groups, fairness, priorities, rate limits, pauses (section 11); the
 *     constructors without it use {@link FlowSettings#NONE}
 */
public record PoolSettings(
    String name,
    List<SlotSpec> slots,
    int backlogCapacity,
    InterruptionPolicy interruption,
    int maxAttempts,
    long jobTimeoutMs,
    SupervisionSettings supervision,
    AffinitySelector selector,
    long drainTimeoutMs,
    long term,
    PoolLimits limits,
    HostSettings hosts,
    boolean durable,
    JobSettings jobs,
    FlowSettings flow) {

  /** Bits of an assignment token below the term. */
  public static final int TERM_SHIFT = 40;

  public PoolSettings {
    if (name == null || name.isEmpty()) {
      throw new ConfigException("name", name, "must be a non-empty string");
    }
    Objects.requireNonNull(hosts, "hosts");
    if (slots == null || (slots.isEmpty() && !hosts.hostsOnly())) {
      throw new ConfigException("worker.instances", 0, "NO_WORKERS: a pool needs at least one worker"
          + " (0 only for a clustered pool that runs on worker hosts)");
    }
    slots = List.copyOf(slots);
    Set<String> seen = new HashSet<>();
    for (SlotSpec slot : slots) {
      if (!seen.add(slot.id())) {
        throw new ConfigException("worker id", slot.id(), "DUPLICATE_WORKER: ids must be unique");
      }
    }
    if (backlogCapacity < 0) {
      throw new ConfigException("backlogCapacity", backlogCapacity, "must not be negative");
    }
    Objects.requireNonNull(interruption, "interruption");
    if (maxAttempts < 0) {
      throw new ConfigException("maxAttempts", maxAttempts, "must not be negative (0 = unlimited)");
    }
    if (jobTimeoutMs < 0) {
      throw new ConfigException("jobTimeoutMs", jobTimeoutMs, "must not be negative (0 = none)");
    }
    Objects.requireNonNull(supervision, "supervision");
    Objects.requireNonNull(selector, "selector");
    if (drainTimeoutMs < 0) {
      throw new ConfigException("drainTimeoutMs", drainTimeoutMs, "must not be negative");
    }
    if (term < 0 || term >= (1L << (63 - TERM_SHIFT))) {
      throw new ConfigException("term", term, "must be between 0 and 2^23 - 1");
    }
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(jobs, "jobs");
    Objects.requireNonNull(flow, "flow");
  }

  /** Settings without flow control ({@link FlowSettings#NONE}). */
  public PoolSettings(String name, List<SlotSpec> slots, int backlogCapacity,
      InterruptionPolicy interruption, int maxAttempts, long jobTimeoutMs,
      SupervisionSettings supervision, AffinitySelector selector, long drainTimeoutMs, long term,
      PoolLimits limits, HostSettings hosts, boolean durable, JobSettings jobs) {
    this(name, slots, backlogCapacity, interruption, maxAttempts, jobTimeoutMs, supervision,
        selector, drainTimeoutMs, term, limits, hosts, durable, jobs, FlowSettings.NONE);
  }

  /** Settings without the job rules of section 10, docs/rules.md ({@link JobSettings#NONE}). */
  public PoolSettings(String name, List<SlotSpec> slots, int backlogCapacity,
      InterruptionPolicy interruption, int maxAttempts, long jobTimeoutMs,
      SupervisionSettings supervision, AffinitySelector selector, long drainTimeoutMs, long term,
      PoolLimits limits, HostSettings hosts, boolean durable) {
    this(name, slots, backlogCapacity, interruption, maxAttempts, jobTimeoutMs, supervision,
        selector, drainTimeoutMs, term, limits, hosts, durable, JobSettings.NONE);
  }

  /** Settings of a pool that is not durable. */
  public PoolSettings(String name, List<SlotSpec> slots, int backlogCapacity,
      InterruptionPolicy interruption, int maxAttempts, long jobTimeoutMs,
      SupervisionSettings supervision, AffinitySelector selector, long drainTimeoutMs, long term,
      PoolLimits limits, HostSettings hosts) {
    this(name, slots, backlogCapacity, interruption, maxAttempts, jobTimeoutMs, supervision,
        selector, drainTimeoutMs, term, limits, hosts, false);
  }

  /** Settings with the default {@link PoolLimits}. */
  public PoolSettings(String name, List<SlotSpec> slots, int backlogCapacity,
      InterruptionPolicy interruption, int maxAttempts, long jobTimeoutMs,
      SupervisionSettings supervision, AffinitySelector selector, long drainTimeoutMs, long term) {
    this(name, slots, backlogCapacity, interruption, maxAttempts, jobTimeoutMs, supervision,
        selector, drainTimeoutMs, term, PoolLimits.DEFAULT, HostSettings.DEFAULT);
  }

  /** Settings with the default {@link HostSettings}. */
  public PoolSettings(String name, List<SlotSpec> slots, int backlogCapacity,
      InterruptionPolicy interruption, int maxAttempts, long jobTimeoutMs,
      SupervisionSettings supervision, AffinitySelector selector, long drainTimeoutMs, long term,
      PoolLimits limits) {
    this(name, slots, backlogCapacity, interruption, maxAttempts, jobTimeoutMs, supervision,
        selector, drainTimeoutMs, term, limits, HostSettings.DEFAULT);
  }

  /** The byte budget of queued payloads ({@link PoolLimits#backlogMaxBytes()}). */
  public long backlogMaxBytes() {
    return limits.backlogMaxBytes();
  }

  /**
   * A pool of {@code count} slots {@code w-0 … w-(count-1)} with the seed's rules and Shepherd's
   * defaults for the rest; the job rules of section 10 (docs/rules.md) are off ({@link
   * JobSettings#NONE}) until {@link #withJobs} sets them (the runtime's configuration turns on
   * {@link JobSettings#DEFAULT}).
   */
  public static PoolSettings defaults(String name, int count) {
    List<SlotSpec> slots =
        java.util.stream.IntStream.range(0, count).mapToObj(i -> new SlotSpec("w-" + i, 1)).toList();
    return new PoolSettings(
        name, slots, 1000, InterruptionPolicy.RETRY, 3, 30_000, SupervisionSettings.defaults(),
        Selectors.rendezvous(), 10_000, 0);
  }

  public PoolSettings withSlots(List<SlotSpec> newSlots) {
    return new PoolSettings(name, newSlots, backlogCapacity, interruption, maxAttempts,
        jobTimeoutMs, supervision, selector, drainTimeoutMs, term, limits, hosts, durable, jobs, flow);
  }

  public PoolSettings withBacklogCapacity(int capacity) {
    return new PoolSettings(name, slots, capacity, interruption, maxAttempts, jobTimeoutMs,
        supervision, selector, drainTimeoutMs, term, limits, hosts, durable, jobs, flow);
  }

  public PoolSettings withInterruption(InterruptionPolicy policy, int attempts) {
    return new PoolSettings(name, slots, backlogCapacity, policy, attempts, jobTimeoutMs,
        supervision, selector, drainTimeoutMs, term, limits, hosts, durable, jobs, flow);
  }

  public PoolSettings withJobTimeoutMs(long timeoutMs) {
    return new PoolSettings(name, slots, backlogCapacity, interruption, maxAttempts, timeoutMs,
        supervision, selector, drainTimeoutMs, term, limits, hosts, durable, jobs, flow);
  }

  public PoolSettings withSupervision(SupervisionSettings settings) {
    return new PoolSettings(name, slots, backlogCapacity, interruption, maxAttempts,
        jobTimeoutMs, settings, selector, drainTimeoutMs, term, limits, hosts, durable, jobs, flow);
  }

  public PoolSettings withSelector(AffinitySelector newSelector) {
    return new PoolSettings(name, slots, backlogCapacity, interruption, maxAttempts,
        jobTimeoutMs, supervision, newSelector, drainTimeoutMs, term, limits, hosts, durable, jobs, flow);
  }

  public PoolSettings withDrainTimeoutMs(long timeoutMs) {
    return new PoolSettings(name, slots, backlogCapacity, interruption, maxAttempts,
        jobTimeoutMs, supervision, selector, timeoutMs, term, limits, hosts, durable, jobs, flow);
  }

  public PoolSettings withLimits(PoolLimits newLimits) {
    return new PoolSettings(name, slots, backlogCapacity, interruption, maxAttempts,
        jobTimeoutMs, supervision, selector, drainTimeoutMs, term, newLimits, hosts, durable, jobs, flow);
  }

  public PoolSettings withHosts(HostSettings newHosts) {
    return new PoolSettings(name, slots, backlogCapacity, interruption, maxAttempts,
        jobTimeoutMs, supervision, selector, drainTimeoutMs, term, limits, newHosts, durable, jobs, flow);
  }

  public PoolSettings withDurable(boolean isDurable) {
    return new PoolSettings(name, slots, backlogCapacity, interruption, maxAttempts,
        jobTimeoutMs, supervision, selector, drainTimeoutMs, term, limits, hosts, isDurable, jobs, flow);
  }

  public PoolSettings withTerm(long newTerm) {
    return new PoolSettings(name, slots, backlogCapacity, interruption, maxAttempts,
        jobTimeoutMs, supervision, selector, drainTimeoutMs, newTerm, limits, hosts, durable, jobs, flow);
  }

  public PoolSettings withJobs(JobSettings newJobs) {
    return new PoolSettings(name, slots, backlogCapacity, interruption, maxAttempts,
        jobTimeoutMs, supervision, selector, drainTimeoutMs, term, limits, hosts, durable,
        newJobs, flow);
  }

  public PoolSettings withFlow(FlowSettings newFlow) {
    return new PoolSettings(name, slots, backlogCapacity, interruption, maxAttempts,
        jobTimeoutMs, supervision, selector, drainTimeoutMs, term, limits, hosts, durable, jobs,
        newFlow);
  }
}
