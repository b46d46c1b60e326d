package dev.shepherd.core;

import static dev.shepherd.core.Fixture.outcomes;
import static dev.shepherd.core.Fixture.placed;
import static dev.shepherd.core.Fixture.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Which slots are replaced together (S3) and what happens when the budget says no (S4). */
class StrategyTest {

  private static Interruption sibling(String worker, String dead) {
    return new Interruption.WorkerStopped(
        worker, Exit.SIBLING_RESTART, "sibling '" + dead + "' stopped (CRASH)");
  }

  @Nested
  class Strategies {

    @Test
    void S3_one_for_one_replaces_only_the_stopped_slot() {
      Fixture fx = Fixture.pool(3).strategy(Strategy.ONE_FOR_ONE).running();
      fx.submitAll("a", "b", "c");
      List<Effect> effects = fx.crash("w-1");
      assertThat(Fixture.only(effects, Effect.Deploy.class))
          .containsExactly(new Effect.Deploy("w-1", 2));
      assertThat(Fixture.only(effects, Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-1", 1, Exit.CRASH));
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.ASSIGNED);
      assertThat(fx.pool.phase("w-2")).isEqualTo(Phase.ASSIGNED);
    }

    @Test
    void S3_one_for_all_replaces_every_live_slot_interrupting_siblings_with_SIBLING_RESTART() {
      Fixture fx = Fixture.pool(4).strategy(Strategy.ONE_FOR_ALL).failPolicy().started();
      fx.creationFailed("w-3");
      fx.created("w-0");
      fx.created("w-1");
      fx.created("w-2");
      fx.submitAll("a", "b", "c");
      List<Effect> effects = fx.crash("w-1");
      assertThat(Fixture.only(effects, Effect.Stop.class)).containsExactly(
          new Effect.Stop("w-1", 1, Exit.CRASH),
          new Effect.Stop("w-0", 1, Exit.SIBLING_RESTART),
          new Effect.Stop("w-2", 1, Exit.SIBLING_RESTART));
      assertThat(outcomes(effects)).containsExactly(
          new Outcome.Interrupted("a", Fixture.payload("a"), 1, sibling("w-0", "w-1")),
          new Outcome.Interrupted("b", Fixture.payload("b"), 1,
              new Interruption.WorkerStopped("w-1", Exit.CRASH, "cause")),
          new Outcome.Interrupted("c", Fixture.payload("c"), 1, sibling("w-2", "w-1")));
      assertThat(Fixture.notices(effects, Notice.RestartDecided.class)).containsExactly(
          new Notice.RestartDecided("w-1", Exit.CRASH, "cause", List.of("w-0", "w-1", "w-2"), 0,
              List.of("b"), true));
      assertThat(Fixture.only(effects, Effect.Deploy.class)).containsExactly(
          new Effect.Deploy("w-0", 2), new Effect.Deploy("w-1", 2), new Effect.Deploy("w-2", 2));
      assertThat(fx.slot("w-3").phase()).as("retired slots stay retired").isEqualTo(Phase.RETIRED);
      assertThat(fx.snapshot().slots()).extracting(PoolSnapshot.SlotStatus::restarts)
          .containsExactly(1, 1, 1, 0);
      assertThat(fx.counters().restarts()).isEqualTo(3);
    }

    @Test
    void S3_rest_for_one_replaces_the_stopped_slot_and_every_slot_started_after_it() {
      Fixture fx = Fixture.pool(4).strategy(Strategy.REST_FOR_ONE).failPolicy().running();
      fx.submitAll("a", "b", "c", "d");
      List<Effect> effects = fx.crash("w-1");
      assertThat(Fixture.only(effects, Effect.Deploy.class)).containsExactly(
          new Effect.Deploy("w-1", 2), new Effect.Deploy("w-2", 2), new Effect.Deploy("w-3", 2));
      assertThat(outcomes(effects)).extracting(Outcome::job).containsExactly("b", "c", "d");
      assertThat(fx.interruptionOf("d")).isEqualTo(sibling("w-3", "w-1"));
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.ASSIGNED);
      assertThat(fx.pool.holds("a")).isTrue();
      assertThat(fx.snapshot().restartsInWindow()).isEqualTo(3);
    }

    @Test
    void S3_sibling_jobs_are_retried_first_in_their_original_order() {
      Fixture fx = Fixture.pool(2).strategy(Strategy.ONE_FOR_ALL).retry(3).running();
      fx.submitAll("a", "b", "q");
      List<Effect> effects = fx.crash("w-1");
      assertThat(outcomes(effects)).isEmpty();
      assertThat(fx.counters().retried()).isEqualTo(2);
      List<String> order = new ArrayList<>(placed(fx.created("w-1")));
      order.addAll(placed(fx.created("w-0")));
      assertThat(order).containsExactly("a@w-1", "b@w-0");
    }

    @Test
    void S3_an_installing_sibling_is_replaced_by_a_fresh_incarnation() {
      Fixture fx = Fixture.pool(2).strategy(Strategy.ONE_FOR_ALL).started();
      fx.created("w-0");
      List<Effect> effects = fx.crash("w-0");
      assertThat(Fixture.only(effects, Effect.Stop.class)).contains(
          new Effect.Stop("w-1", 1, Exit.SIBLING_RESTART));
      assertThat(Fixture.only(effects, Effect.Deploy.class)).contains(new Effect.Deploy("w-1", 2));
      assertThat(fx.refuse(new PoolEvent.WorkerCreated("w-1", 1, 0)))
          .isEqualTo(new PoolError.StaleIncarnation("w-1", 2, 1));
    }

