package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deploy;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.phaseIs;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.testworkers.ContractBreakingWorker;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the pool makes of a {@link JobHandler} that breaks its contract (section 6): a start() that
 * throws, or crashes its incarnation, rejects the creation (P2), and a handle() that returns null
 * is a crash (P9).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class JobHandlerContractTest {

  private static JsonObject pool(JsonObject workerConfig) {
    JsonObject config = demoPool("contract", 1);
    worker(config).put("class", ContractBreakingWorker.class.getName())
        .put("config", workerConfig);
    return config;
  }

  @Test
  void P2_a_start_that_throws_rejects_the_creation(Vertx vertx) {
    deploy(vertx, pool(new JsonObject().put("throwOnStart", true)));

    JsonObject status = awaitStatus(vertx, "contract", phaseIs("w-0", "RETIRED"));

    assertThat(slot(status, "w-0").getString("retirement")).isEqualTo("CREATION_REJECTED");
  }

  @Test
  void J1_a_crash_asked_for_before_start_completes_rejects_the_creation(Vertx vertx) {
    deploy(vertx, pool(new JsonObject().put("crashOnStart", true)));

    JsonObject status = awaitStatus(vertx, "contract", phaseIs("w-0", "RETIRED"));

    assertThat(slot(status, "w-0").getString("retirement")).isEqualTo("CREATION_REJECTED");
    assertThat(slot(status, "w-0").getInteger("restarts")).isZero();
  }

  @Test
  void P9_a_handle_that_returns_null_instead_of_a_future_is_a_crash(Vertx vertx) {
    deployReady(vertx, pool(new JsonObject()));

    Outcome outcome = run(vertx, "contract", JobRequest.of("null").withJob("n"));

    assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
        assertThat(i.reason()).isInstanceOfSatisfying(Interruption.WorkerStopped.class, w -> {
          assertThat(w.exit()).isEqualTo(Exit.CRASH);
          assertThat(w.cause()).contains("null");
        }));
    awaitStatus(vertx, "contract", idleAt("w-0", 2));
    assertThat(run(vertx, "contract", JobRequest.of("fine").withJob("f")))
        .isEqualTo(new Outcome.Completed("f", "fine", "w-0", 1));
  }
}
