package dev.shepherd.runtime.coordinator;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.hang;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.PoolVerticle;
import dev.shepherd.runtime.access.LocalPools;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Timers are effects (a job's deadline is started when it is assigned and cancelled when it
 * completes), so a hung job times out by its own timer with no periodic tick, and a pool with no
 * work keeps no timer at all.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimersEndToEndTest {

  private static Coordinator deploy(Vertx vertx, JsonObject config) {
    join(vertx.deployVerticle(new PoolVerticle(), new DeploymentOptions().setConfig(config)));
    awaitStatus(vertx, config.getString("name"), s -> PoolFixture.slots(s).stream()
        .noneMatch(x -> "INSTALLING".equals(((JsonObject) x).getString("phase"))));
    return LocalPools.find(vertx, config.getString("name"));
  }

  /** The timers the pool keeps, read on its own context. */
  private static int timers(Coordinator coordinator) {
    Promise<Integer> size = Promise.promise();
    coordinator.execute(() -> size.complete(coordinator.timers().size()));
    return join(size.future());
  }

  @Test
  void P14_a_hung_job_times_out_by_its_own_timer_and_the_slot_restarts_with_exit_TIMEOUT(
      Vertx vertx) {
    Coordinator pool = deploy(vertx, demoPool("hung", 1).put("jobTimeoutMs", 300));
    Future<Outcome> stuck = PoolClient.create(vertx, "hung")
        .outcome(JobRequest.of(hang()).withJob("stuck"));
    awaitStatus(vertx, "hung", running("w-0", "stuck"));
    assertThat(timers(pool)).as("the running job's deadline").isEqualTo(1);

    Outcome outcome = join(stuck);

    assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
        assertThat(i.reason()).isEqualTo(new Interruption.WorkerStopped("w-0", Exit.TIMEOUT,
            "job 'stuck' ran past its timeout of 300 ms")));
    JsonObject after = awaitStatus(vertx, "hung", idleAt("w-0", 2));
    assertThat(counter(after, "restarts")).isEqualTo(1);
    assertThat(timers(pool)).as("the deadline fired and is gone").isZero();
  }

  @Test
  void a_pool_with_no_work_keeps_no_timer_and_a_job_keeps_one_only_while_it_runs(Vertx vertx) {
    Coordinator pool = deploy(vertx, demoPool("quiet", 2));
    assertThat(timers(pool)).isZero();

    Future<Outcome> nap = PoolClient.create(vertx, "quiet")
        .outcome(JobRequest.of(sleep(60_000)).withJob("nap"));
    awaitStatus(vertx, "quiet", running("w-0", "nap"));
    assertThat(timers(pool)).isEqualTo(1);

    assertThat(join(PoolClient.create(vertx, "quiet").cancel("nap"))).isTrue();
    join(nap);
    awaitStatus(vertx, "quiet", s -> PoolFixture.slot(s, "w-0").getInteger("inFlight") == 0);
    assertThat(timers(pool)).as("a completed job's deadline is cancelled").isZero();
    for (int i = 0; i < 20; i++) {
      assertThat(run(vertx, "quiet", echo(i))).isInstanceOf(Outcome.Completed.class);
    }
    assertThat(timers(pool)).isZero();
    assertThat(counter(status(vertx, "quiet"), "restarts")).isZero();
  }

  @Test
  void a_pool_without_a_job_timeout_keeps_no_deadline(Vertx vertx) {
    Coordinator pool = deploy(vertx, demoPool("untimed", 1).put("jobTimeoutMs", 0));
    PoolClient.create(vertx, "untimed").outcome(JobRequest.of(sleep(60_000)).withJob("long"));
    awaitStatus(vertx, "untimed", running("w-0", "long"));
    assertThat(timers(pool)).isZero();
    join(PoolClient.create(vertx, "untimed").cancel("long"));
  }
}
