package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Job timeouts (P14): a Tick past an assignment's deadline stops the hung incarnation. */
class JobTimeoutTest {

  @Nested
  class Deadline {

    @Test
    void P14_tick_past_the_deadline_stops_the_incarnation_with_TIMEOUT_and_P9_applies() {
      Fixture fx = Fixture.pool(1).jobTimeout(1000).running();
      fx.at(100).submit("j1");
      List<Effect> effects = fx.tick(1100);
      assertThat(Fixture.only(effects, Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-0", 1, Exit.TIMEOUT));
      assertThat(Fixture.only(effects, Effect.Deploy.class))
          .containsExactly(new Effect.Deploy("w-0", 2));
      assertThat(Fixture.notices(effects, Notice.RestartDecided.class)).singleElement()
          .satisfies(n -> assertThat(n.exit()).isEqualTo(Exit.TIMEOUT))
          .satisfies(n -> assertThat(n.cause()).contains("j1").contains("1000"));
      assertThat(fx.pool.holds("j1")).as("RETRY puts it back").isTrue();
      assertThat(placed(fx.created("w-0"))).containsExactly("j1@w-0");
    }

    @Test
    void P14_tick_before_the_deadline_changes_nothing() {
      Fixture fx = Fixture.pool(1).jobTimeout(1000).running();
      fx.at(100).submit("j1");
      assertThat(fx.tick(1099)).isEmpty();
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.ASSIGNED);
    }

    @Test
    void P14_fail_policy_answers_interrupted_with_exit_TIMEOUT_naming_the_job() {
      Fixture fx = Fixture.pool(1).jobTimeout(50).failPolicy().running();
      fx.submit("j1");
      fx.tick(50);
      Interruption why = fx.interruptionOf("j1");
      assertThat(why).isInstanceOf(Interruption.WorkerStopped.class);
      Interruption.WorkerStopped stopped = (Interruption.WorkerStopped) why;
      assertThat(stopped.exit()).isEqualTo(Exit.TIMEOUT);
      assertThat(stopped.worker()).isEqualTo("w-0");
      assertThat(stopped.cause()).contains("j1");
    }

    @Test
    void P14_only_the_slot_holding_the_late_job_is_stopped() {
      Fixture fx = Fixture.pool(2).jobTimeout(1000).running();
      fx.at(0).submit("early");
      fx.at(500).submit("late");
      List<Effect> effects = fx.tick(1000);
      assertThat(Fixture.only(effects, Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-0", 1, Exit.TIMEOUT));
      assertThat(fx.pool.phase("w-1")).isEqualTo(Phase.ASSIGNED);
    }

    @Test
    void P14_a_completion_before_the_tick_wins() {
      Fixture fx = Fixture.pool(1).jobTimeout(10).running();
      fx.submit("j1");
      fx.at(500).complete("j1");
      assertThat(fx.tick(600)).isEmpty();
      assertThat(fx.terminal("j1")).isInstanceOf(Outcome.Completed.class);
    }

    @Test
    void P14_each_attempt_gets_a_fresh_deadline() {
      Fixture fx = Fixture.pool(1).jobTimeout(100).budget(10, 100_000).running();
      fx.submit("j1");
      fx.tick(100);
      fx.at(150).created("w-0");
      assertThat(fx.tick(249)).isEmpty();
      assertThat(Fixture.only(fx.tick(250), Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-0", 2, Exit.TIMEOUT));
    }
  }

  @Nested
  class PerSubmit {

    @Test
    void P14_a_per_submit_timeout_overrides_the_pool_default_shorter_or_longer() {
      Fixture fx = Fixture.pool(2).jobTimeout(1000).failPolicy().running();
      fx.submitWithTimeout("short", 10);
      fx.submitWithTimeout("long", 5000);
      fx.tick(10);
      assertThat(fx.interruptionOf("short")).isInstanceOf(Interruption.WorkerStopped.class);
      fx.tick(4999);
      assertThat(fx.pool.holds("long")).isTrue();
      fx.tick(5000);
      assertThat(fx.interruptionOf("long")).isInstanceOf(Interruption.WorkerStopped.class);
    }

    @Test
    void P14_without_any_timeout_a_job_may_run_forever() {
      Fixture fx = Fixture.pool(1).jobTimeout(0).running();
      fx.submit("j1");
      assertThat(fx.tick(Long.MAX_VALUE / 2)).isEmpty();
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.ASSIGNED);
    }

    @Test
    void P14_per_submit_timeout_applies_even_when_the_pool_has_none() {
      Fixture fx = Fixture.pool(1).jobTimeout(0).running();
      fx.submitWithTimeout("j1", 30);
      assertThat(Fixture.only(fx.tick(30), Effect.Stop.class)).hasSize(1);
    }
  }
}
