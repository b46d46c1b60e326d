package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Random pool settings and the event mixes (profiles) the property tests run. */
final class PoolScenarios {
  private PoolScenarios() {}

  // Weights per mille, in PoolDriver.Kind order:
  //   SUBMIT COMPLETE COMPLETE_BAD CREATE CREATE_FAIL CREATE_BAD STOP STOP_BAD TICK CANCEL
  //   REBALANCE CAPACITY REGISTER DEREGISTER STOP_REQUESTED HOST_REGISTER HOST_LOST
  //   HOST_DEREGISTER REVIVE FAILOVER RECOVER_BAD REPLAY DISCARD HOST_HEARD
  //   SET_GROUP PAUSE RESUME RATE_LIMITED RESIZE PROGRESS
  static final PoolDriver.Profile MIXED = profile("mixed",
      new int[] {300, 130, 30, 80, 4, 20, 35, 20, 140, 30, 20, 40, 15, 8, 0, 10, 6, 3, 8, 0, 0, 8, 4, 10, 0, 0, 0, 0, 12, 25}, 30);
  static final PoolDriver.Profile KEYED = profile("keyed",
      new int[] {330, 130, 20, 70, 3, 10, 30, 10, 120, 30, 80, 20, 15, 8, 0, 0, 0, 0, 0, 0, 0, 8, 4, 0, 0, 0, 0, 0, 12, 25}, 85);
  static final PoolDriver.Profile SUPERVISION = profile("supervision",
      new int[] {260, 120, 20, 110, 8, 30, 80, 40, 200, 20, 10, 10, 15, 8, 0, 0, 0, 0, 15, 0, 0, 8, 4, 0, 0, 0, 0, 0, 12, 25}, 30);
  static final PoolDriver.Profile CAPACITY = profile("capacity",
      new int[] {300, 130, 30, 60, 4, 20, 30, 20, 120, 20, 20, 90, 60, 40, 0, 0, 0, 0, 0, 0, 0, 8, 4, 0, 0, 0, 0, 0, 12, 25}, 40);
  static final PoolDriver.Profile SHUTDOWN = profile("shutdown",
      new int[] {300, 130, 30, 80, 4, 20, 35, 20, 140, 30, 20, 40, 15, 8, 4, 10, 6, 3, 5, 0, 0, 8, 4, 10, 0, 0, 0, 0, 10, 25}, 30);
  /** Worker hosts coming, being lost, coming back and leaving, with keyed and unkeyed work. */
  static final PoolDriver.Profile HOSTS = profile("hosts",
      new int[] {300, 130, 20, 90, 4, 15, 30, 15, 140, 25, 30, 15, 5, 3, 0, 60, 45, 12, 3, 0, 0, 8, 4, 80, 0, 0, 0, 0, 10, 25}, 50);

  /**
   * A durable pool (A3) whose coordinator is replaced now and then: jobs queued, running and
   * keyed, hosts coming and going, taken over by the next term from the records.
   */
  static final PoolDriver.Profile DURABLE = profile("durable",
      new int[] {300, 130, 20, 90, 4, 15, 30, 15, 140, 25, 30, 15, 3, 2, 2, 40, 25, 6, 3, 12, 3, 8, 4, 40, 0, 0, 0, 0, 12, 25},
      50);

  /**
   * Section 11 (F1-F5): submits in a few groups at random priorities, keyed and not, under random
   * group defaults, overrides, rate limits and aging; operators set groups, pause and resume the
   * pool or a group; handlers answer "rate limited"; durable pools fail over now and then; the
   * pool's own slots are resized (F6) under all of it.
   */
  static final PoolDriver.Profile FLOW = profile("flow",
      new int[] {300, 110, 20, 80, 4, 15, 30, 15, 150, 25, 20, 15, 5, 3, 2, 0, 0, 0, 3, 8, 0, 6, 3,
          0, 30, 25, 35, 40, 12, 25}, 35);

  private static PoolDriver.Profile profile(String name, int[] weights, int keyed) {
    return new PoolDriver.Profile(name, weights, keyed);
  }

