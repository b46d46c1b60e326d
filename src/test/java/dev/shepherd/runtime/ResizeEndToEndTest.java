package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.phaseIs;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.slots;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.PoolSize;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * F6 (docs/rules.md) through the Java API, in the JVM and over the bus: the coordinator deploys
 * the slots a grow adds and undeploys the ones a shrink drains once their jobs end; a resize with
 * nothing to do or out of range is refused naming the field; a stopping pool refuses one.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ResizeEndToEndTest {

  private static PoolClient client(Vertx vertx, String pool, String how) {
    return how.equals("bus") ? PoolClient.create(vertx, "bus-view-of-" + pool, "shepherd." + pool,
        10_000) : PoolClient.create(vertx, pool);
  }

  @ParameterizedTest
  @ValueSource(strings = {"local", "bus"})
  void F6_the_java_api_grows_and_shrinks_the_pool_and_refuses_bad_sizes(String how,
      Vertx vertx) {
    String pool = "resized-" + how;
    deployReady(vertx, demoPool(pool, 1));
    PoolClient client = client(vertx, pool, how);

    assertThat(join(client.resize(3, null))).isEqualTo(new PoolSize(3, 1));
    awaitStatus(vertx, pool, phaseIs("w-2", "IDLE"));
    Future<Object> held = client.submit(JobRequest.of(sleep(1_500)).withJob("held"), Object.class);
    awaitStatus(vertx, pool, running("w-0", "held"));
    assertThat(join(client.submit(JobRequest.of(echo("x")).withJob("x"), Object.class))).isNotNull();

    assertThat(join(client.resize(null, 2))).isEqualTo(new PoolSize(3, 2));
    assertThat(slots(status(vertx, pool)).getJsonObject(2).getInteger("capacity")).isEqualTo(2);

    Throwable bad = failure(client.resize(0, null));
    assertThat(bad).isInstanceOf(BadRequest.class);
    assertThat(bad.getMessage()).startsWith("instances");
    Throwable neither = failure(client.resize(null, null));
    assertThat(neither).isInstanceOf(BadRequest.class);
    assertThat(failure(client.resize(1, 0)).getMessage()).startsWith("maxConcurrency");
    assertThat(status(vertx, pool).getJsonObject("size"))
        .isEqualTo(new JsonObject().put("instances", 3).put("maxConcurrency", 2));

    assertThat(join(client.resize(1, 1))).isEqualTo(new PoolSize(1, 1));
    awaitStatus(vertx, pool, s -> slots(s).size() == 1);
    assertThat(join(held)).isNotNull();
    assertThat(status(vertx, pool).getJsonObject("counters").getLong("restarts")).isZero();
  }

  @org.junit.jupiter.api.Test
  void F6_a_stopping_pool_refuses_a_resize(Vertx vertx) {
    String pool = "stopping";
    String deployment = deployReady(vertx, demoPool(pool, 1).put("drainTimeoutMs", 10_000));
    PoolClient client = client(vertx, pool, "local");
    Future<Object> runningJob = client.submit(JobRequest.of(sleep(1_500)).withJob("r"), Object.class);
    awaitStatus(vertx, pool, running("w-0", "r"));
    Future<Void> undeployed = vertx.undeploy(deployment);
    awaitStatus(vertx, pool, s -> "DRAINING".equals(s.getString("state")));

    Throwable refused = failure(client.resize(2, null));

    assertThat(refused).isInstanceOfSatisfying(PoolErrorException.class, e -> {
      assertThat(e.name()).isEqualTo("RESIZE_REFUSED");
      assertThat(e.code()).isEqualTo(409);
    });
    join(runningJob);
    join(undeployed);
  }
}
