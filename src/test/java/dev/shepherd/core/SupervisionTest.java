package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The supervisor's decision: restart policy by exit (S1) and the restart budget (S2). */
class SupervisionTest {

  @Nested
  class RestartPolicies {

    static Stream<Arguments> policyByExit() {
      Stream.Builder<Arguments> cases = Stream.builder();
      for (RestartPolicy policy : RestartPolicy.values()) {
        for (Exit exit : Exit.values()) {
          boolean restarts = switch (policy) {
            case PERMANENT -> true;
            case TRANSIENT -> exit != Exit.NORMAL;
            case TEMPORARY -> false;
          };
          cases.add(Arguments.of(policy, exit, restarts));
        }
      }
      return cases.build();
    }

    @ParameterizedTest(name = "{0} after {1}: replaced={2}")
    @MethodSource("policyByExit")
    void S1_policy_and_exit_decide_whether_the_slot_is_replaced(
        RestartPolicy policy, Exit exit, boolean replaced) {
      Fixture fx = Fixture.pool(2).policy(policy).running();
      List<Effect> effects = fx.stopped("w-0", exit);
      if (replaced) {
        assertThat(Fixture.only(effects, Effect.Deploy.class))
            .containsExactly(new Effect.Deploy("w-0", 2));
        assertThat(fx.slot("w-0").phase()).isEqualTo(Phase.INSTALLING);
        assertThat(fx.snapshot().restartsInWindow()).isEqualTo(1);
      } else {
        assertThat(Fixture.only(effects, Effect.Deploy.class)).isEmpty();
        assertThat(fx.slot("w-0").phase()).isEqualTo(Phase.RETIRED);
        assertThat(fx.slot("w-0").retirement()).isEqualTo(Retirement.REPLACEMENT_UNAVAILABLE);
        assertThat(fx.snapshot().restartsInWindow()).as("no budget used").isZero();
        assertThat(Fixture.notices(effects, Notice.BudgetExceeded.class)).isEmpty();
      }
    }

    @Test
    void S1_transient_slot_that_exits_normally_retires_without_touching_the_budget() {
      Fixture fx = Fixture.pool(2).policy(RestartPolicy.TRANSIENT).budget(0, 1000).running();
      fx.stopped("w-0", Exit.NORMAL);
      assertThat(fx.counters().budgetRefusals()).isZero();
      assertThat(fx.slot("w-0").retirement()).isEqualTo(Retirement.REPLACEMENT_UNAVAILABLE);
    }
  }

  @Nested
  class Budget {

    /** Crashes w-0 at each time, recreating it after each replacement. */
    private List<Effect> crashAt(Fixture fx, long... times) {
      List<Effect> last = List.of();
      for (long t : times) {
        if (fx.pool.phase("w-0") == Phase.INSTALLING) {
          fx.created("w-0");
        }
        last = fx.at(t).crash("w-0");
      }
      return last;
    }

    @Test
    void S2_replacements_up_to_maxRestarts_within_the_window_are_allowed() {
      Fixture fx = Fixture.pool(2).budget(3, 10_000).running();
      List<Effect> third = crashAt(fx, 0, 4000, 8000);
      assertThat(Fixture.only(third, Effect.Deploy.class))
          .containsExactly(new Effect.Deploy("w-0", 4));
      assertThat(fx.snapshot().restartsInWindow()).isEqualTo(3);
      assertThat(fx.counters().restarts()).isEqualTo(3);
    }

    @Test
    void S2_fourth_restart_within_window_is_refused_with_exact_record() {
      Fixture fx = Fixture.pool(2).budget(3, 10_000).running();
      List<Effect> effects = crashAt(fx, 0, 4000, 8000, 9000);
      assertThat(Fixture.notices(effects, Notice.BudgetExceeded.class)).containsExactly(
          new Notice.BudgetExceeded("w-0", 3, 1, 3, BudgetReaction.RETIRE_WORKER,
              Exit.CRASH, "cause", List.of(), 3));
      assertThat(Fixture.only(effects, Effect.Deploy.class)).isEmpty();
      assertThat(fx.slot("w-0").phase()).isEqualTo(Phase.RETIRED);
      assertThat(fx.counters().budgetRefusals()).isEqualTo(1);
      assertThat(fx.counters().restarts()).isEqualTo(3);
    }

