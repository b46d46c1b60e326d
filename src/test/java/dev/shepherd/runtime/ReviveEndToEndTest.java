package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.phaseIs;
import static dev.shepherd.runtime.PoolFixture.refused;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.status;
import static dev.shepherd.runtime.PoolFixture.supervision;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bringing a retired slot back, end to end: an operator's revive over the bus ({@code
 * <prefix>.revive}) and through {@link PoolClient} (in the JVM and over the bus), and {@code
 * supervision.reviveAfterMs}. Neither is a restart: S2's budget is not charged.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReviveEndToEndTest {

  /** A pool of two slots whose budget allows no restart: one crash retires a slot. */
  private static JsonObject brittle(String name) {
    JsonObject config = demoPool(name, 2);
    supervision(config).put("maxRestarts", 0);
    return config;
  }

  /** Retires w-0 or w-1 with a crash; returns the slot that retired. */
  private static String retireOne(Vertx vertx, String pool) {
    Outcome crashed = run(vertx, pool, crash());
    assertThat(crashed).isInstanceOf(Outcome.Interrupted.class);
    JsonObject s = awaitStatus(vertx, pool, st -> PoolFixture.slots(st).stream()
        .anyMatch(x -> "RETIRED".equals(((JsonObject) x).getString("phase"))));
    return PoolFixture.slots(s).stream().map(JsonObject.class::cast)
        .filter(x -> "RETIRED".equals(x.getString("phase"))).findFirst().orElseThrow()
        .getString("id");
  }

  private static List<JsonObject> events(Vertx vertx, String pool) {
    List<JsonObject> events = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer(Addresses.forPool(pool).events(),
        m -> events.add(m.body())).completion());
    return events;
  }

  private static List<String> kinds(List<JsonObject> events, String worker) {
    return events.stream().filter(e -> worker.equals(e.getString("worker")))
        .map(e -> e.getString("type") + ("phase".equals(e.getString("type"))
            ? ":" + e.getString("phase") : ""))
        .toList();
  }

  @Test
  void S2_an_operator_revives_a_retired_slot_over_the_bus_without_charging_the_budget(
      Vertx vertx) {
    deployReady(vertx, brittle("rv"));
    List<JsonObject> events = events(vertx, "rv");
    String retired = retireOne(vertx, "rv");
    JsonObject before = status(vertx, "rv");

    JsonObject reply = request(vertx, Addresses.forPool("rv").revive(),
        new JsonObject().put("worker", retired));

    assertThat(reply).isEqualTo(new JsonObject().put("worker", retired).put("incarnation", 2));
    JsonObject after = awaitStatus(vertx, "rv", idleAt(retired, 2));
    assertThat(counter(after, "revives")).isEqualTo(1);
    assertThat(counter(after, "restarts")).isEqualTo(counter(before, "restarts"));
    assertThat(after.getJsonObject("budget").getInteger("restartsInWindow"))
        .isEqualTo(before.getJsonObject("budget").getInteger("restartsInWindow"));
    assertThat(slot(after, retired).getValue("retirement")).isNull();
    await().atMost(STEP).until(() -> kinds(events, retired).contains("phase:IDLE"));
    assertThat(kinds(events, retired)).containsSubsequence("retired", "revive",
        "phase:INSTALLING", "phase:IDLE");
    JsonObject revive = events.stream().filter(e -> "revive".equals(e.getString("type")))
        .findFirst().orElseThrow();
    assertThat(revive.getString("by")).isEqualTo("operator");
    assertThat(revive.getString("was")).isEqualTo("REPLACEMENT_UNAVAILABLE");
    assertThat(revive.getInteger("incarnation")).isEqualTo(2);
    // Back in service: it takes work again.
    for (int i = 0; i < 4; i++) {
      assertThat(run(vertx, "rv", echo(i))).isInstanceOf(Outcome.Completed.class);
    }
  }

  @Test
  void S2_a_revived_slot_that_fails_again_meets_the_budget_as_it_stands(Vertx vertx) {
    deployReady(vertx, brittle("again"));
    String retired = retireOne(vertx, "again");
    request(vertx, Addresses.forPool("again").revive(), new JsonObject().put("worker", retired));
    awaitStatus(vertx, "again", idleAt(retired, 2));

    // Both slots take turns: crash until the revived one is the one that crashes.
    await().atMost(STEP).until(() -> {
      run(vertx, "again", crash());
      return "RETIRED".equals(PoolFixture.phase(status(vertx, "again"), retired));
    });
    JsonObject after = status(vertx, "again");
    assertThat(slot(after, retired).getInteger("incarnation")).isEqualTo(2);
    assertThat(counter(after, "revives")).isEqualTo(1);
  }

  @Test
  void a_revive_the_pool_refuses_is_409_by_name_and_changes_nothing(Vertx vertx) {
    deployReady(vertx, brittle("no"));
    JsonObject before = status(vertx, "no");

    ReplyException notRetired = refused(vertx, Addresses.forPool("no").revive(),
        new JsonObject().put("worker", "w-0"));
    ReplyException unknown = refused(vertx, Addresses.forPool("no").revive(),
        new JsonObject().put("worker", "w-7"));

    assertThat(notRetired.failureCode()).isEqualTo(409);
    assertThat(notRetired.getMessage())
        .isEqualTo("REVIVE_REFUSED: worker 'w-0' cannot be revived: it is IDLE, not retired");
    assertThat(unknown.failureCode()).isEqualTo(409);
    assertThat(unknown.getMessage()).isEqualTo("UNKNOWN_WORKER: no worker 'w-7' in this pool");
    assertThat(status(vertx, "no")).isEqualTo(before);
  }

  static Stream<Arguments> clients() {
    BiFunction<Vertx, String, PoolClient> inJvm = PoolClient::create;
    BiFunction<Vertx, String, PoolClient> overBus =
        (vertx, pool) -> PoolClient.create(vertx, "bus-view-of-" + pool, "shepherd." + pool, 10_000);
    return Stream.of(Arguments.of("in-JVM", inJvm), Arguments.of("over the bus", overBus));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("clients")
  void PoolClient_revive_succeeds_with_the_new_incarnation_and_fails_typed(String how,
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    deployReady(vertx, brittle("pc"));
    PoolClient pool = client.apply(vertx, "pc");
    String retired = retireOne(vertx, "pc");
    JsonObject before = status(vertx, "pc");

    assertThat(failure(pool.revive("w-9"))).isInstanceOfSatisfying(PoolErrorException.class,
        e -> assertThat(e.name()).isEqualTo("UNKNOWN_WORKER"));
    String healthy = retired.equals("w-0") ? "w-1" : "w-0";
    assertThat(failure(pool.revive(healthy))).isInstanceOfSatisfying(PoolErrorException.class,
        e -> {
          assertThat(e.name()).isEqualTo("REVIVE_REFUSED");
          assertThat(e.getMessage()).contains(healthy, "not retired");
        });
    for (String bad : new String[] {null, "", "w".repeat(257)}) {
      assertThat(failure(pool.revive(bad))).as("worker %s", bad)
          .isInstanceOf(BadRequest.class).hasMessageStartingWith("worker");
    }
    assertThat(status(vertx, "pc")).isEqualTo(before);

    assertThat(join(pool.revive(retired))).isEqualTo(2);
    awaitStatus(vertx, "pc", idleAt(retired, 2));
    assertThat(failure(pool.revive(retired))).isInstanceOfSatisfying(PoolErrorException.class,
        e -> assertThat(e.name()).isEqualTo("REVIVE_REFUSED"));
  }

  @Test
  void PoolClient_revive_completes_on_the_callers_context(Vertx vertx) {
    deployReady(vertx, brittle("ctx"));
    String retired = retireOne(vertx, "ctx");
    io.vertx.core.Context caller = vertx.getOrCreateContext();
    io.vertx.core.Promise<Boolean> same = io.vertx.core.Promise.promise();
    caller.runOnContext(v -> PoolClient.create(vertx, "ctx").revive(retired)
        .onComplete(ar -> same.complete(Vertx.currentContext() == caller && ar.succeeded())));
    assertThat(join(same.future())).isTrue();
  }

  @Test
  void S2_reviveAfterMs_brings_a_budget_retired_slot_back_by_itself(Vertx vertx) {
    JsonObject config = brittle("breaker");
    supervision(config).put("reviveAfterMs", 300);
    deployReady(vertx, config);
    List<JsonObject> events = events(vertx, "breaker");

    String retired = retireOne(vertx, "breaker");

    JsonObject back = awaitStatus(vertx, "breaker", idleAt(retired, 2));
    assertThat(counter(back, "revives")).isEqualTo(1);
    assertThat(counter(back, "restarts")).isZero();
    await().atMost(STEP).until(() -> kinds(events, retired).contains("phase:IDLE"));
    assertThat(kinds(events, retired)).containsSubsequence("budget", "retired", "revive",
        "phase:INSTALLING", "phase:IDLE");
    assertThat(events.stream().filter(e -> "revive".equals(e.getString("type")))
        .map(e -> e.getString("by"))).containsExactly("reviveAfterMs");
  }

  @Test
  void S2_reviveAfterMs_tries_a_slot_whose_worker_failed_to_start_again_and_again(Vertx vertx) {
    JsonObject config = demoPool("stubborn", 1);
    worker(config).put("config", new JsonObject().put("failStart", "always"));
    supervision(config).put("reviveAfterMs", 100);
    PoolFixture.deploy(vertx, config);

    JsonObject tried = awaitStatus(vertx, "stubborn", s -> counter(s, "revives") >= 2);

    assertThat(counter(tried, "restarts")).isZero();
    awaitStatus(vertx, "stubborn", phaseIs("w-0", "RETIRED"));
  }
}
