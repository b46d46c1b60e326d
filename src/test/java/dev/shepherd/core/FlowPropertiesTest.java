package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The property for section 11 (F1-F5 in docs/rules.md), over seeded random runs across 50
 * groups with random weights and limits: no group ever runs more than its concurrency; whenever
 * every group has work, starts follow the weights (within 10% of each group's weighted share over
 * 1,000 starts, or one start where 10% is less than one); FIFO within a group per priority level;
 * every accepted job is answered exactly once. A failure prints its seed; {@code
 * -Dshepherd.seed=<n>} replays it.
 */
@Execution(ExecutionMode.CONCURRENT)
class FlowPropertiesTest {
  private static final int GROUPS = 50;

  private static long[] seeds(String property, int runs) {
    Long fixed = Long.getLong("shepherd.seed");
    if (fixed != null) {
      return new long[] {fixed};
    }
    long[] seeds = new long[runs];
    for (int i = 0; i < runs; i++) {
      seeds[i] = SequenceRunner.seedOf(property, i);
    }
    return seeds;
  }

  @Test
  void F1_F3_F4_F5_groups_never_exceed_their_concurrency_stay_fifo_and_every_job_is_answered_once() {
    for (long seed : seeds("flow-limits", Math.min(60, SequenceRunner.runs()))) {
      try {
        limitsRun(seed);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("flow-limits failed with -Dshepherd.seed=" + seed + ": "
            + e.getMessage(), e);
      }
    }
  }

  private static void limitsRun(long seed) {
    Random random = new Random(seed);
    int slots = 1 + random.nextInt(5);
    Map<String, GroupSettings> overrides = new HashMap<>();
    Map<String, Integer> concurrency = new HashMap<>();
    for (int g = 0; g < GROUPS; g++) {
      int conc = random.nextInt(4);
      Integer cap = random.nextInt(3) == 0 ? 2 + random.nextInt(6) : null;
      RateLimit limit = random.nextInt(5) == 0 ? new RateLimit(1 + random.nextInt(3),
          1 + random.nextInt(200)) : null;
      overrides.put("g" + g, new GroupSettings(conc, cap, 1 + random.nextInt(5), limit, null));
      concurrency.put("g" + g, conc);
    }
    FlowSettings flow = FlowSettings.NONE.withGroups(overrides)
        .withPoolRateLimit(random.nextBoolean() ? null : new RateLimit(5, 50));
    Fixture fx = Fixture.pool(slots).capacity(1 + random.nextInt(3)).backlog(200).flow(flow)
        .running();
    Map<String, String> groupOf = new HashMap<>();
    Map<String, Integer> priorityOf = new HashMap<>();
    Map<String, Long> acceptOrder = new HashMap<>();
    Map<String, String> targetOf = new HashMap<>();
    Map<String, Integer> running = new HashMap<>();
    Map<String, Long> lastFirstStart = new HashMap<>();
    Map<String, String> runningJobs = new LinkedHashMap<>();
    java.util.Set<String> started = new java.util.HashSet<>();
    long accepted = 0;
    for (int step = 0; step < 600; step++) {
      int op = random.nextInt(10);
      List<Effect> effects;
      if (op < 4) {
        String job = "j" + step;
        String group = random.nextInt(8) == 0 ? null : "g" + random.nextInt(GROUPS);
        int priority = random.nextInt(3) * 4;
        String key = random.nextInt(4) == 0 ? "w-" + random.nextInt(slots) + "/k" + step : null;
        effects = fx.submitIn(job, group, key, priority);
        if (Fixture.outcomes(effects).stream().anyMatch(o -> o instanceof Outcome.Accepted)) {
          groupOf.put(job, group);
          priorityOf.put(job, priority);
          acceptOrder.put(job, accepted++);
          targetOf.put(job, key == null ? null : key.substring(0, key.indexOf('/')));
        }
      } else if (op < 7 && !runningJobs.isEmpty()) {
        String job = new ArrayList<>(runningJobs.keySet()).get(random.nextInt(runningJobs.size()));
        effects = random.nextInt(6) == 0 ? fx.rateLimited(job, random.nextInt(100))
            : fx.complete(job);
        running.merge(String.valueOf(groupOf.get(job)), -1, Integer::sum);
        runningJobs.remove(job);
      } else if (op == 7) {
        String group = "g" + random.nextInt(GROUPS);
        effects = random.nextBoolean() ? fx.pause(group) : fx.resume(group);
      } else if (op == 8) {
        effects = random.nextInt(4) == 0 ? fx.pause(null) : fx.resume(null);
      } else {
        effects = fx.tick(fx.now() + random.nextInt(60));
      }
      for (Effect.Assign a : Fixture.assigns(effects)) {
        String job = a.job();
        String group = groupOf.get(job);
        int now = running.merge(String.valueOf(group), 1, Integer::sum);
        runningJobs.put(job, group);
        if (group != null && concurrency.get(group) > 0) {
          assertThat(now).as("F1 group %s runs at most %d", group, concurrency.get(group))
              .isLessThanOrEqualTo(concurrency.get(group));
        }
        if (started.add(job)) {
          String lane = group + "/" + priorityOf.get(job) + "/" + targetOf.get(job);
          Long previous = lastFirstStart.put(lane, acceptOrder.get(job));
          assertThat(previous == null || previous < acceptOrder.get(job))
              .as("F2 FIFO within %s: %s started after a later job", lane, job).isTrue();
        }
      }
    }
    fx.resume(null);
    fx.stopRequested();
    for (String job : new ArrayList<>(runningJobs.keySet())) {
      if (fx.pool.holds(job) || fx.open().contains(job)) {
        fx.complete(job);
      }
    }
    fx.tick(fx.now() + 100_000);
    assertThat(fx.open()).as("every accepted job is answered exactly once").isEmpty();
  }

