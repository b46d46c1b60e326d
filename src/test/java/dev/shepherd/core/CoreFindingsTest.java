package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression tests for core bugs the property tests found, one per bug, named after the rule it
 * broke. Each is the shrunk counter-example, written out.
 */
class CoreFindingsTest {

  private static PoolSettings oneSlot() {
    return PoolSettings.defaults("p", 1).withJobTimeoutMs(0).withDrainTimeoutMs(1_000);
  }

  /** A stopped slot is INSTALLING while the supervisor decides; a delay must still apply. */
  @Test
  void S5_a_delayed_replacement_backs_off_then_redeploys() {
    BackoffSettings backoff = new BackoffSettings(100, 100, 1.0, 0.0, 1_000, 7);
    SupervisionSettings supervision = new SupervisionSettings(RestartPolicy.PERMANENT,
        Strategy.ONE_FOR_ONE, 5, 10_000, BudgetReaction.RETIRE_WORKER, backoff);
    Pool pool = Pool.create(oneSlot().withSupervision(supervision));
    pool.start();
    pool.apply(new PoolEvent.WorkerCreated("w-0", 1, 0));

    List<Effect> stopped =
        pool.apply(new PoolEvent.WorkerStopped("w-0", 1, Exit.CRASH, "boom", 10)).effects();

    assertThat(pool.phase("w-0")).isEqualTo(Phase.BACKING_OFF);
    Timer end = new Timer.BackoffEnd("w-0", 110);
    assertThat(stopped).contains(new Effect.StartTimer(end, 110));
    assertThat(pool.apply(new PoolEvent.TimerFired(end, 110)).effects())
        .contains(new Effect.Deploy("w-0", 2));
    assertThat(pool.phase("w-0")).isEqualTo(Phase.INSTALLING);
    PoolInvariants.check(pool);
  }

  /** Completion is how the last assignment usually ends; the drain must not wait its deadline. */
  @Test
  void P16_the_last_completion_of_a_drain_stops_the_pool() {
    Pool pool = Pool.create(oneSlot());
    pool.start();
    pool.apply(new PoolEvent.WorkerCreated("w-0", 1, 0));
    pool.apply(new PoolEvent.Submit("j1", "p", null, "r", 0, 1));
    pool.apply(new PoolEvent.StopRequested(2));
    assertThat(pool.state()).isEqualTo(PoolState.DRAINING);

    long token = pool.snapshot(3).slots().get(0).assignments().get(0).assignment();
    List<Effect> effects =
        pool.apply(new PoolEvent.Completed("w-0", token, "done", null, 3)).effects();

    assertThat(effects).containsExactly(
        new Effect.Respond("r", new Outcome.Completed("j1", "done", "w-0", 1)),
        new Effect.Stop("w-0", 1, Exit.NORMAL),
        new Effect.Publish(new Notice.PoolStateChanged(PoolState.STOPPED)));
    assertThat(pool.state()).isEqualTo(PoolState.STOPPED);
    PoolInvariants.check(pool);
  }
}
