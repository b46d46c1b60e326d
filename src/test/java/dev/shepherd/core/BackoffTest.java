package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Restart backoff (S5): BACKING_OFF until a Tick at backoffUntil deploys the replacement. */
class BackoffTest {

  /** 100 ms doubling to at most 500 ms, no jitter, reset after 5 s of running. */
  private static final BackoffSettings PLAIN = new BackoffSettings(100, 500, 2.0, 0.0, 5000, 42);

  private static Fixture.Builder pool(int slots, BackoffSettings backoff) {
    return Fixture.pool(slots).backoff(backoff).budget(100, 1_000_000);
  }

  /** Crashes w-0 at {@code at}, returns the decided delay, and lets the replacement run. */
  private static long crashAndRecover(Fixture fx, long at) {
    List<Effect> effects = fx.at(at).crash("w-0");
    long delay = Fixture.notices(effects, Notice.RestartDecided.class).get(0).delayMs();
    fx.tick(at + delay);
    fx.created("w-0");
    return delay;
  }

  @Nested
  class Waiting {

    @Test
    void S5_without_backoff_the_replacement_is_deployed_at_once() {
      Fixture fx = Fixture.pool(1).running();
      List<Effect> effects = fx.at(1000).crash("w-0");
      assertThat(Fixture.only(effects, Effect.StartTimer.class)).isEmpty();
      assertThat(Fixture.only(effects, Effect.Deploy.class)).hasSize(1);
      assertThat(Fixture.notices(effects, Notice.RestartDecided.class).get(0).delayMs()).isZero();
    }

    @Test
    void S5_a_delayed_slot_is_BACKING_OFF_with_backoffUntil_in_snapshot_and_notice() {
      Fixture fx = pool(1, PLAIN).running();
      List<Effect> effects = fx.at(1000).crash("w-0");
      assertThat(effects).containsExactly(
          new Effect.Stop("w-0", 1, Exit.CRASH),
          new Effect.Publish(new Notice.RestartDecided(
              "w-0", Exit.CRASH, "cause", List.of("w-0"), 100)),
          new Effect.StartTimer(new Timer.BackoffEnd("w-0", 1100), 1100),
          new Effect.Publish(new Notice.PhaseChanged("w-0", Phase.BACKING_OFF, 1, 1100L, null)));
      PoolSnapshot.SlotStatus slot = fx.slot("w-0");
      assertThat(slot.phase()).isEqualTo(Phase.BACKING_OFF);
      assertThat(slot.backoffUntil()).isEqualTo(1100L);
      assertThat(slot.incarnation()).isEqualTo(1);
    }

    @Test
    void S5_the_replacement_is_deployed_by_the_tick_at_backoffUntil() {
      Fixture fx = pool(1, PLAIN).running();
      fx.at(1000).crash("w-0");
      assertThat(fx.tick(1099)).isEmpty();
      assertThat(fx.tick(1100)).containsExactly(
          new Effect.Deploy("w-0", 2),
          new Effect.Publish(new Notice.PhaseChanged("w-0", Phase.INSTALLING, 2, null, null)));
      assertThat(fx.slot("w-0").backoffUntil()).isNull();
      assertThat(fx.tick(2000)).as("deployed once").isEmpty();
    }

    @Test
    void S5_a_backing_off_slot_takes_no_work_and_its_keyed_jobs_wait_for_it() {
      Fixture fx = pool(2, PLAIN).running();
      fx.submit("k1", "w-0/k");
      fx.complete("k1");
      fx.at(10).crash("w-0");
      assertThat(placed(fx.submit("k2", "w-0/k"))).isEmpty();
      assertThat(placed(fx.submit("u"))).containsExactly("u@w-1");
      fx.tick(110);
      assertThat(placed(fx.created("w-0"))).containsExactly("k2@w-0");
    }

    @Test
    void S5_stop_or_creation_facts_for_a_backing_off_slot_are_refused() {
      Fixture fx = pool(1, PLAIN).running();
      fx.crash("w-0");
      assertThat(fx.refuse(new PoolEvent.WorkerStopped("w-0", 1, Exit.CRASH, "x", 0)))
          .isEqualTo(new PoolError.WorkerStoppedWhileUnavailable("w-0", Phase.BACKING_OFF));
      assertThat(fx.refuse(new PoolEvent.WorkerCreated("w-0", 1, 0)))
          .isEqualTo(new PoolError.CreationResolvedWhileUnavailable("w-0", Phase.BACKING_OFF));
    }

