package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A remote worker that deregisters while the pool drains (P9, P16 and C4 in docs/rules.md): what
 * it ran is settled as a drain settles it, and when it ran the last running job the stop ends at
 * once rather than at the drain deadline.
 */
class DepartureWhileDrainingTest {

  private static Fixture drainingWithRemoteRunning(Fixture.Builder builder, String job) {
    Fixture fx = builder.drain(5000).running();
    fx.submit("busy");
    fx.register("r-1", 1);
    fx.submit(job);
    assertThat(fx.workerOf(job)).isEqualTo("r-1");
    fx.complete("busy");
    fx.at(100).stopRequested();
    assertThat(fx.pool.state()).isEqualTo(PoolState.DRAINING);
    return fx;
  }

  @Test
  void P16_the_last_running_job_leaving_with_its_worker_ends_the_drain_at_once() {
    Fixture fx = drainingWithRemoteRunning(Fixture.pool(1), "a");
    List<Effect> effects = fx.at(200).deregister("r-1");
    assertThat(fx.pool.state()).as("stopped with no drain deadline").isEqualTo(PoolState.STOPPED);
    assertThat(effects).contains(new Effect.Publish(new Notice.PoolStateChanged(PoolState.STOPPED)),
        new Effect.Respond(Fixture.reply("a"),
            new Outcome.Interrupted("a", Fixture.payload("a"), 1, new Interruption.PoolStopped())));
  }

  @Test
  void P9_P16_with_FAIL_a_job_whose_worker_leaves_during_the_drain_is_answered_WORKER_STOPPED() {
    Fixture fx = drainingWithRemoteRunning(Fixture.pool(1).failPolicy(), "a");
    List<Effect> effects = fx.at(200).deregister("r-1");
    assertThat(effects).contains(new Effect.Respond(Fixture.reply("a"),
        new Outcome.Interrupted("a", Fixture.payload("a"), 1,
            new Interruption.WorkerStopped("r-1", Exit.NORMAL, "deregistered"))));
    assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
  }
}
