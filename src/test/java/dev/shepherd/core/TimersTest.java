package dev.shepherd.core;

import static dev.shepherd.core.Fixture.only;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Timers are effects (StartTimer on assign, CancelTimer when the assignment ends) that come back
 * as TimerFired; each is fenced, so a fire that no longer applies changes nothing but a count.
 */
class TimersTest {

  @Test
  void P14_an_assignment_starts_its_deadline_and_its_end_cancels_it() {
    Fixture fx = Fixture.pool(1).jobTimeout(500).running();
    List<Effect> assigned = fx.at(100).submit("j1");
    Timer deadline = new Timer.JobDeadline("w-0", fx.token("j1"));
    assertThat(only(assigned, Effect.StartTimer.class))
        .containsExactly(new Effect.StartTimer(deadline, 600));
    assertThat(only(fx.complete("j1"), Effect.CancelTimer.class))
        .containsExactly(new Effect.CancelTimer(deadline));
    assertThat(fx.timers()).isEmpty();
  }

  @Test
  void P14_a_job_without_timeout_starts_no_timer() {
    Fixture fx = Fixture.pool(1).jobTimeout(0).running();
    assertThat(only(fx.submit("j1"), Effect.StartTimer.class)).isEmpty();
  }

  @Test
  void P14_the_deadline_fires_on_time_and_stops_the_hung_incarnation() {
    Fixture fx = Fixture.pool(1).jobTimeout(500).running();
    fx.at(100).submit("j1");
    assertThat(fx.tick(599)).isEmpty();
    List<Effect> effects = fx.tick(600);
    assertThat(only(effects, Effect.Stop.class))
        .containsExactly(new Effect.Stop("w-0", 1, Exit.TIMEOUT));
  }

  @Test
  void P14_a_deadline_that_fires_after_its_assignment_ended_changes_nothing() {
    Fixture fx = Fixture.pool(1).jobTimeout(500).running();
    fx.submit("j1");
    long token = fx.token("j1");
    fx.complete("j1");
    long ignored = fx.counters().ignoredFacts();
    assertThat(fx.apply(new PoolEvent.TimerFired(new Timer.JobDeadline("w-0", token), 600)))
        .isEmpty();
    assertThat(fx.counters().ignoredFacts()).isEqualTo(ignored + 1);
    assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.IDLE);
  }

  @Test
  void P17_cancelling_a_running_job_tells_its_slot_and_keeps_its_deadline() {
    Fixture fx = Fixture.pool(1).jobTimeout(500).running();
    fx.submit("j1");
    long token = fx.token("j1");
    List<Effect> effects = fx.cancel("j1");
    assertThat(only(effects, Effect.CancelRunning.class))
        .containsExactly(new Effect.CancelRunning("w-0", token, "j1"));
    assertThat(only(effects, Effect.CancelTimer.class)).isEmpty();
    assertThat(fx.timers()).containsKey(new Timer.JobDeadline("w-0", token));
  }

  @Test
  void P17_cancelling_a_queued_job_tells_no_slot() {
    Fixture fx = Fixture.pool(1).running();
    fx.submitAll("j1", "j2");
    assertThat(only(fx.cancel("j2"), Effect.CancelRunning.class)).isEmpty();
  }

  @Test
  void S5_a_backoff_decided_again_is_not_ended_by_its_earlier_timer() {
    BackoffSettings backoff = new BackoffSettings(100, 100, 1.0, 0.0, 1_000, 1);
    Fixture fx = Fixture.pool(2).strategy(Strategy.REST_FOR_ONE).backoff(backoff).running();
    fx.at(0).crash("w-1");
    Timer first = new Timer.BackoffEnd("w-1", 100);
    assertThat(fx.timers()).containsKey(first);
    fx.at(50).crash("w-0");
    assertThat(fx.apply(new PoolEvent.TimerFired(first, 100))).isEmpty();
    assertThat(fx.pool.phase("w-1")).isEqualTo(Phase.BACKING_OFF);
    assertThat(only(fx.tick(150), Effect.Deploy.class)).containsExactly(
        new Effect.Deploy("w-0", 2), new Effect.Deploy("w-1", 2));
  }

  @Test
  void P16_the_drain_deadline_fires_once_and_a_late_one_changes_nothing() {
    Fixture fx = Fixture.pool(1).drain(1_000).running();
    fx.submit("j1");
    fx.at(0).stopRequested();
    fx.tick(1_000);
    assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
    assertThat(fx.apply(new PoolEvent.TimerFired(new Timer.DrainDeadline(), 2_000))).isEmpty();
  }
}