    @Test
    void S2_a_restart_older_than_the_window_is_forgotten() {
      Fixture fx = Fixture.pool(2).budget(3, 10_000).running();
      List<Effect> effects = crashAt(fx, 0, 4000, 8000, 10_500);
      assertThat(Fixture.only(effects, Effect.Deploy.class))
          .containsExactly(new Effect.Deploy("w-0", 5));
      assertThat(fx.snapshot().restartsInWindow()).isEqualTo(3);
    }

    @Test
    void S2_a_restart_exactly_one_window_old_still_counts() {
      Fixture fx = Fixture.pool(2).budget(3, 10_000).running();
      List<Effect> effects = crashAt(fx, 0, 4000, 8000, 10_000);
      assertThat(Fixture.notices(effects, Notice.BudgetExceeded.class)).hasSize(1);
    }

    @Test
    void S2_an_infinite_window_never_forgets() {
      Fixture fx = Fixture.pool(2).budget(2, SupervisionSettings.INFINITE_WINDOW).running();
      List<Effect> effects = crashAt(fx, 0, 1_000_000_000L, 2_000_000_000L);
      assertThat(Fixture.notices(effects, Notice.BudgetExceeded.class)).containsExactly(
          new Notice.BudgetExceeded("w-0", 2, 1, 2, BudgetReaction.RETIRE_WORKER,
              Exit.CRASH, "cause", List.of(), 2));
    }

    @Test
    void S2_the_budget_is_shared_by_every_slot() {
      Fixture fx = Fixture.pool(3).budget(2, 10_000).running();
      fx.at(1).crash("w-0");
      fx.at(2).crash("w-1");
      List<Effect> effects = fx.at(3).crash("w-2");
      assertThat(Fixture.notices(effects, Notice.BudgetExceeded.class)).containsExactly(
          new Notice.BudgetExceeded("w-2", 2, 1, 2, BudgetReaction.RETIRE_WORKER,
              Exit.CRASH, "cause", List.of(), 0));
    }

    @Test
    void S2_max_restarts_zero_refuses_the_first_replacement() {
      Fixture fx = Fixture.pool(2).budget(0, 10_000).running();
      List<Effect> effects = fx.crash("w-1");
      assertThat(Fixture.notices(effects, Notice.BudgetExceeded.class)).containsExactly(
          new Notice.BudgetExceeded("w-1", 0, 1, 0, BudgetReaction.RETIRE_WORKER,
              Exit.CRASH, "cause", List.of(), 0));
    }

    @Test
    void S2_the_snapshot_reports_budget_use_as_time_passes() {
      Fixture fx = Fixture.pool(2).budget(5, 10_000).running();
      crashAt(fx, 100, 5000);
      PoolSnapshot now = fx.snapshot();
      assertThat(now.restartsInWindow()).isEqualTo(2);
      assertThat(now.maxRestarts()).isEqualTo(5);
      assertThat(now.windowMs()).isEqualTo(10_000);
      assertThat(fx.pool.snapshot(10_101).restartsInWindow()).isEqualTo(1);
      assertThat(fx.pool.snapshot(15_001).restartsInWindow()).isZero();
      assertThat(fx.slot("w-0").restarts()).isEqualTo(2);
    }

    @Test
    void S2_a_refused_restart_does_not_use_budget() {
      Fixture fx = Fixture.pool(3).budget(1, 10_000).running();
      fx.at(1).crash("w-0");
      fx.at(2).crash("w-1");
      assertThat(fx.snapshot().restartsInWindow()).isEqualTo(1);
      assertThat(Fixture.notices(fx.at(3).crash("w-2"), Notice.BudgetExceeded.class))
          .containsExactly(new Notice.BudgetExceeded("w-2", 1, 1, 1,
              BudgetReaction.RETIRE_WORKER, Exit.CRASH, "cause", List.of(), 0));
    }
  }
}
