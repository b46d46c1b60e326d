package dev.shepherd.cluster.hosts;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.ClusterPorts;
import dev.shepherd.cluster.ClusteredVertx;
import dev.shepherd.cluster.FakeHost;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed bodies on every address a pool consumes for its worker hosts ({@code register},
 * {@code heartbeat}, {@code deregister}, the batch form of {@code completed}): each is answered
 * {@code fail(400, …)} naming the field, and the pool is exactly as it was (a host UP with a job
 * running on it, which a half-applied batch would have completed).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostBadInputTest {
  private static final String POOL = "bad";
  private static final long LEASE_MS = 100_000;
  private static Vertx vertx;
  private static Addresses addresses;
  private static HostCommand.Assign running;
  private static Future<Outcome> runningJob;
  private static JsonObject baseline;

  @BeforeAll
  static void pool() {
    vertx = ClusteredVertx.start(ClusterPorts.uniqueName("bad"), ClusterPorts.freeBase());
    PoolFixture.deploy(vertx, PoolFixture.demoPool(POOL, 0).put("heartbeatTimeoutMs", LEASE_MS));
    addresses = Addresses.forPool(POOL);
    FakeHost host = new FakeHost(vertx, addresses.prefix(), "h1", ClusteredVertx.nodeId(vertx));
    host.register(1, 1);
    await().atMost(PoolFixture.STEP).until(() -> !host.received.isEmpty());
    host.report(new HostReport.Created("h1/w-0", 1));
    awaitStatus(vertx, POOL, PoolFixture.idleAt("h1/w-0", 1));
    runningJob = PoolClient.create(vertx, POOL).outcome(JobRequest.of(PoolFixture.echo("x")));
    await().atMost(PoolFixture.STEP)
        .until(() -> !host.commands(HostCommand.Assign.class).isEmpty());
    running = host.commands(HostCommand.Assign.class).get(0);
    baseline = comparable(status(vertx, POOL));
  }

  @AfterAll
  static void close() {
    ClusteredVertx.close(vertx);
  }

  /** What a malformed body must not change: slots, hosts, backlog, counters. */
  private static JsonObject comparable(JsonObject status) {
    return new JsonObject().put("slots", status.getJsonArray("slots"))
        .put("hosts", status.getJsonArray("hosts")).put("backlog", status.getJsonObject("backlog"))
        .put("counters", status.getJsonObject("counters"));
  }

  private static JsonObject slots(Object... slots) {
    return register().put("slots", new JsonArray(List.of(slots)));
  }

  private static JsonObject register() {
    return new JsonObject().put("host", "h2").put("node", "n2").put("address", "a2")
        .put("slots", new JsonArray().add(new JsonObject().put("id", "h2/w-0")
            .put("maxConcurrency", 1)))
        .put("heartbeatMs", 100);
  }

  private static JsonObject heartbeat() {
    return new JsonObject().put("host", "h1").put("node", "n1").put("address", "a1");
  }

  private static JsonObject batch(Object... items) {
    return new JsonObject().put("host", "h1").put("items", new JsonArray(List.of(items)));
  }

  /** A well-formed completion of the job running on h1: it must not be applied. */
  private static JsonObject done() {
    return new JsonObject().put("worker", "h1/w-0").put("assignment", running.assignment())
        .put("result", "done");
  }

  private static JsonObject fact(String fact) {
    return new JsonObject().put("worker", "h1/w-0").put("incarnation", 1).put("fact", fact);
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("register", "not json", "body: "),
        Arguments.of("register", new JsonArray().add(1), "body: "),
        Arguments.of("register", new JsonObject(), "host: "),
        Arguments.of("register", register().put("host", 5), "host: "),
        Arguments.of("register", register().put("host", "h 2"), "host: "),
        Arguments.of("register", register().put("host", "x".repeat(65)), "host: "),
        Arguments.of("register", register().putNull("node"), "node: "),
        Arguments.of("register", register().put("node", ""), "node: "),
        Arguments.of("register", register().put("address", 7), "address: "),
        Arguments.of("register", registerWithout("slots"), "slots: "),
        Arguments.of("register", slots(), "slots: "),
        Arguments.of("register", register().put("slots", "h2/w-0"), "slots: "),
        Arguments.of("register", slots(5), "slots[0]: "),
        Arguments.of("register", slots(new JsonObject().put("id", "h1/w-0")), "slots[0].id: "),
        Arguments.of("register", slots(new JsonObject().put("id", "h2/")), "slots[0].id: "),
        Arguments.of("register", slots(new JsonObject().put("id", "h2/w-0"),
            new JsonObject().put("id", "h2/w-0")), "slots[1].id: "),
        Arguments.of("register", slots(new JsonObject().put("id", "h2/w-0")
            .put("maxConcurrency", 0)), "slots[0].maxConcurrency: "),
        Arguments.of("register", slots(new JsonObject().put("id", "h2/w-0")
            .put("maxConcurrency", "2")), "slots[0].maxConcurrency: "),
        Arguments.of("register", slots(new JsonObject().put("id", "h2/w-0").put("colour", 1)),
            "slots[0].colour: "),
        Arguments.of("register", registerWithout("heartbeatMs"), "heartbeatMs: "),
        Arguments.of("register", register().put("heartbeatMs", 0), "heartbeatMs: "),
        Arguments.of("register", register().put("heartbeatMs", 1.5), "heartbeatMs: "),
        Arguments.of("register", register().put("heartbeatMs", LEASE_MS), "heartbeatMs: "),
        Arguments.of("register", register().put("colour", "red"), "colour: "),
        Arguments.of("heartbeat", new JsonObject(), "host: "),
        Arguments.of("heartbeat", "[1]", "body: "),
        Arguments.of("heartbeat", heartbeatWithout("node"), "node: "),
        Arguments.of("heartbeat", heartbeat().put("address", ""), "address: "),
        Arguments.of("heartbeat", heartbeat().put("extra", true), "extra: "),
        Arguments.of("deregister", new JsonObject(), "host: "),
        Arguments.of("deregister", new JsonObject().put("host", ""), "host: "),
        Arguments.of("deregister", new JsonObject().put("host", "h1").put("node", "n1"), "node: "),
        Arguments.of("completed", new JsonObject().put("host", "h1"), "items: "),
        Arguments.of("completed", new JsonObject().put("host", "h1").put("items", new JsonObject()),
            "items: "),
        Arguments.of("completed", new JsonObject().put("items", new JsonArray()), "host: "),
        Arguments.of("completed", batch().put("extra", 1), "extra: "),
        Arguments.of("completed", batch(1), "items[0]: "),
        Arguments.of("completed", batch(done(), new JsonObject().put("worker", "h1/w-0")),
            "items[1].assignment: "),
        Arguments.of("completed", batch(done(), done().put("error", new JsonObject()
            .put("code", 500).put("message", "m"))), "items[1].result/error: "),
        Arguments.of("completed", batch(done().put("assignment", -1)), "items[0].assignment: "),
        Arguments.of("completed", batch(withoutResult().put("error",
            new JsonObject().put("code", "x").put("message", "m"))), "items[0].error.code: "),
        Arguments.of("completed", batch(withoutResult().put("error", "boom")), "items[0].error: "),
        Arguments.of("completed", batch(done(), fact("exploded")), "items[1].fact: "),
        Arguments.of("completed", batch(fact("stopped").put("exit", "TIMEOUT")),
            "items[0].exit: "),
        Arguments.of("completed", batch(fact("created").put("incarnation", 0)),
            "items[0].incarnation: "),
        Arguments.of("completed", batch(fact("created").put("cause", "x")), "items[0].cause: "),
        Arguments.of("completed", batch(done().put("worker", 3)), "items[0].worker: "),
        Arguments.of("completed", batch(done().put("runNanos", -1)), "items[0].runNanos: "),
        Arguments.of("completed", batch(done().put("runNanos", "5")), "items[0].runNanos: "),
        Arguments.of("completed", batch(done().put("runNanos", 1.5)), "items[0].runNanos: "),
        Arguments.of("completed", batch(done().putNull("runNanos")), "items[0].runNanos: "));
  }

  private static JsonObject registerWithout(String field) {
    JsonObject json = register();
    json.remove(field);
    return json;
  }

  private static JsonObject heartbeatWithout(String field) {
    JsonObject json = heartbeat();
    json.remove(field);
    return json;
  }

  private static JsonObject withoutResult() {
    JsonObject json = done();
    json.remove("result");
    return json;
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("malformed")
  void a_malformed_body_is_refused_400_naming_the_field_and_changes_nothing(String address,
      Object body, String field) {
    ReplyException refused = PoolFixture.refused(vertx, addresses.prefix() + "." + address, body);

    assertThat(refused.failureCode()).isEqualTo(400);
    assertThat(refused.getMessage()).startsWith(field);
    assertThat(comparable(status(vertx, POOL))).isEqualTo(baseline);
    assertThat(runningJob.isComplete()).isFalse();
  }

  @Test
  void the_single_completion_form_still_answers_400_naming_its_field() {
    ReplyException refused = PoolFixture.refused(vertx, addresses.completed(),
        new JsonObject().put("worker", "h1/w-0"));

    assertThat(refused.failureCode()).isEqualTo(400);
    assertThat(refused.getMessage()).startsWith("assignment: ");
    assertThat(comparable(status(vertx, POOL))).isEqualTo(baseline);
  }

  @Test
  void leaving_as_a_host_the_pool_does_not_know_is_refused_409_UNKNOWN_HOST() {
    ReplyException refused = PoolFixture.refused(vertx, addresses.deregister(),
        new JsonObject().put("host", "nobody"));

    assertThat(refused.failureCode()).isEqualTo(409);
    assertThat(refused.getMessage()).startsWith("UNKNOWN_HOST: ");
    assertThat(comparable(status(vertx, POOL))).isEqualTo(baseline);
  }
}
