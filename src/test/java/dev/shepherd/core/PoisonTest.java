package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Jobs that fail or stop their workers (J1, J2): a failure is the job's, a crash or hang makes
 * the jobs running a suspect, a suspect runs alone and is poison at {@code poisonAfter} stops,
 * and the budget judges workers, not jobs.
 */
class PoisonTest {

  /** Poison after 2 stops, retried at once (no delay), so each step is one event. */
  static final JobSettings AT_ONCE = JobSettings.DEFAULT.withRetryBackoff(Backoff.NONE);

  @Nested
  class Failures {

    @Test
    void J1_a_failed_attempt_is_answered_failed_with_its_type_and_charges_nothing() {
      Fixture fx = Fixture.pool(1).jobs(AT_ONCE).running();
      fx.submitAll("a", "b");
      JobError error = new JobError(500, "no such user", "java.lang.IllegalArgumentException");
      List<Effect> effects = fx.failJob("a", error);
      assertThat(Fixture.outcomes(effects))
          .containsExactly(new Outcome.Failed("a", error, "w-0", 1));
      assertThat(Fixture.only(effects, Effect.Stop.class)).isEmpty();
      assertThat(placed(effects)).as("the worker serves the next job").containsExactly("b@w-0");
      assertThat(fx.counters().restarts()).isZero();
      assertThat(fx.snapshot().restartsInWindow()).isZero();
      assertThat(fx.slot("w-0").incarnation()).isEqualTo(1);
    }
  }

  @Nested
  class Suspects {

    @Test
    void J2_a_job_that_crashes_its_worker_twice_is_answered_POISON_and_dead_lettered() {
      Fixture fx = Fixture.pool(2).jobs(AT_ONCE).retry(5).running();
      fx.submit("bad");
      fx.crash(fx.workerOf("bad"));
      assertThat(fx.open()).contains("bad");
      String second = fx.workerOf("bad");
      List<Effect> effects = fx.crash(second);
      Interruption.WorkerStopped last = new Interruption.WorkerStopped(second, Exit.CRASH, "cause");
      assertThat(fx.interruptionOf("bad")).isEqualTo(new Interruption.Poison(2, last));
      assertThat(Fixture.notices(effects, Notice.DeadLettered.class))
          .containsExactly(new Notice.DeadLettered("bad", "POISON", second, 2, 1));
      assertThat(fx.pool.deadLetter("bad").attempts()).extracting(Attempt::ended)
          .containsExactly("CRASH", "CRASH");
      assertThat(fx.counters().poisoned()).isEqualTo(1);
    }

    @Test
    void J2_poison_is_judged_before_maxAttempts_whatever_it_says() {
      Fixture fx = Fixture.pool(1).jobs(AT_ONCE).retry(0).running();
      fx.submit("bad");
      fx.crash("w-0");
      fx.created("w-0");
      fx.crash("w-0");
      assertThat(fx.interruptionOf("bad")).isInstanceOf(Interruption.Poison.class);
    }

    @Test
    void J2_a_hang_past_the_job_timeout_makes_a_suspect_too() {
      Fixture fx = Fixture.pool(1).jobs(AT_ONCE).jobTimeout(100).running();
      fx.submit("slow");
      fx.tick(100);
      fx.created("w-0");
      fx.tick(fx.now() + 100);
      assertThat(fx.interruptionOf("slow")).isEqualTo(new Interruption.Poison(2,
          new Interruption.WorkerStopped("w-0", Exit.TIMEOUT,
              "job 'slow' ran past its timeout of 100 ms")));
    }

    @Test
    void J2_the_stop_while_a_suspect_runs_is_not_charged_to_the_budget() {
      Fixture fx = Fixture.pool(2).jobs(AT_ONCE).budget(1, 10_000).running();
      fx.submit("bad");
      List<Effect> first = fx.crash("w-0");
      assertThat(Fixture.notices(first, Notice.RestartDecided.class))
          .extracting(Notice.RestartDecided::charged).containsExactly(true);
      List<Effect> second = fx.crash("w-1");
      assertThat(Fixture.notices(second, Notice.RestartDecided.class))
          .extracting(Notice.RestartDecided::charged).containsExactly(false);
      assertThat(Fixture.notices(second, Notice.BudgetExceeded.class)).isEmpty();
      assertThat(fx.snapshot().restartsInWindow()).isEqualTo(1);
      assertThat(fx.counters().restarts()).as("both slots were replaced").isEqualTo(2);
      assertThat(fx.slot("w-1").phase()).isEqualTo(Phase.INSTALLING);
    }

