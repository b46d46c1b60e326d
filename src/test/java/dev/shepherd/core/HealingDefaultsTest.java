package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Defaults that heal (J7) and incidents that tell the truth (J8): with the shipped defaults no
 * pool stays without workers because of what its jobs did, and a retirement names the numbers
 * and the job.
 */
class HealingDefaultsTest {

  /** The shipped supervision: 5 restarts in 10 s, retire, backoff from 200 ms, probes after 10 s. */
  static Fixture.Builder shipped(int slots) {
    return Fixture.pool(slots).jobs(JobSettings.DEFAULT).retry(3).jobTimeout(30_000)
        .budget(5, 10_000).backoff(new BackoffSettings(200, 30_000, 2.0, 0.2, 30_000, 42))
        .reviveAfter(10_000, 300_000);
  }

  @Nested
  class Trickle {

    /**
     * The incident of issue 15, in simulated time: four slots, a job every 250 ms of which one in
     * fifteen crashes whatever runs it, good jobs taking 50 ms. On the shipped defaults every
     * good job completes, every bad one is POISON after two stops, no slot retires and the
     * budget is never exceeded.
     */
    @Test
    void J7_a_trickle_of_crashing_jobs_on_the_shipped_defaults_keeps_every_slot() {
      Fixture fx = shipped(4).running();
      Map<String, Boolean> bad = trickle(fx, 240);
      assertThat(fx.open()).as("everything answered").isEmpty();
      for (Map.Entry<String, Boolean> job : bad.entrySet()) {
        Outcome outcome = fx.terminal(job.getKey());
        if (job.getValue()) {
          assertThat(((Outcome.Interrupted) outcome).reason())
              .isInstanceOf(Interruption.Poison.class);
        } else {
          assertThat(outcome).as(job.getKey()).isInstanceOf(Outcome.Completed.class);
        }
      }
      assertThat(Fixture.notices(fx.log(), Notice.BudgetExceeded.class)).isEmpty();
      assertThat(Fixture.notices(fx.log(), Notice.PhaseChanged.class))
          .noneMatch(p -> p.phase() == Phase.RETIRED);
      assertThat(fx.pool.deadLetterCount()).isEqualTo(16);
    }

    /** The same trickle with the rules before section 10: the pool lost every slot. */
    @Test
    void J7_the_same_trickle_under_the_seeds_rules_alone_retires_the_whole_pool() {
      Fixture fx = Fixture.pool(4).retry(3).budget(5, 10_000).running();
      trickle(fx, 240);
      assertThat(Fixture.outcomes(fx.log())).filteredOn(Outcome.Rejected.class::isInstance)
          .map(o -> ((Outcome.Rejected) o).reason())
          .contains(RejectionReason.NO_RECOVERABLE_WORKERS);
      assertThat(fx.snapshot().slots()).extracting(PoolSnapshot.SlotStatus::phase)
          .containsOnly(Phase.RETIRED);
    }

    /**
     * Runs the trickle of {@code jobs} jobs and a minute more, reporting facts as a runtime
     * would (creations 20 ms after a deploy; a bad job's crash 10 ms, a good job's completion
     * 50 ms after its assignment); returns which jobs were bad.
     */
    private Map<String, Boolean> trickle(Fixture fx, int jobs) {
      Map<Long, List<PoolEvent>> facts = new TreeMap<>();
      Map<String, Boolean> bad = new HashMap<>();
      int seen = 0;
      for (long t = 0; t <= jobs * 250L + 60_000; t += 5) {
        fx.tick(t);
        if (t % 250 == 0 && t / 250 < jobs) {
          String job = "j" + t / 250;
          bad.put(job, (t / 250) % 15 == 7);
          fx.submit(job);
        }
        for (PoolEvent fact : facts.getOrDefault(t, List.of())) {
          if (stillApplies(fx, fact)) {
            fx.apply(fact);
          }
        }
        facts.remove(t);
        List<Effect> log = fx.log();
        for (; seen < log.size(); seen++) {
          Effect effect = log.get(seen);
          if (effect instanceof Effect.Assign a) {
            boolean crashes = bad.get(a.job());
            long at = t + (crashes ? 10 : 50);
            facts.computeIfAbsent(at, k -> new ArrayList<>()).add(crashes
                ? new PoolEvent.WorkerStopped(a.worker(), fx.pool.incarnation(a.worker()),
                    Exit.CRASH, "boom", at)
                : new PoolEvent.Completed(a.worker(), a.assignment(), "ok", null, at));
          } else if (effect instanceof Effect.Deploy d) {
            facts.computeIfAbsent(t + 20, k -> new ArrayList<>())
                .add(new PoolEvent.WorkerCreated(d.worker(), d.incarnation(), t + 20));
          }
        }
      }
      return bad;
    }

