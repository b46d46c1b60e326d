package dev.shepherd.core;

import static dev.shepherd.core.Fixture.notices;
import static dev.shepherd.core.Fixture.only;
import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bringing a retired slot back: an operator's revive, and {@code supervision.reviveAfterMs} (a
 * circuit breaker's half-open). Neither is a restart: S2's budget does not count them.
 */
class ReviveTest {

  @Test
  void S2_an_operator_revives_a_slot_the_budget_retired_without_charging_the_budget() {
    Fixture fx = Fixture.pool(2).budget(0, 10_000).running();
    fx.crash("w-0");
    assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.RETIRED);
    List<Effect> effects = fx.apply(new PoolEvent.Revive("w-0", fx.now()));
    assertThat(only(effects, Effect.Deploy.class)).containsExactly(new Effect.Deploy("w-0", 2));
    assertThat(notices(effects, Notice.Revived.class)).containsExactly(
        new Notice.Revived("w-0", 2, Retirement.REPLACEMENT_UNAVAILABLE, true));
    assertThat(fx.verdict()).as("what the operator is answered")
        .isEqualTo(new Transition.Verdict.Revived("w-0", 2));
    assertThat(fx.snapshot().restartsInWindow()).isZero();
    assertThat(fx.counters().revives()).isEqualTo(1);
    fx.created("w-0");
    fx.submitAll("a", "b");
    assertThat(fx.workerOf("a")).isEqualTo("w-0");
  }

  @Test
  void P2_a_slot_whose_creation_failed_can_be_revived() {
    Fixture fx = Fixture.pool(1).started();
    fx.creationFailed("w-0");
    fx.apply(new PoolEvent.Revive("w-0", 0));
    assertThat(placed(fx.created("w-0"))).isEmpty();
    assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.IDLE);
  }

  @Test
  void S2_a_revived_slot_that_fails_again_meets_the_budget_as_it_stands() {
    Fixture fx = Fixture.pool(2).budget(0, 10_000).running();
    fx.crash("w-0");
    fx.apply(new PoolEvent.Revive("w-0", 0));
    fx.created("w-0");
    fx.crash("w-0");
    assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.RETIRED);
  }

  @Test
  void P11_reviving_the_last_slot_lets_the_pool_accept_work_again() {
    Fixture fx = Fixture.pool(1).budget(0, 10_000).running();
    fx.crash("w-0");
    assertThat(Fixture.rejection(fx.submit("j1")).reason())
        .isEqualTo(RejectionReason.NO_RECOVERABLE_WORKERS);
    fx.apply(new PoolEvent.Revive("w-0", 0));
    assertThat(Fixture.outcomes(fx.submit("j2"))).containsExactly(new Outcome.Accepted("j2"));
  }

  @Test
  void a_revive_of_a_slot_that_is_not_retired_is_refused_and_changes_nothing() {
    Fixture fx = Fixture.pool(1).running();
    PoolError error = fx.refuse(new PoolEvent.Revive("w-0", 0));
    assertThat(error).isEqualTo(new PoolError.ReviveRefused("w-0", "it is IDLE, not retired"));
    assertThat(error.name()).isEqualTo("REVIVE_REFUSED");
    assertThat(fx.refuse(new PoolEvent.Revive("w-9", 0)))
        .isEqualTo(new PoolError.UnknownWorker("w-9"));
  }

  @Test
  void H7_a_slot_retired_HOST_LOST_comes_back_only_with_its_host() {
    Fixture fx = Fixture.pool(1).hostGrace(0).running();
    fx.hostUp("h1", 1, 1);
    fx.hostLost("h1");
    fx.tick(fx.now());
    assertThat(fx.refuse(new PoolEvent.Revive("h1/w-0", 0)).name()).isEqualTo("REVIVE_REFUSED");
  }

  @Test
  void S2_reviveAfterMs_tries_a_budget_retired_slot_again_after_that_long() {
    Fixture fx = Fixture.pool(2).budget(0, 10_000).reviveAfter(5_000).running();
    List<Effect> effects = fx.at(1_000).crash("w-0");
    assertThat(only(effects, Effect.StartTimer.class)).contains(
        new Effect.StartTimer(new Timer.Revive("w-0", 1), 6_000));
    assertThat(fx.tick(5_999)).isEmpty();
    List<Effect> revived = fx.tick(6_000);
    assertThat(notices(revived, Notice.Revived.class)).containsExactly(
        new Notice.Revived("w-0", 2, Retirement.REPLACEMENT_UNAVAILABLE, false));
    assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.INSTALLING);
  }

  @Test
  void S1_reviveAfterMs_does_not_revive_a_slot_its_restart_policy_retired() {
    Fixture fx = Fixture.pool(2).policy(RestartPolicy.TEMPORARY).reviveAfter(10).running();
    List<Effect> effects = fx.crash("w-0");
    assertThat(only(effects, Effect.StartTimer.class)).isEmpty();
    fx.tick(fx.now() + 100);
    assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.RETIRED);
  }

  @Test
  void a_revive_timer_for_a_slot_an_operator_already_revived_changes_nothing() {
    Fixture fx = Fixture.pool(2).budget(0, 10_000).reviveAfter(100).running();
    fx.crash("w-0");
    fx.apply(new PoolEvent.Revive("w-0", fx.now()));
    assertThat(fx.apply(new PoolEvent.TimerFired(new Timer.Revive("w-0", 1), 200))).isEmpty();
    assertThat(fx.counters().revives()).isEqualTo(1);
  }
}
