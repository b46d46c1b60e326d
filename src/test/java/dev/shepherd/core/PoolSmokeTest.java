package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PoolSmokeTest {
  @Test
  void submit_dispatch_complete() {
    Pool pool = Pool.create(PoolSettings.defaults("jobs", 2));
    assertThat(pool.start()).containsExactly(new Effect.Deploy("w-0", 1), new Effect.Deploy("w-1", 1));
    assertThat(pool.apply(new PoolEvent.WorkerCreated("w-0", 1, 0)).effects()).hasSize(1);
    List<Effect> effects = pool.apply(new PoolEvent.Submit("j1", "p", null, "r", 0, 1)).effects();
    Timer deadline = new Timer.JobDeadline("w-0", 1);
    assertThat(effects).containsExactly(
        new Effect.Respond("r", new Outcome.Accepted("j1")),
        new Effect.Assign("w-0", 1, "j1", "p", 1, null),
        new Effect.StartTimer(deadline, 30_001));
    PoolInvariants.check(pool);
    effects = pool.apply(new PoolEvent.Completed("w-0", 1, "res", null, 2)).effects();
    assertThat(effects).containsExactly(
        new Effect.CancelTimer(deadline),
        new Effect.Respond("r", new Outcome.Completed("j1", "res", "w-0", 1)));
    PoolInvariants.check(pool);
  }
}
