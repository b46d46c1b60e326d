package dev.shepherd.core;

import static dev.shepherd.core.Fixture.outcomes;
import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Completion (P8): refusals, answers, and never answering twice. */
class CompletionTest {

  @Nested
  class Refusals {

    @Test
    void P8_completion_for_an_unknown_worker_is_refused_UNKNOWN_WORKER() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      assertThat(fx.refuse(new PoolEvent.Completed("w-9", fx.token("j1"), "r", null, 0)))
          .isEqualTo(new PoolError.UnknownWorker("w-9"));
    }

    @Test
    void P8_completion_for_an_idle_slot_is_refused_COMPLETION_FOR_UNAVAILABLE_WORKER() {
      Fixture fx = Fixture.pool(2).running();
      fx.submit("j1");
      PoolError error = fx.refuse(new PoolEvent.Completed("w-1", fx.token("j1"), "r", null, 0));
      assertThat(error)
          .isEqualTo(new PoolError.CompletionForUnavailableWorker("w-1", Phase.IDLE));
      assertThat(error.name()).isEqualTo("COMPLETION_FOR_UNAVAILABLE_WORKER");
    }

    @Test
    void P8_completion_for_an_installing_slot_is_refused_with_its_phase() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      long token = fx.token("j1");
      fx.crash("w-0");
      assertThat(fx.refuse(new PoolEvent.Completed("w-0", token, "r", null, 0)))
          .isEqualTo(new PoolError.CompletionForUnavailableWorker("w-0", Phase.INSTALLING));
    }

    @Test
    void P8_completion_with_a_token_the_slot_does_not_hold_is_STALE_with_expected_and_received() {
      Fixture fx = Fixture.pool(1).capacity(2).running();
      fx.submitAll("j1", "j2");
      long t1 = fx.token("j1");
      long t2 = fx.token("j2");
      PoolError error = fx.refuse(new PoolEvent.Completed("w-0", t2 + 10, "r", null, 0));
      assertThat(error).isEqualTo(new PoolError.StaleCompletion("w-0", List.of(t1, t2), t2 + 10));
      assertThat(error.name()).isEqualTo("STALE_COMPLETION");
      assertThat(error.message()).contains(String.valueOf(t2 + 10));
    }

    @Test
    void P8_completion_from_before_a_retry_is_refused_and_the_retry_still_answers() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      long first = fx.token("j1");
      fx.crash("w-0");
      fx.created("w-0");
      long second = fx.token("j1");
      assertThat(fx.refuse(new PoolEvent.Completed("w-0", first, "old", null, 0)))
          .isEqualTo(new PoolError.StaleCompletion("w-0", List.of(second), first));
      fx.complete("j1");
      assertThat(fx.terminal("j1")).isEqualTo(
          new Outcome.Completed("j1", Fixture.result("j1"), "w-0", 2));
    }
  }

  @Nested
  class Answers {

    @Test
    void P8_completion_answers_completed_with_result_worker_and_attempts() {
      Fixture fx = Fixture.pool(2).running();
      fx.submitAll("j1", "j2");
      long token = fx.token("j2");
      List<Effect> effects = fx.complete("j2");
      assertThat(effects).containsExactly(
          new Effect.CancelTimer(new Timer.JobDeadline("w-1", token)),
          new Effect.Respond(Fixture.reply("j2"),
              new Outcome.Completed("j2", Fixture.result("j2"), "w-1", 1)));
      assertThat(fx.pool.holds("j2")).isFalse();
      assertThat(fx.counters().completed()).isEqualTo(1);
    }

    @Test
    void P8_completion_frees_capacity_then_dispatches() {
      Fixture fx = Fixture.pool(1).running();
      fx.submitAll("j1", "j2");
      List<Effect> effects = fx.complete("j1");
      assertThat(effects.get(0)).isInstanceOf(Effect.CancelTimer.class);
      assertThat(effects.get(1)).isInstanceOf(Effect.Respond.class);
      assertThat(placed(effects)).containsExactly("j2@w-0");
    }

    @Test
    void P8_failed_future_answers_failed_is_not_retried_and_the_worker_stays_healthy() {
      Fixture fx = Fixture.pool(1).retry(3).running();
      fx.submitAll("j1", "j2");
      JobError error = new JobError(500, "bad input");
      List<Effect> effects = fx.failJob("j1", error);
      assertThat(outcomes(effects)).containsExactly(new Outcome.Failed("j1", error, "w-0", 1));
      assertThat(placed(effects)).containsExactly("j2@w-0");
      assertThat(fx.pool.incarnation("w-0")).isEqualTo(1);
      assertThat(Fixture.only(effects, Effect.Stop.class)).isEmpty();
      assertThat(fx.counters().failed()).isEqualTo(1);
      assertThat(fx.counters().retried()).isZero();
      assertThat(fx.pool.holds("j1")).isFalse();
    }

    @Test
    void P8_attempts_in_the_answer_count_dispatches() {
      Fixture fx = Fixture.pool(1).retry(5).running();
      fx.submit("j1");
      fx.crash("w-0");
      fx.created("w-0");
      fx.crash("w-0");
      fx.created("w-0");
      fx.complete("j1");
      assertThat(fx.terminal("j1")).isEqualTo(
          new Outcome.Completed("j1", Fixture.result("j1"), "w-0", 3));
    }
  }

  @Nested
  class Duplicates {

    @Test
    void P8_duplicate_completion_is_refused_and_never_answers_twice() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      long token = fx.token("j1");
      fx.complete("j1");
      assertThat(fx.refuse(new PoolEvent.Completed("w-0", token, "again", null, 0)))
          .isEqualTo(new PoolError.CompletionForUnavailableWorker("w-0", Phase.IDLE));
      assertThat(fx.outcomesFor("j1")).hasSize(2);
    }

    @Test
    void P8_duplicate_completion_while_the_slot_runs_the_next_job_is_stale() {
      Fixture fx = Fixture.pool(1).running();
      fx.submitAll("j1", "j2");
      long first = fx.token("j1");
      fx.complete("j1");
      assertThat(fx.refuse(new PoolEvent.Completed("w-0", first, "again", null, 0)))
          .isEqualTo(new PoolError.StaleCompletion("w-0", List.of(fx.token("j2")), first));
      assertThat(fx.pool.holds("j2")).isTrue();
      assertThat(fx.outcomesFor("j1")).extracting(Outcome::getClass)
          .containsExactly(Outcome.Accepted.class, Outcome.Completed.class);
    }

    @Test
    void P8_failed_then_duplicate_result_never_answers_twice() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      long token = fx.token("j1");
      fx.failJob("j1", new JobError(1, "no"));
      fx.refuse(new PoolEvent.Completed("w-0", token, "late", null, 0));
      assertThat(fx.terminal("j1")).isInstanceOf(Outcome.Failed.class);
    }
  }
}
