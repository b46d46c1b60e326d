package dev.shepherd.core;

import static dev.shepherd.core.Fixture.outcomes;
import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Cancel (P17): queued jobs leave at once; running ones keep their capacity until they end. */
class CancelTest {

  @Nested
  class Queued {

    @Test
    void P17_cancel_of_a_queued_job_answers_cancelled_and_it_never_runs() {
      Fixture fx = Fixture.pool(1).running();
      fx.submitAll("j1", "j2", "j3");
      List<Effect> effects = fx.cancel("j2");
      assertThat(effects).containsExactly(
          new Effect.Respond(Fixture.reply("j2"), new Outcome.Cancelled("j2")));
      assertThat(fx.pool.backlogLength()).isEqualTo(1);
      assertThat(fx.pool.holds("j2")).isFalse();
      assertThat(placed(fx.complete("j1"))).containsExactly("j3@w-0");
      assertThat(fx.counters().cancelled()).isEqualTo(1);
    }

    @Test
    void P17_cancel_of_a_queued_keyed_job_frees_its_place_for_the_next_of_that_key() {
      Fixture fx = Fixture.pool(2).backlog(1).running();
      fx.submit("a", "w-0/k");
      fx.submit("b", "w-0/k");
      fx.cancel("b");
      assertThat(outcomes(fx.submit("c", "w-0/k"))).containsExactly(new Outcome.Accepted("c"));
      assertThat(placed(fx.complete("a"))).containsExactly("c@w-0");
    }

    @Test
    void P17_cancel_of_a_queued_retried_job_is_not_retried_again() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      fx.crash("w-0");
      fx.cancel("j1");
      assertThat(placed(fx.created("w-0"))).isEmpty();
      assertThat(fx.terminal("j1")).isEqualTo(new Outcome.Cancelled("j1"));
    }
  }

  @Nested
  class Running {

    @Test
    void P17_cancel_of_a_running_job_answers_cancelled_and_discards_its_later_completion() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      assertThat(outcomes(fx.cancel("j1"))).containsExactly(new Outcome.Cancelled("j1"));
      List<Effect> late = fx.complete("j1");
      assertThat(outcomes(late)).isEmpty();
      assertThat(fx.outcomesFor("j1"))
          .containsExactly(new Outcome.Accepted("j1"), new Outcome.Cancelled("j1"));
      assertThat(fx.counters().completed()).isZero();
    }

    @Test
    void P17_a_cancelled_running_job_keeps_its_capacity_until_its_completion() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      fx.cancel("j1");
      List<Effect> effects = fx.submit("j2");
      assertThat(placed(effects)).isEmpty();
      assertThat(fx.slot("w-0").inFlight()).isEqualTo(1);
      assertThat(fx.slot("w-0").phase()).isEqualTo(Phase.ASSIGNED);
      assertThat(placed(fx.complete("j1"))).containsExactly("j2@w-0");
    }

    @Test
    void P17_a_cancelled_running_job_frees_its_capacity_when_the_slot_stops_and_is_not_retried() {
      Fixture fx = Fixture.pool(1).retry(3).running();
      fx.submit("j1");
      fx.submit("j2");
      fx.cancel("j1");
      List<Effect> effects = fx.crash("w-0");
      assertThat(outcomes(effects)).isEmpty();
      assertThat(fx.counters().retried()).isZero();
      assertThat(placed(fx.created("w-0"))).containsExactly("j2@w-0");
      assertThat(fx.outcomesFor("j1")).hasSize(2);
    }

    @Test
    void P17_a_cancelled_running_jobs_id_is_free_and_its_old_completion_spares_the_new_job() {
      Fixture fx = Fixture.pool(2).running();
      fx.submit("j1");
      long old = fx.token("j1");
      fx.cancel("j1");
      fx.submit("j1");
      assertThat(fx.workerOf("j1")).isEqualTo("w-1");
      fx.complete("w-0", old);
      assertThat(fx.pool.holds("j1")).isTrue();
      fx.complete("j1");
      assertThat(fx.outcomesFor("j1")).extracting(Outcome::getClass).containsExactly(
          Outcome.Accepted.class, Outcome.Cancelled.class,
          Outcome.Accepted.class, Outcome.Completed.class);
    }
  }

  @Nested
  class Unknown {

    @Test
    void P17_cancel_of_an_unknown_or_answered_job_changes_nothing() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      fx.complete("j1");
      PoolSnapshot before = fx.snapshot();
      assertThat(fx.cancel("j1")).isEmpty();
      assertThat(fx.cancel("never")).isEmpty();
      assertThat(fx.snapshot()).isEqualTo(before);
    }

    @Test
    void P17_cancel_twice_answers_once() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      fx.cancel("j1");
      assertThat(fx.cancel("j1")).isEmpty();
      assertThat(fx.terminal("j1")).isEqualTo(new Outcome.Cancelled("j1"));
    }
  }

  @Nested
  class Verdicts {

    @Test
    void P17_a_cancel_that_answers_a_job_says_so_in_its_verdict() {
      Fixture fx = Fixture.pool(1).running();
      fx.submitAll("j1", "j2");
      fx.cancel("j2");
      assertThat(fx.verdict()).isEqualTo(new Transition.Verdict.Cancelled("j2"));
      fx.cancel("j1");
      assertThat(fx.verdict()).as("running").isEqualTo(new Transition.Verdict.Cancelled("j1"));
    }

    @Test
    void P17_a_cancel_of_a_job_already_answered_or_unknown_has_no_verdict() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      fx.complete("j1");
      fx.cancel("j1");
      assertThat(fx.verdict()).isEqualTo(Transition.Verdict.NONE);
      fx.cancel("nobody");
      assertThat(fx.verdict()).isEqualTo(Transition.Verdict.NONE);
    }
  }
}
