package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** A worker incarnation stopped (P9), and the attempts limit of retried jobs (P13). */
class InterruptionTest {

  @Nested
  class Refusals {

    @Test
    void P9_stop_of_an_installing_slot_is_refused_WORKER_STOPPED_WHILE_UNAVAILABLE() {
      Fixture fx = Fixture.pool(1).started();
      PoolError error = fx.refuse(new PoolEvent.WorkerStopped("w-0", 1, Exit.CRASH, "x", 0));
      assertThat(error).isEqualTo(
          new PoolError.WorkerStoppedWhileUnavailable("w-0", Phase.INSTALLING));
      assertThat(error.name()).isEqualTo("WORKER_STOPPED_WHILE_UNAVAILABLE");
    }

    @Test
    void P9_stop_of_a_retired_slot_is_refused_WORKER_STOPPED_WHILE_UNAVAILABLE() {
      Fixture fx = Fixture.pool(2).started();
      fx.creationFailed("w-0");
      assertThat(fx.refuse(new PoolEvent.WorkerStopped("w-0", 1, Exit.CRASH, "x", 0)))
          .isEqualTo(new PoolError.WorkerStoppedWhileUnavailable("w-0", Phase.RETIRED));
    }

    @Test
    void P9_stop_reported_for_an_old_incarnation_is_refused_STALE_INCARNATION() {
      Fixture fx = Fixture.pool(1).running();
      fx.crash("w-0");
      fx.created("w-0");
      assertThat(fx.refuse(new PoolEvent.WorkerStopped("w-0", 1, Exit.CRASH, "x", 0)))
          .isEqualTo(new PoolError.StaleIncarnation("w-0", 2, 1));
    }

    @Test
    void P9_stop_of_an_unknown_worker_is_refused_UNKNOWN_WORKER() {
      Fixture fx = Fixture.pool(1).running();
      assertThat(fx.refuse(new PoolEvent.WorkerStopped("w-3", 1, Exit.CRASH, "x", 0)))
          .isEqualTo(new PoolError.UnknownWorker("w-3"));
    }
  }

  @Nested
  class Retry {

