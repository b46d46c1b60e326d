package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A graceful stop answers the jobs that wait as it answers the queued ones (P16 and J4 in
 * docs/rules.md): a delayed job is answered {@code interrupted(POOL_STOPPED)} with its payload
 * when the stop is requested, not when the drain ends.
 */
class StopWithWaitingJobsTest {

  @Test
  void P16_J4_a_stop_answers_a_delayed_job_POOL_STOPPED_at_once() {
    Fixture fx = Fixture.pool(1).drain(5000).running();
    fx.submit("run");
    fx.submitDelayed("later", 60_000);
    List<Effect> effects = fx.at(100).stopRequested();
    assertThat(effects).contains(new Effect.Respond(Fixture.reply("later"),
        new Outcome.Interrupted("later", Fixture.payload("later"), 0,
            new Interruption.PoolStopped())));
    assertThat(fx.pool.holds("later")).isFalse();
    assertThat(fx.pool.state()).isEqualTo(PoolState.DRAINING);
  }
}
