package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.addresses;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.refused;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.RateLimit;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Flow control's operator surfaces over the event bus and through {@link PoolClient} (F1, F5 in
 * docs/rules.md): {@code .pause}, {@code .resume}, {@code .group.set}, {@code .group.reset} and
 * {@code .group.get}, the {@code flow} events they publish, the Java calls over the same pool,
 * and every malformed message refused with {@code fail(400, …)} naming the field, changing
 * nothing.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FlowBusEndToEndTest {

  @Test
  void F5_a_pool_paused_over_the_bus_holds_its_jobs_publishes_the_change_and_resumes(
      Vertx vertx) {
    deployReady(vertx, demoPool("busflow", 2));
    Addresses a = addresses("busflow");
    List<JsonObject> events = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer(a.events(), m -> {
      if ("flow".equals(m.body().getString("type"))) {
        events.add(m.body());
      }
    }).completion());

    JsonObject paused = request(vertx, a.pause(), new JsonObject());
    assertThat(paused.getString("name")).isEqualTo("busflow");
    assertThat(paused.getBoolean("paused")).isTrue();
    assertThat(paused.getLong("pausedSince")).isNotNull();
    PoolClient client = PoolClient.create(vertx, "busflow");
    Outcome admitted = join(client.admit(JobRequest.of(new JsonObject()).withJob("held")));
    assertThat(admitted).isInstanceOf(Outcome.Accepted.class);
    assertThat(join(client.lookup("held")).state().name()).isEqualTo("QUEUED");
    assertThat(status(vertx, "busflow").getBoolean("paused")).isTrue();

    request(vertx, a.resume(), new JsonObject());
    assertThat(join(client.await("held"))).isInstanceOf(Outcome.Completed.class);
    await().atMost(5, TimeUnit.SECONDS).until(() -> events.size() >= 2);
    assertThat(events).extracting(e -> e.getString("change")).containsExactly("paused", "resumed");
    assertThat(events.get(0).getJsonObject("state").getBoolean("paused")).isTrue();
  }

  @Test
  void F1_a_groups_settings_are_set_read_and_dropped_over_the_bus(Vertx vertx) {
    deployReady(vertx, demoPool("busgroups", 1).put("groups", new JsonObject()
        .put("overrides", new JsonObject().put("t1", new JsonObject().put("weight", 3)))));
    Addresses a = addresses("busgroups");

    JsonObject set = request(vertx, a.groupSet(), new JsonObject().put("group", "t1")
        .put("concurrency", 2).put("rateLimit", new JsonObject().put("permits", 5)));
    assertThat(set.getInteger("concurrency")).isEqualTo(2);
    assertThat(set.getInteger("weight")).as("the configured weight stays").isEqualTo(3);
    assertThat(set.getJsonObject("rateLimit"))
        .isEqualTo(new JsonObject().put("permits", 5).put("perMs", 1000));
    JsonObject paused = request(vertx, a.groupSet(), new JsonObject().put("group", "t1")
        .put("paused", true));
    assertThat(paused.getBoolean("paused")).isTrue();
    assertThat(paused.getInteger("concurrency")).as("a partial change keeps the rest")
        .isEqualTo(2);
    assertThat(request(vertx, a.group(), new JsonObject().put("group", "t1"))).isEqualTo(paused);

    JsonObject reset = request(vertx, a.groupReset(), new JsonObject().put("group", "t1"));
    assertThat(reset.getInteger("concurrency")).isZero();
    assertThat(reset.getInteger("weight")).isEqualTo(3);
    JsonObject unknown = request(vertx, a.group(), new JsonObject().put("group", "never"));
    assertThat(unknown.getInteger("running")).isZero();
    assertThat(unknown.getInteger("queued")).isZero();
    assertThat(unknown.getBoolean("paused")).isFalse();
  }

  @Test
  void F1_F5_the_java_api_pauses_and_sets_groups(Vertx vertx) {
    deployReady(vertx, demoPool("javaflow", 1));
    PoolClient client = PoolClient.create(vertx, "javaflow");

    join(client.pause());
    assertThat(status(vertx, "javaflow").getBoolean("paused")).isTrue();
    join(client.resume());
    assertThat(status(vertx, "javaflow").getBoolean("paused")).isFalse();

    PoolSnapshot.GroupStatus capped = join(client.setGroup("tenant",
        new GroupSettings(1, 10, 2, new RateLimit(3, 1000), null)));
    assertThat(capped).isEqualTo(new PoolSnapshot.GroupStatus("tenant", 0, 0, 1, 10, 2,
        new RateLimit(3, 1000), false, null, null));
    PoolSnapshot.GroupStatus paused = join(client.pause("tenant"));
    assertThat(paused.paused()).isTrue();
    assertThat(paused.pausedSince()).isNotNull();
    assertThat(join(client.group("tenant")).concurrency()).isEqualTo(1);
    assertThat(join(client.resume("tenant")).paused()).isFalse();
    assertThat(join(client.resetGroup("tenant")).concurrency()).isZero();

    assertThat(failure(client.group(""))).isInstanceOf(BadRequest.class)
        .hasMessageStartingWith("group:");
    assertThat(failure(client.pause("g".repeat(257)))).isInstanceOf(BadRequest.class);
    assertThat(failure(client.setGroup("g", null))).isInstanceOf(BadRequest.class);
    assertThat(failure(client.submit(JobRequest.of(1).withPriority(10))))
        .isInstanceOf(BadRequest.class).hasMessageStartingWith("priority:");
    assertThat(failure(client.submit(JobRequest.of(1).withGroup(""))))
        .isInstanceOf(BadRequest.class).hasMessageStartingWith("group:");
    Outcome grouped = join(client.outcome(JobRequest.of(new JsonObject()).withGroup("tenant")
        .withPriority(0)));
    assertThat(grouped).isInstanceOf(Outcome.Completed.class);
  }

  static Stream<Arguments> malformed() {
    Addresses a = addresses("badflow");
    return Stream.of(
        Arguments.of(a.pause(), "[1]", "body"),
        Arguments.of(a.pause(), "{\"group\":\"\"}", "group"),
        Arguments.of(a.pause(), "{\"group\":5}", "group"),
        Arguments.of(a.pause(), "{\"all\":true}", "all"),
        Arguments.of(a.resume(), "{\"group\":[]}", "group"),
        Arguments.of(a.groupSet(), "{\"concurrency\":1}", "group"),
        Arguments.of(a.groupSet(), "{\"group\":\"g\",\"concurrency\":-1}", "concurrency"),
        Arguments.of(a.groupSet(), "{\"group\":\"g\",\"weight\":1001}", "weight"),
        Arguments.of(a.groupSet(), "{\"group\":\"g\",\"rateLimit\":{\"permits\":0}}",
            "rateLimit.permits"),
        Arguments.of(a.groupSet(), "{\"group\":\"g\",\"paused\":\"no\"}", "paused"),
        Arguments.of(a.groupSet(), "{\"group\":\"g\",\"size\":4}", "size"),
        Arguments.of(a.groupReset(), "{}", "group"),
        Arguments.of(a.group(), "{\"group\":\"" + "g".repeat(257) + "\"}", "group"),
        Arguments.of(a.completed(), "{\"worker\":\"w-0\",\"assignment\":1,\"rateLimitedMs\":-5}",
            "rateLimitedMs"),
        Arguments.of(a.completed(), "{\"worker\":\"w-0\",\"rateLimitedMs\":5}", "assignment"),
        Arguments.of(a.submit(), "{\"payload\":1,\"group\":\"\"}", "group"),
        Arguments.of(a.submit(), "{\"payload\":1,\"priority\":-1}", "priority"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void F1_F5_a_malformed_message_is_refused_naming_the_field_and_changes_nothing(String address,
      String body, String field, Vertx vertx) {
    deployReady(vertx, demoPool("badflow", 1));
    JsonObject before = status(vertx, "badflow");

    ReplyException e = refused(vertx, address, io.vertx.core.buffer.Buffer.buffer(body));

    assertThat(e.failureCode()).isEqualTo(400);
    assertThat(e.getMessage()).startsWith(field + ":");
    JsonObject after = status(vertx, "badflow");
    assertThat(after.getJsonObject("counters")).isEqualTo(before.getJsonObject("counters"));
    assertThat(after.getBoolean("paused")).isFalse();
    assertThat(after.getInteger("groupCount")).isZero();
  }

  @Test
  void F4_a_rate_limited_answer_for_no_live_assignment_is_refused_as_stale(Vertx vertx) {
    deployReady(vertx, demoPool("stale", 1));
    ReplyException e = refused(vertx, addresses("stale").completed(),
        new JsonObject().put("worker", "w-0").put("assignment", 12345).put("rateLimitedMs", 10));
    assertThat(e.failureCode()).isEqualTo(409);
    assertThat(status(vertx, "stale").getJsonObject("counters").getLong("staleCompletions"))
        .isEqualTo(1);
  }
}
