package dev.shepherd.core;

import java.util.List;

/**
 * The pool's status as a plain value (the {@code .status} reply, the HTTP snapshot and the live
 * view's first frame), computed by a pure function of the pool's state. {@code backlogLength}
 * counts every job held in the backlog's bound, of which {@code backlogWaiting} wait for a due
 * time (J3, J4 in docs/rules.md); {@code nextDue} is the earliest of those (null when none waits);
 * {@code deadLetters} is the size of the dead-letter set (J5). {@code paused} and {@code
 * pausedSince} say whether and since when an operator paused the pool (F5); {@code groups} lists
 * the busiest groups by running + queued jobs (at most {@link FlowSettings#busiest()}, busiest
 * first, then by name) of the {@code groupCount} groups the pool knows (F1); {@code size} is the
 * size of the pool's own slots (F6), null where unknown. Its times are on the events' clock;
 * the runtime hands snapshots out in epoch milliseconds.
 */
public record PoolSnapshot(
    String name,
    PoolState state,
    int backlogLength,
    int backlogCapacity,
    List<SlotStatus> slots,
    Counters counters,
    int restartsInWindow,
    int maxRestarts,
    long windowMs,
    List<HostStatus> hosts,
    HaStatus ha,
    int backlogWaiting,
    Long nextDue,
    int deadLetters,
    boolean paused,
    Long pausedSince,
    List<GroupStatus> groups,
    int groupCount,
    PoolSize size) {

  public PoolSnapshot {
    groups = groups == null ? List.of() : List.copyOf(groups);
  }

  /** A snapshot without the size of the pool's own slots (F6 in docs/rules.md). */
  public PoolSnapshot(String name, PoolState state, int backlogLength, int backlogCapacity,
      List<SlotStatus> slots, Counters counters, int restartsInWindow, int maxRestarts,
      long windowMs, List<HostStatus> hosts, HaStatus ha, int backlogWaiting, Long nextDue,
      int deadLetters, boolean paused, Long pausedSince, List<GroupStatus> groups,
      int groupCount) {
    this(name, state, backlogLength, backlogCapacity, slots, counters, restartsInWindow,
        maxRestarts, windowMs, hosts, ha, backlogWaiting, nextDue, deadLetters, paused,
        pausedSince, groups, groupCount, null);
  }

  /** A snapshot of a pool that is not paused, knows no groups, and has no known size. */
  public PoolSnapshot(String name, PoolState state, int backlogLength, int backlogCapacity,
      List<SlotStatus> slots, Counters counters, int restartsInWindow, int maxRestarts,
      long windowMs, List<HostStatus> hosts, HaStatus ha, int backlogWaiting, Long nextDue,
      int deadLetters) {
    this(name, state, backlogLength, backlogCapacity, slots, counters, restartsInWindow,
        maxRestarts, windowMs, hosts, ha, backlogWaiting, nextDue, deadLetters, false, null,
        List.of(), 0, null);
  }

  /** A snapshot of a pool without high availability ({@code ha} null) or waiting jobs. */
  public PoolSnapshot(String name, PoolState state, int backlogLength, int backlogCapacity,
      List<SlotStatus> slots, Counters counters, int restartsInWindow, int maxRestarts,
      long windowMs, List<HostStatus> hosts) {
    this(name, state, backlogLength, backlogCapacity, slots, counters, restartsInWindow,
        maxRestarts, windowMs, hosts, null, 0, null, 0);
  }

  /** This snapshot with the pool's high-availability status (A1 in docs/rules.md). */
  public PoolSnapshot withHa(HaStatus status) {
    return new PoolSnapshot(name, state, backlogLength, backlogCapacity, slots, counters,
        restartsInWindow, maxRestarts, windowMs, hosts, status, backlogWaiting, nextDue,
        deadLetters, paused, pausedSince, groups, groupCount, size);
  }

  /**
   * One slot: {@code capacity} is -1 while unknown; {@code backoffUntil} only when BACKING_OFF;
   * {@code host} null for a slot of the pool's own.
   */
  public record SlotStatus(
      String id,
      Phase phase,
      int capacity,
      int inFlight,
      List<AssignmentStatus> assignments,
      int incarnation,
      int restarts,
      Retirement retirement,
      Long backoffUntil,
      String host) {}

  /**
   * One worker host (section 8.4 in docs/rules.md): its node, state, slots in slot order, and since
   * when.
   */
  public record HostStatus(String id, String node, HostState state, List<String> slots,
      long since) {}

  /** One live assignment of a slot. */
  public record AssignmentStatus(long assignment, String job) {}

  /**
   * One group (F1-F5 in docs/rules.md): its running jobs and its jobs held in the bound (queued or
   * waiting), its effective settings ({@code concurrency} and {@code queueCapacity} 0 = unlimited;
   * {@code rateLimit} null = none), whether and since when it is paused, and until when a
   * rate-limited answer holds it (null when it is not held).
   */
  public record GroupStatus(String name, int running, int queued, int concurrency,
      int queueCapacity, int weight, RateLimit rateLimit, boolean paused, Long pausedSince,
      Long heldUntil) {}
}