  /**
   * Settings across the space: 1-6 slots of capacity 1-3 (some unknown), backlog 0-8, FAIL or
   * RETRY, maxAttempts 0-3, every policy, strategy and reaction, budgets from 0 (the first stop is
   * already over it) with short, long and infinite windows, optional backoff and job timeouts.
   */
  static PoolSettings settings(SplittableRandom rnd, PoolDriver.Profile profile) {
    boolean hostsOnly = (profile == HOSTS || profile == DURABLE) && rnd.nextInt(3) > 0;
    boolean durable = profile == DURABLE || rnd.nextInt(4) == 0;
    int count = hostsOnly ? rnd.nextInt(3) : 1 + rnd.nextInt(6);
    List<SlotSpec> slots = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Integer capacity = rnd.nextInt(100) < 12 ? null : 1 + rnd.nextInt(3);
      slots.add(new SlotSpec("w-" + i, capacity));
    }
    boolean supervision = profile == SUPERVISION;
    BackoffSettings backoff = null;
    if (rnd.nextInt(100) < (supervision ? 60 : 35)) {
      long initial = 1 + rnd.nextInt(20);
      backoff = new BackoffSettings(initial, initial + rnd.nextInt(200), 1.0 + rnd.nextInt(3) * 0.5,
          rnd.nextInt(3) * 0.5, 1 + rnd.nextInt(300), rnd.nextLong());
    }
    int budgetDraw = rnd.nextInt(10);
    int maxRestarts =
        budgetDraw == 0 ? 0 : budgetDraw < 4 ? 1 + rnd.nextInt(2) : 3 + rnd.nextInt(8);
    long window = switch (rnd.nextInt(4)) {
      case 0 -> 1 + rnd.nextInt(20);
      case 1 -> 50 + rnd.nextInt(500);
      case 2 -> 100_000;
      default -> SupervisionSettings.INFINITE_WINDOW;
    };
    long revive = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(300) : 0;
    SupervisionSettings supervisionSettings = new SupervisionSettings(
        policy(rnd),
        Strategy.values()[rnd.nextInt(Strategy.values().length)],
        maxRestarts, window,
        rnd.nextInt(4) == 0 ? BudgetReaction.STOP_POOL : BudgetReaction.RETIRE_WORKER, backoff,
        revive, revive * (1 + rnd.nextInt(4)));
    AffinitySelector selector = switch (rnd.nextInt(3)) {
      case 0 -> Selectors.rendezvous();
      case 1 -> Selectors.roundRobin();
      default -> Selectors.leastLoaded();
    };
    return new PoolSettings(
        "p",
        slots,
        rnd.nextInt(9),
        rnd.nextBoolean() ? InterruptionPolicy.RETRY : InterruptionPolicy.FAIL,
        rnd.nextInt(4),
        rnd.nextInt(100) < 40 ? 5 + rnd.nextInt(150) : 0,
        supervisionSettings,
        selector,
        rnd.nextInt(5) == 0 ? 0 : 1 + rnd.nextInt(100),
        rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(5) : 0,
        limits(rnd),
        new HostSettings(hostsOnly, rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(300),
            1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 100_000 : 400)),
        durable, jobs(rnd), profile == FLOW ? flow(rnd) : FlowSettings.NONE);
  }

  /**
   * Section 11 across its space: group defaults from unlimited to tight, overrides for some of the
   * driver's groups (some paused), an occasional pool rate limit, aging now and then, and
   * rejecting while paused a quarter of the time.
   */
  private static FlowSettings flow(SplittableRandom rnd) {
    GroupDefaults defaults = new GroupDefaults(rnd.nextInt(3), rnd.nextInt(3) == 0 ? 0
        : 1 + rnd.nextInt(4), 1 + rnd.nextInt(3), rnd.nextInt(4) == 0
            ? new RateLimit(1 + rnd.nextInt(3), 1 + rnd.nextInt(50)) : null);
    java.util.Map<String, GroupSettings> groups = new java.util.HashMap<>();
    for (int g = 0; g < PoolDriver.GROUPS; g++) {
      if (rnd.nextBoolean()) {
        groups.put("g" + g, new GroupSettings(rnd.nextBoolean() ? null : rnd.nextInt(3),
            rnd.nextBoolean() ? null : rnd.nextInt(4), rnd.nextBoolean() ? null
                : 1 + rnd.nextInt(4), rnd.nextInt(4) == 0
                    ? new RateLimit(1 + rnd.nextInt(2), 1 + rnd.nextInt(40)) : null,
            rnd.nextInt(6) == 0 ? Boolean.TRUE : null));
      }
    }
    return new FlowSettings(defaults, groups, rnd.nextInt(5) == 0
        ? new RateLimit(1 + rnd.nextInt(4), 1 + rnd.nextInt(30)) : null,
        rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(50) : 0, rnd.nextInt(4) == 0,
        rnd.nextInt(4) == 0 ? 2 : FlowSettings.DEFAULT_BUSIEST);
  }

  /**
   * Section 10 across its space: off a quarter of the time (the seed's rules), otherwise poison
   * after 1-3 stops (or never), retry delays from none to short, failure retries now and then,
   * delays up to 80 ms, and dead-letter and recent-outcome bounds from none to a few entries.
   */
  private static JobSettings jobs(SplittableRandom rnd) {
    if (rnd.nextInt(4) == 0) {
      return JobSettings.NONE;
    }
    Backoff retryBackoff = rnd.nextInt(3) == 0 ? Backoff.NONE
        : new Backoff(1 + rnd.nextInt(30), 1.0 + rnd.nextInt(3) * 0.5, 30 + rnd.nextInt(100),
            rnd.nextInt(3) * 0.25);
    FailureRetry failures = rnd.nextInt(3) == 0
        ? new FailureRetry(2 + rnd.nextInt(2), rnd.nextBoolean() ? Backoff.NONE
            : new Backoff(1 + rnd.nextInt(20), 2.0, 60, 0.5))
        : FailureRetry.NONE;
    return new JobSettings(rnd.nextInt(4), retryBackoff, failures, rnd.nextInt(3) == 0 ? 0 : 80,
        new Retention(rnd.nextInt(5), rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(30) : Long.MAX_VALUE),
        rnd.nextBoolean(),
        new Retention(rnd.nextInt(6), rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(30) : Long.MAX_VALUE),
        rnd.nextLong(), rnd.nextInt(3) == 0 ? 20 + rnd.nextInt(120) : 0);
  }

  /**
   * A3, J5, J6: the settings of the coordinator that replaces one running {@code s}: the next
   * term, and dead-letter and recent-outcome bounds changed across the takeover, halved into an
   * even term and grown into an odd one (what keeps nothing still keeps nothing), so recovered
   * pools meet images holding more than they may keep.
   */
  static PoolSettings successor(PoolSettings s) {
    long term = s.term() + 1;
    boolean smaller = term % 2 == 0;
    JobSettings jobs = s.jobs();
    return s.withTerm(term).withJobs(jobs
        .withDeadLetter(changed(jobs.deadLetter(), smaller), jobs.deadLetterFailed())
        .withRecentOutcomes(changed(jobs.recentOutcomes(), smaller)));
  }

  private static Retention changed(Retention r, boolean smaller) {
    if (r.capacity() == 0) {
      return r;
    }
    long bytes = r.maxBytes() == Long.MAX_VALUE ? Long.MAX_VALUE
        : smaller ? Math.max(1, r.maxBytes() / 2) : r.maxBytes() * 2;
    return new Retention(smaller ? r.capacity() / 2 : r.capacity() * 2, bytes);
  }

  /** Byte budgets from tight to none; idle-binding limits from forgetting at once to never. */
  private static PoolLimits limits(SplittableRandom rnd) {
    long bytes = rnd.nextInt(3) == 0 ? Long.MAX_VALUE : 1 + rnd.nextInt(60);
    int idle = rnd.nextInt(3) == 0 ? 10_000 : rnd.nextInt(4);
    int rebalanced = rnd.nextInt(3) == 0 ? 10_000 : rnd.nextInt(4);
    return new PoolLimits(bytes, idle, rebalanced);
  }

  /** PERMANENT half the time: TEMPORARY retires a slot on its first stop. */
  private static RestartPolicy policy(SplittableRandom rnd) {
    int draw = rnd.nextInt(10);
    return draw < 5 ? RestartPolicy.PERMANENT : draw < 8 ? RestartPolicy.TRANSIENT
        : RestartPolicy.TEMPORARY;
  }

  /** Events per sequence: 100 to 300. */
  static int length(SplittableRandom rnd) {
    return 100 + rnd.nextInt(201);
  }

  /** A short description of settings for failure messages. */
  static String describe(PoolSettings s) {
    SupervisionSettings v = s.supervision();
    return "slots=" + s.slots() + " backlog=" + s.backlogCapacity() + " " + s.interruption()
        + " maxAttempts=" + s.maxAttempts() + " jobTimeoutMs=" + s.jobTimeoutMs() + " drainMs="
        + s.drainTimeoutMs() + " term=" + s.term() + " supervision=" + v.policy() + "/"
        + v.strategy() + " max=" + v.maxRestarts() + " windowMs=" + v.restartWindowMs() + " "
        + v.onBudgetExceeded() + " backoff=" + v.backoff() + " revive=" + v.reviveAfterMs() + "/" + v.reviveMaxMs() + " limits=" + s.limits()
        + " hosts=" + s.hosts() + " durable=" + s.durable() + " jobs=" + s.jobs()
        + " flow=" + s.flow();
  }
}
