package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.slots;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.testworkers.NeedsArgumentWorker;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@link PoolVerticle} given a handler factory ({@link PoolVerticle#PoolVerticle(Supplier)}):
 * its slots run handlers built with what the application hands them, one per incarnation, and the
 * configuration then names no {@code worker.class}; a factory and a class together, or neither,
 * fail the deployment naming {@code worker.class}.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HandlerFactoryTest {

  /**
   * A pool entry with {@code instances} slots on the event loop and no {@code worker.class}; a
   * slot whose creation failed is tried again after 50 ms.
   */
  private static JsonObject pool(String name, int instances) {
    JsonObject config = PoolFixture.demoPool(name, instances);
    config.getJsonObject("worker").remove("class");
    config.getJsonObject("worker").put("threading", "EVENT_LOOP");
    config.getJsonObject("supervision").put("reviveAfterMs", 50).put("reviveMaxMs", 1_000);
    return config;
  }

  private static Future<String> deploy(Vertx vertx, Supplier<? extends JobHandler> handlers,
      JsonObject config) {
    return vertx.deployVerticle(new PoolVerticle(handlers),
        new DeploymentOptions().setConfig(config));
  }

  @Test
  void a_factory_gives_the_handlers_their_dependencies_without_a_no_argument_constructor(
      Vertx vertx) {
    join(deploy(vertx, () -> new NeedsArgumentWorker("hello from the factory"),
        pool("injected", 1)));

    String result = join(PoolClient.create(vertx, "injected").submit("any", String.class));

    assertThat(result).isEqualTo("hello from the factory");
  }

  @Test
  void the_factory_makes_a_new_handler_for_each_incarnation_a_replacement_included(Vertx vertx) {
    AtomicInteger made = new AtomicInteger();
    Set<JobHandler> handlers = ConcurrentHashMap.newKeySet();
    join(deploy(vertx, () -> {
      made.incrementAndGet();
      JobHandler handler = new JobHandler() {
        @Override
        public Future<?> handle(Job job) {
          if ("crash".equals(job.payload())) {
            throw new AssertionError("an Error crashes the incarnation (J1)");
          }
          return Future.succeededFuture(job.worker() + "#" + job.incarnation());
        }
      };
      handlers.add(handler);
      return handler;
    }, pool("per-incarnation", 2)));
    awaitStatus(vertx, "per-incarnation", s -> slots(s).stream()
        .allMatch(slot -> "IDLE".equals(((JsonObject) slot).getString("phase"))));
    assertThat(made).hasValue(2);
    PoolClient client = PoolClient.create(vertx, "per-incarnation");

    assertThat(failure(client.submit("crash"))).isInstanceOf(JobInterruptedException.class);
    awaitStatus(vertx, "per-incarnation", s -> slots(s).stream()
        .anyMatch(slot -> ((JsonObject) slot).getInteger("incarnation") == 2
            && "IDLE".equals(((JsonObject) slot).getString("phase"))));

    assertThat(made).hasValue(3);
    assertThat(handlers).hasSize(3);
  }

  @Test
  void a_factory_that_throws_fails_that_creation_and_the_slot_is_created_again(Vertx vertx) {
    AtomicInteger calls = new AtomicInteger();
    join(deploy(vertx, () -> {
      if (calls.incrementAndGet() == 1) {
        throw new IllegalStateException("the database is not up yet");
      }
      return job -> Future.succeededFuture("made on call " + calls.get());
    }, pool("flaky-factory", 1)));

    awaitStatus(vertx, "flaky-factory", idleAt("w-0", 2));

    assertThat(join(PoolClient.create(vertx, "flaky-factory").submit("x", String.class)))
        .isEqualTo("made on call 2");
  }

  @Test
  void a_factory_that_returns_null_fails_that_creation(Vertx vertx) {
    AtomicInteger calls = new AtomicInteger();
    join(deploy(vertx, () -> calls.incrementAndGet() == 1 ? null
        : (JobHandler) job -> Future.succeededFuture("ok"), pool("null-factory", 1)));

    awaitStatus(vertx, "null-factory", idleAt("w-0", 2));

    assertThat(calls).hasValue(2);
  }

  @Test
  void a_factory_and_a_worker_class_together_fail_the_deployment_naming_worker_class(
      Vertx vertx) {
    JsonObject config = PoolFixture.demoPool("both", 1);

    Throwable refused = failure(deploy(vertx, () -> job -> Future.succeededFuture(1), config));

    assertThat(refused).isInstanceOfSatisfying(ConfigException.class, e -> {
      assertThat(e.field()).isEqualTo("worker.class");
      assertThat(e.getMessage()).contains("must be left out", "handler factory");
    });
    assertThat(LocalPools.find(vertx, "both")).isNull();
  }

  @Test
  void neither_a_factory_nor_a_worker_class_fails_the_deployment_naming_worker_class_and_the_factory(
      Vertx vertx) {
    Throwable refused = failure(vertx.deployVerticle(new PoolVerticle(),
        new DeploymentOptions().setConfig(pool("neither", 1))));

    assertThat(refused).isInstanceOfSatisfying(ConfigException.class, e -> {
      assertThat(e.field()).isEqualTo("worker.class");
      assertThat(e.getMessage()).contains("is required", "new PoolVerticle(() -> new");
    });
  }

  @Test
  void a_class_without_a_no_argument_constructor_is_refused_with_the_factory_as_the_way_out(
      Vertx vertx) {
    JsonObject config = PoolFixture.demoPool("no-default-constructor", 1);
    config.getJsonObject("worker").put("class", NeedsArgumentWorker.class.getName());

    Throwable refused = failure(vertx.deployVerticle(new PoolVerticle(),
        new DeploymentOptions().setConfig(config)));

    assertThat(refused).isInstanceOfSatisfying(ConfigException.class, e -> {
      assertThat(e.field()).isEqualTo("worker.class");
      assertThat(e.getMessage()).contains("no-argument constructor",
          "new PoolVerticle(() -> new NeedsArgumentWorker(...))");
    });
  }
}