    @Test
    void S5_one_for_all_backs_off_every_replaced_slot() {
      Fixture fx = pool(2, PLAIN).strategy(Strategy.ONE_FOR_ALL).running();
      List<Effect> effects = fx.at(50).crash("w-1");
      assertThat(Fixture.only(effects, Effect.Stop.class)).containsExactly(
          new Effect.Stop("w-1", 1, Exit.CRASH), new Effect.Stop("w-0", 1, Exit.SIBLING_RESTART));
      assertThat(fx.snapshot().slots()).extracting(PoolSnapshot.SlotStatus::phase)
          .containsOnly(Phase.BACKING_OFF);
      assertThat(Fixture.only(fx.tick(150), Effect.Deploy.class)).containsExactly(
          new Effect.Deploy("w-0", 2), new Effect.Deploy("w-1", 2));
    }

    @Test
    void S5_a_pool_stopped_during_backoff_deploys_nothing() {
      Fixture fx = pool(1, PLAIN).running();
      fx.crash("w-0");
      fx.stopRequested();
      assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
      assertThat(fx.tick(1000)).isEmpty();
    }
  }

  @Nested
  class Delays {

    @Test
    void S5_delays_grow_by_the_multiplier_up_to_maxMs() {
      Fixture fx = pool(1, PLAIN).running();
      List<Long> delays = new ArrayList<>();
      long t = 0;
      for (int i = 0; i < 5; i++) {
        long delay = crashAndRecover(fx, t + 10);
        delays.add(delay);
        t = fx.now();
      }
      assertThat(delays).containsExactly(100L, 200L, 400L, 500L, 500L);
    }

    @Test
    void S5_the_delay_resets_after_the_slot_ran_resetAfterMs_without_stopping() {
      Fixture fx = pool(1, PLAIN).running();
      crashAndRecover(fx, 10);
      crashAndRecover(fx, fx.now() + 10);
      long createdAt = fx.now();
      assertThat(crashAndRecover(fx, createdAt + 5000)).isEqualTo(100);
    }

    @Test
    void S5_the_delay_keeps_growing_while_the_slot_runs_less_than_resetAfterMs() {
      Fixture fx = pool(1, PLAIN).running();
      crashAndRecover(fx, 10);
      crashAndRecover(fx, fx.now() + 10);
      long createdAt = fx.now();
      assertThat(crashAndRecover(fx, createdAt + 4999)).isEqualTo(400);
    }

    @Test
    void S5_a_delayed_replacement_counts_against_the_budget_when_decided() {
      Fixture fx = Fixture.pool(2).backoff(PLAIN).budget(1, 100_000).running();
      fx.at(10).crash("w-0");
      assertThat(fx.snapshot().restartsInWindow()).isEqualTo(1);
      List<Effect> effects = fx.at(20).crash("w-1");
      assertThat(Fixture.notices(effects, Notice.BudgetExceeded.class)).containsExactly(
          new Notice.BudgetExceeded("w-1", 1, 1, 1, BudgetReaction.RETIRE_WORKER,
              Exit.CRASH, "cause", List.of(), 0));
    }

    private List<Long> delays(BackoffSettings backoff) {
      Fixture fx = pool(1, backoff).running();
      List<Long> delays = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        delays.add(crashAndRecover(fx, fx.now() + 1));
      }
      return delays;
    }

    @Test
    void S5_jitter_is_reproducible_with_the_same_seed_and_stays_within_its_spread() {
      BackoffSettings jittered = new BackoffSettings(1000, 1_000_000, 2.0, 0.5, 1_000_000, 7);
      List<Long> first = delays(jittered);
      assertThat(delays(jittered)).isEqualTo(first);
      for (int i = 0; i < first.size(); i++) {
        long base = 1000L << i;
        assertThat(first.get(i)).isBetween(base / 2, base + base / 2);
      }
      assertThat(first).as("jitter moves the delays off the plain sequence")
          .isNotEqualTo(delays(new BackoffSettings(1000, 1_000_000, 2.0, 0.0, 1_000_000, 7)));
      assertThat(delays(new BackoffSettings(1000, 1_000_000, 2.0, 0.5, 1_000_000, 8)))
          .as("another seed, another run").isNotEqualTo(first);
    }
  }
}