  @Test
  void F2_starts_follow_the_weights_whenever_every_group_has_work() {
    for (long seed : seeds("flow-fairness", fairnessRuns())) {
      try {
        fairnessRun(seed);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("flow-fairness failed with -Dshepherd.seed=" + seed + ": "
            + e.getMessage(), e);
      }
    }
  }

  /**
   * A fairness run submits 55,000 jobs: a fiftieth of the property runs, between 1 and 20 (20 at
   * the default 1,000; 1 under the mutation profile's 20, where it runs for every mutant its lines
   * reach).
   */
  private static int fairnessRuns() {
    return Math.max(1, Math.min(20, SequenceRunner.runs() / 50));
  }

  private static void fairnessRun(long seed) {
    Random random = new Random(seed);
    Map<String, GroupSettings> overrides = new HashMap<>();
    int[] weights = new int[GROUPS];
    int total = 0;
    for (int g = 0; g < GROUPS; g++) {
      weights[g] = 1 + random.nextInt(5);
      total += weights[g];
      overrides.put("g" + g, new GroupSettings(null, null, weights[g], null, null));
    }
    int slots = 1 + random.nextInt(4);
    Fixture fx = Fixture.pool(slots).backlog(100_000)
        .flow(FlowSettings.NONE.withGroups(overrides)).bulk().running();
    Map<String, Integer> groupOf = new HashMap<>();
    List<Effect.Assign> runningJobs = new ArrayList<>();
    // Enough work that every group has some through the 1,000 starts counted.
    for (int i = 0; i < 1100; i++) {
      for (int g = 0; g < GROUPS; g++) {
        String job = "g" + g + "-" + i;
        groupOf.put(job, g);
        runningJobs.addAll(Fixture.assigns(fx.submitIn(job, "g" + g, random.nextInt(10))));
      }
    }
    int[] starts = new int[GROUPS];
    for (int n = 0; n < 1000; n++) {
      Effect.Assign done = runningJobs.remove(random.nextInt(runningJobs.size()));
      List<Effect.Assign> next = Fixture.assigns(fx.apply(new PoolEvent.Completed(done.worker(),
          done.assignment(), "ok", null, fx.now())));
      assertThat(next).hasSize(1);
      runningJobs.add(next.get(0));
      starts[groupOf.get(next.get(0).job())]++;
    }
    for (int g = 0; g < GROUPS; g++) {
      double share = 1000.0 * weights[g] / total;
      assertThat(Math.abs(starts[g] - share))
          .as("F2 group g%d of weight %d: %d starts of 1000, share %.2f", g, weights[g],
              starts[g], share)
          .isLessThanOrEqualTo(Math.max(0.1 * share, 1.0));
    }
  }
}