    @Test
    void J2_a_worker_that_crashes_on_fresh_jobs_still_exhausts_the_budget() {
      Fixture fx = Fixture.pool(1).jobs(AT_ONCE).budget(2, 10_000).running();
      fx.submitAll("a", "b", "c");
      // Each fresh job's first crash is charged; its second (as a suspect) is not.
      for (String job : List.of("a", "a", "b", "b")) {
        assertThat(fx.workerOf(job)).isEqualTo("w-0");
        assertThat(Fixture.notices(fx.crash("w-0"), Notice.BudgetExceeded.class)).isEmpty();
        fx.created("w-0");
      }
      assertThat(fx.interruptionOf("a")).isInstanceOf(Interruption.Poison.class);
      assertThat(fx.interruptionOf("b")).isInstanceOf(Interruption.Poison.class);
      List<Effect> refused = fx.crash("w-0");
      assertThat(Fixture.notices(refused, Notice.BudgetExceeded.class)).singleElement()
          .satisfies(n -> assertThat(n.jobs()).containsExactly("c"));
      assertThat(fx.slot("w-0").phase()).isEqualTo(Phase.RETIRED);
    }

    @Test
    void J2_suspects_run_alone_on_a_slot_of_capacity_above_one() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 3)).jobs(AT_ONCE).running();
      fx.submitAll("a", "b", "c");
      List<Effect> crash = fx.crash("w-0");
      assertThat(placed(crash)).isEmpty();
      List<Effect> created = fx.created("w-0");
      assertThat(placed(created)).as("one suspect at a time").containsExactly("a@w-0");
      fx.submit("d");
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.ASSIGNED);
      assertThat(fx.snapshot().slots().get(0).inFlight()).isEqualTo(1);
      assertThat(placed(fx.complete("a"))).containsExactly("b@w-0");
      assertThat(placed(fx.complete("b"))).containsExactly("c@w-0");
      assertThat(placed(fx.complete("c"))).as("then the slot is shared again")
          .containsExactly("d@w-0");
    }

    @Test
    void J2_a_busy_slot_takes_nothing_more_until_it_can_run_a_waiting_suspect_alone() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 2), new SlotSpec("w-1", 2))
          .jobs(AT_ONCE).running();
      fx.submitAll("a", "b", "c", "d");
      fx.crash("w-0");
      assertThat(fx.pool.backlogLength()).as("a and b wait for an idle slot").isEqualTo(2);
      fx.submit("e");
      assertThat(fx.lookup("e").state()).isEqualTo(JobView.JobState.QUEUED);
      assertThat(placed(fx.complete("c"))).as("w-1 still runs d: nothing joins it")
          .isEmpty();
      assertThat(placed(fx.complete("d"))).containsExactly("a@w-1");
    }

    @Test
    void J2_P3_a_free_slot_keeping_room_for_its_keyed_suspect_leaves_a_job_to_another_free_one() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 2), new SlotSpec("w-1", 1))
          .jobs(JobSettings.DEFAULT).backlog(1).running();
      fx.submit("s", "w-0/k");
      fx.crash("w-0");
      fx.created("w-0");
      assertThat(placed(fx.submit("x", "w-0/j"))).as("s waits its retry delay")
          .containsExactly("x@w-0");
      long due = fx.timers().keySet().stream().filter(Timer.Due.class::isInstance)
          .mapToLong(timer -> ((Timer.Due) timer).at()).min().orElseThrow();
      assertThat(placed(fx.tick(due))).as("s waits for w-0 to be idle").isEmpty();
      assertThat(fx.lookup("s").state()).isEqualTo(JobView.JobState.QUEUED);
      assertThat(placed(fx.submit("u"))).as("the backlog is full, but w-1 takes u at once")
          .containsExactly("u@w-1");
    }

    @Test
    void J2_no_fault_of_its_own_makes_no_suspect() {
      Fixture fx = Fixture.pool(3).strategy(Strategy.ONE_FOR_ALL).jobs(AT_ONCE).running();
      fx.submitAll("a", "b");
      fx.stopped("w-0", Exit.NORMAL);
      for (String id : List.of("w-0", "w-1", "w-2")) {
        fx.created(id);
      }
      fx.crash(fx.workerOf("a"));
      assertThat(fx.open()).containsExactlyInAnyOrder("a", "b");
      assertThat(fx.pool.deadLetterCount()).isZero();
    }

    @Test
    void J2_poisonAfter_zero_judges_no_job_and_charges_every_stop() {
      Fixture fx = Fixture.pool(2).jobs(AT_ONCE.withPoisonAfter(0)).retry(0).running();
      fx.submit("bad");
      for (int i = 0; i < 4; i++) {
        fx.crash(fx.workerOf("bad"));
        for (String id : List.of("w-0", "w-1")) {
          if (fx.pool.phase(id) == Phase.INSTALLING) {
            fx.created(id);
          }
        }
      }
      assertThat(fx.open()).contains("bad");
      assertThat(fx.snapshot().restartsInWindow()).isEqualTo(4);
    }
  }
}
