package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.ConfigException;
import dev.shepherd.core.Outcome;
import dev.shepherd.testworkers.NeedsArgumentWorker;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Invalid configuration fails the {@link PoolVerticle} deployment with a message naming the field
 * and the bad value, and nothing stays deployed: no verticle, no pool, no bus consumer (P1).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PoolConfigValidationTest {

  private static Arguments invalid(String field, Consumer<JsonObject> edit) {
    return Arguments.of(field, edit);
  }

  private static JsonObject worker(JsonObject pool) {
    return pool.getJsonObject("worker");
  }

  private static JsonObject supervision(JsonObject pool) {
    return pool.getJsonObject("supervision");
  }

  static Stream<Arguments> invalidConfigurations() {
    return Stream.of(
        invalid("worker.class", p -> worker(p).remove("class")),
        invalid("worker.class", p -> worker(p).put("class", "com.example.NoSuchWorker")),
        invalid("worker.class", p -> worker(p).put("class", "java.lang.String")),
        invalid("worker.class", p -> worker(p).put("class", NeedsArgumentWorker.class.getName())),
        invalid("worker.class", p -> worker(p).put("class", 42)),
        invalid("worker", p -> p.put("worker", "dev.shepherd.demo.DemoWorker")),
        invalid("worker.instances", p -> worker(p).put("instances", 0)),
        invalid("worker.instances", p -> worker(p).put("instances", "four")),
        invalid("worker.maxConcurrency", p -> worker(p).put("maxConcurrency", 0)),
        invalid("worker.threading", p -> worker(p).put("threading", "FAST")),
        invalid("worker.config", p -> worker(p).put("config", "failStart=always")),
        invalid("worker.instance", p -> worker(p).put("instance", 2)),
        invalid("worker.onException", p -> worker(p).put("onException", "SOMETIMES")),
        invalid("worker.onException", p -> worker(p).put("onException", true)),
        invalid("worker.onException", p -> worker(p).put("onException", new JsonObject())),
        invalid("backlogCapacity", p -> p.put("backlogCapacity", -1)),
        invalid("backlogCapacity", p -> p.put("backlogCapacity", 1.5)),
        invalid("backlogCapacty", p -> p.put("backlogCapacty", 10)),
        invalid("interruption", p -> p.put("interruption", "SOMETIMES")),
        invalid("maxAttempts", p -> p.put("maxAttempts", -3)),
        invalid("jobTimeoutMs", p -> p.put("jobTimeoutMs", -1)),
        invalid("jobTimeoutMs", p -> p.put("jobTimeoutMs", "30s")),
        invalid("drainTimeoutMs", p -> p.put("drainTimeoutMs", true)),
        invalid("heartbeatTimeoutMs", p -> p.put("heartbeatTimeoutMs", 0)),
        invalid("heartbeatTimeoutMs", p -> p.put("heartbeatTimeoutMs", 99)),
        invalid("heartbeatTimeoutMs", p -> p.put("heartbeatTimeoutMs", "5s")),
        invalid("hostGraceMs", p -> p.put("hostGraceMs", -1)),
        invalid("maxPayloadDepth", p -> p.put("maxPayloadDepth", 0)),
        invalid("maxPayloadDepth", p -> p.put("maxPayloadDepth", 501)),
        invalid("maxPayloadDepth", p -> p.put("maxPayloadDepth", "64")),
        invalid("maxPayloadDepth", p -> p.put("maxPayloadDepth", 6.4)),
        invalid("name", p -> p.put("name", "no spaces allowed")),
        invalid("name", p -> p.put("name", "")),
        invalid("address", p -> p.put("address", 7)),
        invalid("supervision", p -> p.put("supervision", "PERMANENT")),
        invalid("supervision.policy", p -> supervision(p).put("policy", "ALWAYS")),
        invalid("supervision.strategy", p -> supervision(p).put("strategy", "ALL_FOR_ONE")),
        invalid("supervision.maxRestarts", p -> supervision(p).put("maxRestarts", -1)),
        invalid("supervision.restartWindowMs", p -> supervision(p).put("restartWindowMs", 0)),
        invalid("supervision.onBudgetExceeded",
            p -> supervision(p).put("onBudgetExceeded", "PANIC")),
        invalid("supervision.restart", p -> supervision(p).put("restart", "always")),
        invalid("supervision.restartBackoff.multiplier", p -> supervision(p)
            .put("restartBackoff", new JsonObject().put("multiplier", 0.5))),
        invalid("supervision.restartBackoff.initialMs", p -> supervision(p)
            .put("restartBackoff", new JsonObject().put("initialMs", -10))),
        invalid("supervision.restartBackoff.jitter", p -> supervision(p)
            .put("restartBackoff", new JsonObject().put("jitter", 2))),
        invalid("affinity.selector", p -> p.put("affinity", new JsonObject().put("selector", "RANDOM"))),
        invalid("affinity.selector", p -> p.put("affinity",
            new JsonObject().put("selector", "java.lang.Object"))),
        invalid("affinity.sticky", p -> p.put("affinity", new JsonObject().put("sticky", true))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidConfigurations")
  void P1_invalid_configuration_fails_the_deployment_naming_the_field_and_deploys_nothing(
      String field, Consumer<JsonObject> edit, Vertx vertx) {
    JsonObject config = demoPool("bad", 2);
    edit.accept(config);

    Throwable error = failure(vertx.deployVerticle(new PoolVerticle(),
        new DeploymentOptions().setConfig(config)));

    assertThat(error).isInstanceOfSatisfying(ConfigException.class,
        e -> assertThat(e.field()).isEqualTo(field));
    assertThat(error.getMessage()).startsWith(field + ": ").contains("(was ");
    assertNothingDeployed(vertx, "bad");
  }

  @Test
  void J1_worker_onException_is_FAIL_JOB_unless_the_pool_says_CRASH() {
    JsonObject crashing = demoPool("crashing", 1);
    worker(crashing).put("onException", "crash");

    assertThat(PoolConfig.parse(demoPool("plain", 1), "").onException())
        .isEqualTo(OnException.FAIL_JOB);
    assertThat(PoolConfig.parse(crashing, "").onException()).isEqualTo(OnException.CRASH);
    assertThat(PoolConfig.parse(crashing, "").withSettings(
        PoolConfig.parse(crashing, "").settings()).onException()).isEqualTo(OnException.CRASH);
  }

  @Test
  void P1_a_second_pool_with_the_same_name_is_refused_and_the_first_keeps_running(Vertx vertx) {
    PoolFixture.deployReady(vertx, demoPool("twin", 1));
    java.util.Set<String> before = java.util.Set.copyOf(vertx.deploymentIDs());

    Throwable error = failure(vertx.deployVerticle(new PoolVerticle(),
        new DeploymentOptions().setConfig(demoPool("twin", 3))));

    assertThat(error).hasMessageContaining("twin");
    assertThat(vertx.deploymentIDs()).isEqualTo(before);
    assertThat(run(vertx, "twin", echo(1))).isInstanceOf(Outcome.Completed.class);
  }

  static void assertNothingDeployed(Vertx vertx, String pool) {
    assertThat(vertx.deploymentIDs()).isEmpty();
    assertThat(LocalPools.find(vertx, pool)).isNull();
    Throwable noConsumer = failure(vertx.eventBus().request(Addresses.forPool(pool).status(),
        new JsonObject(), new DeliveryOptions().setSendTimeout(STEP.toMillis())));
    assertThat(noConsumer).isInstanceOfSatisfying(ReplyException.class,
        e -> assertThat(e.failureType()).isEqualTo(ReplyFailure.NO_HANDLERS));
  }
}