    @Test
    void P9_retry_puts_interrupted_jobs_first_in_original_order() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 3), new SlotSpec("w-1", 1))
          .retry(3).running();
      fx.submit("x", "w-1/k");
      fx.submitAll("j1", "j2", "j3", "q1", "q2");
      assertThat(fx.pool.backlogLength()).isEqualTo(2);
      List<Effect> crash = fx.crash("w-0");
      assertThat(Fixture.outcomes(crash)).isEmpty();
      assertThat(fx.pool.backlogLength()).isEqualTo(5);
      assertThat(fx.counters().retried()).isEqualTo(3);

      List<String> order = new ArrayList<>(placed(fx.complete("x")));
      order.addAll(placed(fx.created("w-0")));
      order.addAll(placed(fx.complete("j1")));
      assertThat(order).containsExactly("j1@w-1", "j2@w-0", "j3@w-0", "q1@w-0", "q2@w-1");
    }

    @Test
    void P9_each_interruption_puts_its_jobs_ahead_of_everything_queued() {
      Fixture fx = Fixture.pool(2).retry(5).running();
      fx.submitAll("a", "b", "q");
      fx.crash("w-0");
      fx.crash("w-1");
      List<String> order = new ArrayList<>(placed(fx.created("w-1")));
      order.addAll(placed(fx.created("w-0")));
      assertThat(order).containsExactly("b@w-1", "a@w-0");
      assertThat(placed(fx.complete("a"))).containsExactly("q@w-0");
    }

    @Test
    void P9_retried_job_runs_again_with_its_next_attempt() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      fx.crash("w-0");
      List<Effect> effects = fx.created("w-0");
      assertThat(Fixture.assigns(effects)).singleElement()
          .satisfies(a -> assertThat(a.attempt()).isEqualTo(2))
          .satisfies(a -> assertThat(a.payload()).isEqualTo(Fixture.payload("j1")));
    }
  }

  @Nested
  class Fail {

    @Test
    void P9_fail_answers_interrupted_WORKER_STOPPED_with_exit_cause_and_payload_in_order() {
      Fixture fx = Fixture.pool(1).capacity(2).failPolicy().running();
      fx.submitAll("j1", "j2", "j3");
      List<Effect> effects = fx.apply(
          new PoolEvent.WorkerStopped("w-0", 1, Exit.NODE_LOST, "node gone", 0));
      Interruption why = new Interruption.WorkerStopped("w-0", Exit.NODE_LOST, "node gone");
      assertThat(Fixture.outcomes(effects)).containsExactly(
          new Outcome.Interrupted("j1", Fixture.payload("j1"), 1, why),
          new Outcome.Interrupted("j2", Fixture.payload("j2"), 1, why));
      assertThat(fx.pool.holds("j3")).as("queued work is untouched").isTrue();
      assertThat(fx.counters().interrupted()).isEqualTo(2);
      assertThat(why.kind()).isEqualTo("WORKER_STOPPED");
    }
  }

  @Nested
  class SlotAfterStop {

    @Test
    void P9_stopped_slot_becomes_INSTALLING_and_the_supervisor_redeploys_it() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      List<Effect> effects = fx.at(10).crash("w-0");
      assertThat(Fixture.only(effects, Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-0", 1, Exit.CRASH));
      assertThat(Fixture.only(effects, Effect.Deploy.class))
          .containsExactly(new Effect.Deploy("w-0", 2));
      assertThat(Fixture.notices(effects)).containsExactly(
          new Notice.RestartDecided("w-0", Exit.CRASH, "cause", List.of("w-0"), 0,
              List.of("j1"), true),
          new Notice.PhaseChanged("w-0", Phase.INSTALLING, 2, null, null));
      assertThat(fx.slot("w-0").phase()).isEqualTo(Phase.INSTALLING);
      assertThat(fx.slot("w-0").incarnation()).isEqualTo(2);
      assertThat(fx.slot("w-0").restarts()).isEqualTo(1);
    }

    @Test
    void P9_stop_of_an_idle_slot_interrupts_nothing() {
      Fixture fx = Fixture.pool(2).running();
      List<Effect> effects = fx.crash("w-1");
      assertThat(Fixture.outcomes(effects)).isEmpty();
      assertThat(fx.counters().retried()).isZero();
      assertThat(fx.pool.phase("w-1")).isEqualTo(Phase.INSTALLING);
    }
  }

  @Nested
  class Attempts {

    @Test
    void P13_retry_job_interrupted_maxAttempts_times_is_answered_ATTEMPTS_EXHAUSTED() {
      Fixture fx = Fixture.pool(1).retry(2).running();
      fx.submit("j1");
      fx.crash("w-0");
      fx.created("w-0");
      List<Effect> effects = fx.apply(
          new PoolEvent.WorkerStopped("w-0", 2, Exit.TIMEOUT, "hung", 0));
      Interruption last = new Interruption.WorkerStopped("w-0", Exit.TIMEOUT, "hung");
      assertThat(Fixture.outcomes(effects)).containsExactly(new Outcome.Interrupted(
          "j1", Fixture.payload("j1"), 2, new Interruption.AttemptsExhausted(2, last)));
      assertThat(fx.pool.backlogLength()).isZero();
      assertThat(new Interruption.AttemptsExhausted(2, last).kind())
          .isEqualTo("ATTEMPTS_EXHAUSTED");
    }

    @Test
    void P13_default_limit_is_three_attempts() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      for (int i = 0; i < 2; i++) {
        fx.crash("w-0");
        fx.created("w-0");
        assertThat(fx.pool.holds("j1")).isTrue();
      }
      fx.crash("w-0");
      assertThat(fx.interruptionOf("j1")).isInstanceOf(Interruption.AttemptsExhausted.class);
    }

    @Test
    void P13_zero_max_attempts_retries_without_limit() {
      Fixture fx = Fixture.pool(1).retry(0).budget(100, 1000).running();
      fx.submit("j1");
      for (int i = 0; i < 10; i++) {
        fx.crash("w-0");
        fx.created("w-0");
      }
      assertThat(fx.pool.holds("j1")).isTrue();
      assertThat(fx.assignment("j1").attempt()).isEqualTo(11);
    }

    @Test
    void P13_an_exhausted_job_is_answered_while_its_younger_siblings_are_retried() {
      Fixture fx = Fixture.pool(1).capacity(2).retry(2).running();
      fx.submit("old");
      fx.crash("w-0");
      fx.created("w-0");
      fx.submit("young");
      List<Effect> effects = fx.crash("w-0");
      assertThat(Fixture.outcomes(effects)).singleElement()
          .satisfies(o -> assertThat(o.job()).isEqualTo("old"));
      assertThat(fx.pool.holds("young")).isTrue();
      assertThat(placed(fx.created("w-0"))).containsExactly("young@w-0");
    }

    @Test
    void P13_fail_policy_answers_on_the_first_interruption_whatever_the_limit() {
      Fixture fx = Fixture.pool(1).failPolicy().running();
      fx.submit("j1");
      fx.crash("w-0");
      assertThat(fx.interruptionOf("j1")).isInstanceOf(Interruption.WorkerStopped.class);
    }
  }
}