    /** Whether a scheduled fact still applies (its incarnation or assignment is current). */
    private boolean stillApplies(Fixture fx, PoolEvent fact) {
      if (fact instanceof PoolEvent.WorkerStopped s) {
        return fx.pool.incarnation(s.worker()) == s.incarnation()
            && fx.pool.phase(s.worker()) == Phase.ASSIGNED;
      } else if (fact instanceof PoolEvent.WorkerCreated c) {
        return fx.pool.incarnation(c.worker()) == c.incarnation()
            && fx.pool.phase(c.worker()) == Phase.INSTALLING;
      }
      PoolEvent.Completed c = (PoolEvent.Completed) fact;
      return fx.snapshot().slots().stream().anyMatch(slot -> slot.assignments().stream()
          .anyMatch(a -> a.assignment() == c.assignment()));
    }
  }

  @Nested
  class Revives {

    @Test
    void J7_a_retired_slot_is_probed_again_and_the_wait_doubles_while_probes_fail() {
      Fixture fx = Fixture.pool(1).budget(0, 10_000).reviveAfter(1_000, 3_000).running();
      fx.crash("w-0");
      assertThat(fx.timers()).containsValue(1_000L);
      fx.tick(1_000);
      assertThat(fx.slot("w-0").phase()).isEqualTo(Phase.INSTALLING);
      fx.created("w-0");
      fx.crash("w-0");
      assertThat(fx.timers()).as("the probe failed: twice as long").containsValue(3_000L);
      fx.tick(3_000);
      fx.created("w-0");
      fx.crash("w-0");
      assertThat(fx.timers()).as("capped at reviveMaxMs").containsValue(6_000L);
    }

    @Test
    void J7_a_probe_that_completes_a_job_is_well_again() {
      Fixture fx = Fixture.pool(1).budget(0, 10_000).reviveAfter(1_000, 8_000).running();
      fx.crash("w-0");
      fx.tick(1_000);
      fx.created("w-0");
      fx.crash("w-0");
      fx.tick(3_000);
      fx.created("w-0");
      fx.submit("a");
      fx.complete("a");
      fx.crash("w-0");
      assertThat(fx.timers()).containsValue(4_000L);
    }

    @Test
    void J7_reviveAfterMs_zero_keeps_a_slot_retired_until_an_operator_revives_it() {
      Fixture fx = Fixture.pool(1).budget(0, 10_000).running();
      fx.crash("w-0");
      assertThat(fx.timers()).isEmpty();
      fx.tick(1_000_000);
      assertThat(fx.slot("w-0").phase()).isEqualTo(Phase.RETIRED);
    }
  }

  @Nested
  class Incidents {

    @Test
    void J8_a_budget_refusal_says_the_pools_numbers_the_slots_own_restarts_and_the_job() {
      Fixture fx = Fixture.pool(2).budget(2, 10_000).running();
      fx.crash("w-0");
      fx.created("w-0");
      fx.crash("w-0");
      fx.created("w-0");
      fx.submit("j17");
      fx.submit("j18");
      List<Effect> effects = fx.apply(new PoolEvent.WorkerStopped("w-1", 1, Exit.CRASH, "boom",
          fx.now()));
      assertThat(Fixture.notices(effects, Notice.BudgetExceeded.class)).containsExactly(
          new Notice.BudgetExceeded("w-1", 2, 1, 2, BudgetReaction.RETIRE_WORKER, Exit.CRASH,
              "boom", List.of("j18"), 0));
      assertThat(fx.slot("w-1").restarts()).as("its own restarts are its own").isZero();
      assertThat(fx.snapshot().restartsInWindow()).as("the pool's").isEqualTo(2);
    }

    @Test
    void J8_a_restart_names_the_jobs_its_stop_interrupted() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 2)).running();
      fx.submitAll("a", "b");
      List<Effect> effects = fx.crash("w-0");
      assertThat(Fixture.notices(effects, Notice.RestartDecided.class))
          .extracting(Notice.RestartDecided::jobs).containsExactly(List.of("a", "b"));
    }
  }
}