    @Test
    void S3_every_replaced_slot_counts_against_the_budget() {
      Fixture fx = Fixture.pool(3).strategy(Strategy.ONE_FOR_ALL).budget(5, 10_000).running();
      fx.crash("w-0");
      assertThat(fx.snapshot().restartsInWindow()).isEqualTo(3);
      for (String id : List.of("w-0", "w-1", "w-2")) {
        fx.created(id);
      }
      fx.submitAll("a", "b");
      List<Effect> effects = fx.at(1).crash("w-2");
      assertThat(Fixture.notices(effects, Notice.BudgetExceeded.class)).containsExactly(
          new Notice.BudgetExceeded("w-2", 3, 3, 5, BudgetReaction.RETIRE_WORKER,
              Exit.CRASH, "cause", List.of(), 1));
      assertThat(Fixture.only(effects, Effect.Stop.class))
          .as("a refused decision touches no sibling")
          .containsExactly(new Effect.Stop("w-2", 2, Exit.CRASH));
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.ASSIGNED);
      assertThat(fx.pool.phase("w-2")).isEqualTo(Phase.RETIRED);
    }
  }

  @Nested
  class BudgetReactions {

    @Test
    void S4_RETIRE_WORKER_retires_only_the_stopped_slot_and_its_queued_jobs_end_AFFINITY_RETIRED() {
      Fixture fx = Fixture.pool(2).budget(0, 10_000).failPolicy().running();
      fx.submit("a", "w-0/k");
      fx.submit("k2", "w-0/k");
      fx.submit("b");
      fx.crash("w-0");
      assertThat(fx.slot("w-0").retirement()).isEqualTo(Retirement.REPLACEMENT_UNAVAILABLE);
      assertThat(fx.interruptionOf("k2")).isEqualTo(
          new Interruption.AffinityRetired("w-0", Retirement.REPLACEMENT_UNAVAILABLE));
      assertThat(fx.pool.phase("w-1")).isEqualTo(Phase.ASSIGNED);
      assertThat(fx.pool.state()).isEqualTo(PoolState.RUNNING);
      assertThat(outcomes(fx.submit("c"))).containsExactly(new Outcome.Accepted("c"));
    }

    @Test
    void S4_RETIRE_WORKER_on_the_last_slot_leaves_no_recoverable_worker() {
      Fixture fx = Fixture.pool(1).budget(0, 10_000).running();
      fx.submitAll("a", "q");
      fx.crash("w-0");
      assertThat(fx.interruptionOf("q")).isEqualTo(new Interruption.NoRecoverableWorkers());
      assertThat(rejection(fx.submit("later")).reason())
          .isEqualTo(RejectionReason.NO_RECOVERABLE_WORKERS);
    }

    @Test
    void S4_STOP_POOL_stops_the_pool_at_once_without_drain() {
      Fixture fx = Fixture.pool(2).budget(0, 10_000).onBudgetExceeded(BudgetReaction.STOP_POOL)
          .retry(3).drain(60_000).running();
      fx.submitAll("a", "b", "q");
      List<Effect> effects = fx.crash("w-0");
      assertThat(Fixture.notices(effects, Notice.BudgetExceeded.class)).containsExactly(
          new Notice.BudgetExceeded("w-0", 0, 1, 0, BudgetReaction.STOP_POOL,
              Exit.CRASH, "cause", List.of("a"), 0));
      Interruption stopped = new Interruption.PoolStopped();
      assertThat(outcomes(effects)).containsExactlyInAnyOrder(
          new Outcome.Interrupted("a", Fixture.payload("a"), 1, stopped),
          new Outcome.Interrupted("b", Fixture.payload("b"), 1, stopped),
          new Outcome.Interrupted("q", Fixture.payload("q"), 0, stopped));
      assertThat(Fixture.only(effects, Effect.StartTimer.class)).as("no drain").isEmpty();
      assertThat(Fixture.only(effects, Effect.Stop.class))
          .contains(new Effect.Stop("w-1", 1, Exit.NORMAL));
      assertThat(Fixture.notices(effects)).contains(
          new Notice.PoolStateChanged(PoolState.STOPPED));
      assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
      assertThat(fx.pool.unanswered()).isZero();
      assertThat(rejection(fx.submit("later")).reason()).isEqualTo(RejectionReason.SHUTTING_DOWN);
    }

    @Test
    void S4_STOP_POOL_under_FAIL_answers_the_stopped_slots_jobs_WORKER_STOPPED_as_P9_says() {
      Fixture fx = Fixture.pool(2).budget(0, 10_000).onBudgetExceeded(BudgetReaction.STOP_POOL)
          .failPolicy().running();
      fx.submitAll("a", "b");
      fx.crash("w-0");
      assertThat(fx.interruptionOf("a"))
          .isEqualTo(new Interruption.WorkerStopped("w-0", Exit.CRASH, "cause"));
      assertThat(fx.interruptionOf("b")).isEqualTo(new Interruption.PoolStopped());
    }
  }
}
