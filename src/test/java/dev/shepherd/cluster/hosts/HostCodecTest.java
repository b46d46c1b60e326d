package dev.shepherd.cluster.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Exit;
import dev.shepherd.core.JobError;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The worker-host protocol's JSON ({@link HostCodec}): every body survives a trip over the wire
 * (encoded, written as text, read back, decoded), and every malformed body is refused with a
 * message that names the field.
 */
class HostCodecTest {
  private static final long TOKEN = (3L << 40) + 7;

  /** Encoded, written as the bus writes it, read back: what the other node decodes. */
  private static JsonObject wire(JsonObject json) {
    return new JsonObject(json.encode());
  }

  @Nested
  class RoundTrips {

    @Test
    void register_with_known_and_unknown_capacities() {
      HostMessages.Register register = new HostMessages.Register("h1", "node-uuid",
          "shepherd.jobs.host.h1", List.of(new HostMessages.SlotOffer("h1/w-0", 2),
              new HostMessages.SlotOffer("h1/w-1", null)), 1000);

      assertThat(HostCodec.decodeRegister(wire(HostCodec.encode(register)))).isEqualTo(register);
    }

    @Test
    void registered_heartbeat_and_deregister() {
      var registered = new HostMessages.Registered("h1", 5, 5000);
      var heartbeat = new HostMessages.Heartbeat("h1", "node-uuid", "shepherd.jobs.host.h1");
      var deregister = new HostMessages.Deregister("h1");

      assertThat(HostCodec.decodeRegistered(wire(HostCodec.encode(registered))))
          .isEqualTo(registered);
      assertThat(HostCodec.decodeHeartbeat(wire(HostCodec.encode(heartbeat))))
          .isEqualTo(heartbeat);
      assertThat(HostCodec.decodeDeregister(wire(HostCodec.encode(deregister))))
          .isEqualTo(deregister);
    }

    @Test
    void a_command_batch_of_every_kind_keeps_its_order_and_term() {
      HostCommand.Batch batch = new HostCommand.Batch(3, List.of(
          new HostCommand.Stop("h1/w-0", 1, Exit.TIMEOUT),
          new HostCommand.Deploy("h1/w-0", 2),
          new HostCommand.Assign("h1/w-0", 2, TOKEN, "j7", new JsonObject().put("n", 1), 1, "k"),
          new HostCommand.Assign("h1/w-1", 1, 8, "j8", new JsonArray().add(1).add("two"), 2,
              null),
          new HostCommand.Assign("h1/w-1", 1, 9, "j9", "text", 1, null),
          new HostCommand.Assign("h1/w-1", 1, 10, "j10", null, 1, null),
          new HostCommand.Assign("h1/w-1", 1, 11, "j11", "resumed", 2, null,
              new JsonObject().put("step", 3)),
          new HostCommand.Reregister()));

      assertThat(HostCodec.decodeCommands(wire(HostCodec.encode(batch)))).isEqualTo(batch);
    }

    @Test
    void a_report_batch_of_every_kind_keeps_its_order() {
      HostReport.Batch batch = new HostReport.Batch("h1", List.of(
          new HostReport.Completion("h1/w-0", TOKEN, new JsonObject().put("echo", "hi"), null),
          new HostReport.Completion("h1/w-0", TOKEN + 1, null, null),
          new HostReport.Completion("h1/w-0", TOKEN + 2, "timed", null, 1_234_567L),
          new HostReport.Completion("h1/w-1", 12, null, new JobError(503, "busy")),
          new HostReport.Completion("h1/w-1", 14, null, new JobError(503, "busy"), 0),
          new HostReport.Completion("h1/w-1", 13, null,
              new JobError(500, "thrown", "java.lang.IllegalStateException")),
          new HostReport.RateLimited("h1/w-1", 14, 2_500),
          new HostReport.Progress("h1/w-1", 15, new JsonObject().put("step", 2),
              new JsonObject().put("step", 2).toBuffer().length()),
          new HostReport.Created("h1/w-0", 2),
          new HostReport.CreationFailed("h1/w-1", 3, "start() failed"),
          new HostReport.CreationFailed("h1/w-1", 4, null),
          new HostReport.Stopped("h1/w-0", 2, Exit.CRASH, "boom"),
          new HostReport.Stopped("h1/w-1", 5, Exit.NORMAL, null)));

      assertThat(HostCodec.decodeReports(wire(HostCodec.encode(batch)))).isEqualTo(batch);
    }

    @Test
    void H3_H7_every_bound_is_inclusive_and_rounds_and_traces_survive_the_trip() {
      String longest = "h1/" + "w".repeat(HostCodec.MAX_ID_LENGTH - 3);
      var register = new HostMessages.Register("h1", "n", "a",
          List.of(new HostMessages.SlotOffer(longest, Integer.MAX_VALUE)), 1);
      var registered = new HostMessages.Registered("h1", 0, Integer.MAX_VALUE);
      var heartbeat = new HostMessages.Heartbeat("h1", "n", "a", Integer.MAX_VALUE);
      HostCommand.Batch commands = new HostCommand.Batch(Long.MAX_VALUE, List.of(
          new HostCommand.Assign(longest, Integer.MAX_VALUE, Long.MAX_VALUE, "j", 1, 1, null,
              null, "00-trace-01", "k=v"),
          new HostCommand.Assign(longest, 1, 0, "j", 1, Integer.MAX_VALUE, null, null,
              "00-trace-01", null),
          new HostCommand.Reregister(2)));

      assertThat(HostCodec.decodeRegister(wire(HostCodec.encode(register)))).isEqualTo(register);
      assertThat(HostCodec.decodeRegistered(wire(HostCodec.encode(registered))))
          .isEqualTo(registered);
      assertThat(HostCodec.decodeHeartbeat(wire(HostCodec.encode(heartbeat))))
          .isEqualTo(heartbeat);
      assertThat(HostCodec.decodeCommands(wire(HostCodec.encode(commands)))).isEqualTo(commands);
      assertThat(HostCodec.encode(new HostMessages.Heartbeat("h1", "n", "a")).fieldNames())
          .as("a heartbeat of no round is written as one without the field")
          .containsExactly("host", "node", "address");
    }

    @Test
    void T2_a_progress_report_of_exactly_the_limit_is_carried() {
      JsonObject report = new JsonObject()
          .put("big", "x".repeat((int) dev.shepherd.core.JobProgress.MAX_BYTES - 10));
      long bytes = report.toBuffer().length();
      HostReport.Batch batch = new HostReport.Batch("h1",
          List.of(new HostReport.Progress("h1/w-0", 1, report, bytes)));

      assertThat(bytes).isEqualTo(dev.shepherd.core.JobProgress.MAX_BYTES);
      assertThat(HostCodec.decodeReports(wire(HostCodec.encode(batch)))).isEqualTo(batch);
    }

    @Test
    void T2_a_progress_report_that_is_not_an_object_or_too_big_is_refused_naming_the_field() {
      for (Object bad : List.of("text", 7, new JsonArray(),
          new JsonObject().put("big", "x".repeat((int) dev.shepherd.core.JobProgress.MAX_BYTES)))) {
        JsonObject body = new JsonObject().put("host", "h1").put("items", new JsonArray()
            .add(new JsonObject().put("worker", "h1/w-0").put("assignment", 1)
                .put("progress", bad)));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HostCodec.decodeReports(body))
            .hasMessageContaining("items[0].progress");
      }
    }

    @Test
    void results_that_are_not_json_are_carried_as_json() {
      HostReport.Batch batch = new HostReport.Batch("h1", List.of(
          new HostReport.Completion("h1/w-0", 1, Map.of("a", List.of(1, 2)), null),
          new HostReport.Completion("h1/w-0", 2, new StringBuilder("built"), null)));

      HostReport.Batch decoded = HostCodec.decodeReports(wire(HostCodec.encode(batch)));

      assertThat(((HostReport.Completion) decoded.items().get(0)).result())
          .isEqualTo(new JsonObject().put("a", new JsonArray().add(1).add(2)));
      assertThat(((HostReport.Completion) decoded.items().get(1)).result()).isEqualTo("built");
    }

    @Test
    void an_assign_command_carries_the_cores_assignment_to_an_incarnation() {
      Effect.Assign effect = new Effect.Assign("h1/w-0", TOKEN, "j1", "p", 2, "k");

      assertThat(HostCommand.Assign.of(effect, 4))
          .isEqualTo(new HostCommand.Assign("h1/w-0", 4, TOKEN, "j1", "p", 2, "k"));
    }

    @Test
    void each_report_becomes_its_core_event() {
      assertThat(new HostReport.Completion("h1/w-0", 9, "r", null).toEvent(100))
          .isEqualTo(new PoolEvent.Completed("h1/w-0", 9, "r", null, 100));
      assertThat(new HostReport.RateLimited("h1/w-0", 9, 250).toEvent(100))
          .as("F4: a handler's rate-limited answer, carried to the coordinator")
          .isEqualTo(new PoolEvent.RateLimited("h1/w-0", 9, 250, 100));
      assertThat(new HostReport.Created("h1/w-0", 2).toEvent(100))
          .isEqualTo(new PoolEvent.WorkerCreated("h1/w-0", 2, 100));
      assertThat(new HostReport.CreationFailed("h1/w-0", 2, "c").toEvent(100))
          .isEqualTo(new PoolEvent.CreationFailed("h1/w-0", 2, "c", 100));
      assertThat(new HostReport.Stopped("h1/w-0", 2, Exit.CRASH, "c").toEvent(100))
          .isEqualTo(new PoolEvent.WorkerStopped("h1/w-0", 2, Exit.CRASH, "c", 100));
    }

    @Test
    void a_host_reports_only_the_exits_it_sees_by_itself() {
      assertThatThrownBy(() -> new HostReport.Stopped("h1/w-0", 1, Exit.TIMEOUT, null))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  // ---- malformed bodies ----------------------------------------------------------------------

  private static final String REGISTER = "{\"host\":\"h1\",\"node\":\"n\",\"address\":\"a\","
      + "\"slots\":[{\"id\":\"h1/w-0\",\"maxConcurrency\":2}],\"heartbeatMs\":1000}";

  private static String command(String item) {
    return "{\"term\":1,\"items\":[" + item + "]}";
  }

  private static String report(String item) {
    return "{\"host\":\"h1\",\"items\":[" + item + "]}";
  }

  private static Arguments bad(String kind, String body, String field) {
    return bad(kind, body, field, "");
  }

  /** A malformed body whose refusal also says {@code says} (what the value was). */
  private static Arguments bad(String kind, String body, String field, String says) {
    return Arguments.of(kind, body, field, says);
  }

  static Stream<Arguments> malformedBodies() {
    String assign = "\"op\":\"assign\",\"worker\":\"h1/w-0\",\"incarnation\":1,\"assignment\":5,"
        + "\"job\":\"j\",\"attempt\":1";
    return Stream.of(
        bad("register", "[]", "body"),
        bad("register", "not json", "body"),
        bad("register", REGISTER.replace("\"host\":\"h1\"", "\"host\":7"), "host",
            "(was 7)"),
        bad("register", REGISTER.replace("\"host\":\"h1\"", "\"host\":\"h 1\""), "host",
            "(was \"h 1\")"),
        bad("register", REGISTER.replace("\"host\":\"h1\"", "\"host\":true"), "host",
            "(was true)"),
        bad("register", REGISTER.replace("\"host\":\"h1\"", "\"host\":{}"), "host",
            "(was an object)"),
        bad("register", REGISTER.replace("\"host\":\"h1\"", "\"host\":[]"), "host",
            "(was an array)"),
        bad("register", REGISTER.replace("\"host\":\"h1\",", ""), "host"),
        bad("register", REGISTER.replace("\"node\":\"n\"", "\"node\":\"\""), "node"),
        bad("register", REGISTER.replace("\"address\":\"a\",", ""), "address"),
        bad("register", REGISTER.replace("\"heartbeatMs\":1000", "\"heartbeatMs\":0"),
            "heartbeatMs"),
        bad("register", REGISTER.replace("\"heartbeatMs\":1000", "\"heartbeatMs\":\"1s\""),
            "heartbeatMs", "(was \"1s\")"),
        bad("register", REGISTER.replace("\"heartbeatMs\":1000", "\"heartbeatMs\":2147483648"),
            "heartbeatMs", "must be between 1 and 2147483647 (was 2147483648)"),
        bad("register", REGISTER.replace("[{\"id\":\"h1/w-0\",\"maxConcurrency\":2}]", "[]"),
            "slots"),
        bad("register", REGISTER.replace("[{\"id\":\"h1/w-0\",\"maxConcurrency\":2}]", "{}"),
            "slots"),
        bad("register", REGISTER.replace("{\"id\":\"h1/w-0\",\"maxConcurrency\":2}", "\"w\""),
            "slots[0]"),
        bad("register", REGISTER.replace("\"maxConcurrency\":2", "\"maxConcurrency\":0"),
            "slots[0].maxConcurrency"),
        bad("register", REGISTER.replace("\"maxConcurrency\":2", "\"maxConcurrency\":1.5"),
            "slots[0].maxConcurrency"),
        bad("register", REGISTER.replace("\"id\":\"h1/w-0\"", "\"id\":\"h2/w-0\""),
            "slots[0].id"),
        bad("register", REGISTER.replace("\"id\":\"h1/w-0\"", "\"id\":\"h1/\""), "slots[0].id"),
        bad("register", REGISTER.replace("{\"id\":\"h1/w-0\",\"maxConcurrency\":2}",
            "{\"id\":\"h1/w-0\"},{\"id\":\"h1/w-0\"}"), "slots[1].id"),
        bad("register", REGISTER.replace("\"maxConcurrency\":2", "\"capacity\":2"),
            "slots[0].capacity"),
        bad("register", REGISTER.replace("\"heartbeatMs\"", "\"heartbeat\""), "heartbeat"),
        bad("register", REGISTER.replace("\"heartbeatMs\"", "\"" + "x".repeat(40) + "\""),
            "x".repeat(40)),
        bad("register", REGISTER.replace("\"heartbeatMs\"", "\"" + "x".repeat(41) + "\""),
            "x".repeat(40) + "…"),
        bad("register", REGISTER.replace("\"node\":\"n\"", "\"node\":\"" + "n".repeat(257) + "\""),
            "node", "must be 1 to 256 characters (was 257)"),
        bad("registered", "{\"host\":\"h1\",\"term\":-1,\"heartbeatTimeoutMs\":5000}", "term"),
        bad("registered", "{\"host\":\"h1\",\"term\":1}", "heartbeatTimeoutMs", "(was missing)"),
        bad("registered", "{\"host\":\"h1\",\"term\":1,\"heartbeatTimeoutMs\":5000,\"x\":1}",
            "x"),
        bad("heartbeat", "{\"host\":\"h1\",\"node\":\"n\"}", "address"),
        bad("heartbeat", "{\"host\":\"h1\",\"node\":\"n\",\"address\":\"a\",\"at\":1}", "at"),
        bad("deregister", "{}", "host"),
        bad("deregister", "{\"host\":\"h1\",\"node\":\"n\"}", "node"),
        bad("deregister", "{\"host\":\"" + "h".repeat(300) + "\"}", "host"),
        bad("commands", "{\"items\":[]}", "term"),
        bad("commands", "{\"term\":1.5,\"items\":[]}", "term"),
        bad("commands", "{\"term\":1}", "items"),
        bad("commands", "{\"term\":1,\"items\":{}}", "items", "(was an object)"),
        bad("commands", "{\"term\":1,\"items\":[],\"host\":\"h1\"}", "host"),
        bad("commands", command("42"), "items[0]", "(was 42)"),
        bad("commands", command("{\"op\":\"explode\"}"), "items[0].op"),
        bad("commands", command("{\"worker\":\"h1/w-0\"}"), "items[0].op"),
        bad("commands", command("{\"op\":\"deploy\",\"worker\":\"h1/w-0\"}"),
            "items[0].incarnation"),
        bad("commands", command("{\"op\":\"deploy\",\"worker\":\"h1/w-0\",\"incarnation\":0}"),
            "items[0].incarnation"),
        bad("commands", command("{\"op\":\"deploy\",\"incarnation\":1}"), "items[0].worker"),
        bad("commands", command("{\"op\":\"deploy\",\"worker\":\"h1/w-0\",\"incarnation\":1,"
            + "\"assignment\":1}"), "items[0].assignment"),
        bad("commands", command("{\"op\":\"stop\",\"worker\":\"h1/w-0\",\"incarnation\":1,"
            + "\"reason\":\"CRASH\",\"assignment\":1}"), "items[0].assignment"),
        bad("commands", command("{\"op\":\"cancel\",\"worker\":\"h1/w-0\",\"incarnation\":1,"
            + "\"assignment\":1,\"reason\":\"CRASH\"}"), "items[0].reason"),
        bad("commands", command("{\"op\":\"stop\",\"worker\":\"h1/w-0\",\"incarnation\":1}"),
            "items[0].reason"),
        bad("commands", command("{\"op\":\"stop\",\"worker\":\"h1/w-0\",\"incarnation\":1,"
            + "\"reason\":\"BORED\"}"), "items[0].reason",
            "must be one of [CRASH, NODE_LOST, NORMAL, SIBLING_RESTART, TIMEOUT] (was \"BORED\")"),
        bad("commands", command("{\"op\":\"reregister\",\"now\":true}"), "items[0].now"),
        bad("commands", command("{" + assign + "}"), "items[0].payload"),
        bad("commands", command("{" + assign.replace("\"job\":\"j\",", "") + ",\"payload\":1}"),
            "items[0].job"),
        bad("commands", command("{" + assign.replace("\"attempt\":1", "\"attempt\":0")
            + ",\"payload\":1}"), "items[0].attempt"),
        bad("commands", command("{" + assign.replace("\"assignment\":5", "\"assignment\":\"5\"")
            + ",\"payload\":1}"), "items[0].assignment"),
        bad("commands", command("{" + assign + ",\"payload\":1,\"key\":\"\"}"), "items[0].key"),
        bad("commands", command("{\"op\":\"reregister\"},{" + assign + ",\"payload\":1,"
            + "\"tag\":1}"), "items[1].tag"),
        bad("reports", "{\"items\":[]}", "host", "is required"),
        bad("reports", "{\"host\":\"h1\",\"items\":[],\"term\":1}", "term"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,\"progress\":{},"
            + "\"result\":1}"), "items[0].result"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,\"result\":1,"
            + "\"incarnation\":1}"), "items[0].incarnation"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"incarnation\":1,\"fact\":\"failed\","
            + "\"exit\":\"CRASH\"}"), "items[0].exit"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"incarnation\":1,\"fact\":\"stopped\","
            + "\"exit\":\"CRASH\",\"assignment\":1}"), "items[0].assignment"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1}"),
            "items[0].result/error"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,\"result\":1,"
            + "\"error\":{\"code\":1,\"message\":\"m\"}}"), "items[0].result/error"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"result\":1}"), "items[0].assignment"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,\"rateLimitedMs\":-1}"),
            "items[0].rateLimitedMs"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,\"rateLimitedMs\":\"1\"}"),
            "items[0].rateLimitedMs"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,\"rateLimitedMs\":5,"
            + "\"result\":1}"), "items[0].result"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"rateLimitedMs\":5}"),
            "items[0].assignment"),
        bad("reports", report("{\"assignment\":1,\"result\":1}"), "items[0].worker"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,\"error\":\"boom\"}"),
            "items[0].error"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,"
            + "\"error\":{\"code\":\"500\",\"message\":\"m\"}}"), "items[0].error.code"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,"
            + "\"error\":{\"code\":500}}"), "items[0].error.message"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,"
            + "\"error\":{\"code\":500,\"message\":\"m\",\"type\":7}}"), "items[0].error.type"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,"
            + "\"error\":{\"code\":500,\"message\":\"m\",\"type\":\"\"}}"),
            "items[0].error.type"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,"
            + "\"error\":{\"code\":500,\"message\":\"m\",\"type\":{}}}"),
            "items[0].error.type"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"assignment\":1,"
            + "\"error\":{\"code\":500,\"message\":\"m\",\"stack\":\"…\"}}"),
            "items[0].error.stack"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"incarnation\":1,\"fact\":\"born\"}"),
            "items[0].fact"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"fact\":\"created\"}"),
            "items[0].incarnation"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"incarnation\":1,\"fact\":\"stopped\","
            + "\"exit\":\"TIMEOUT\"}"), "items[0].exit",
            "must be one of [CRASH, NORMAL] (was \"TIMEOUT\")"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"incarnation\":1,\"fact\":\"stopped\"}"),
            "items[0].exit", "(was missing)"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"incarnation\":1,\"fact\":\"failed\","
            + "\"cause\":{}}"), "items[0].cause"),
        bad("reports", report("{\"worker\":\"h1/w-0\",\"incarnation\":1,\"fact\":\"created\","
            + "\"exit\":\"CRASH\"}"), "items[0].exit"));
  }

  private static final Map<String, Function<Object, Object>> DECODERS = Map.of(
      "register", HostCodec::decodeRegister,
      "registered", HostCodec::decodeRegistered,
      "heartbeat", HostCodec::decodeHeartbeat,
      "deregister", HostCodec::decodeDeregister,
      "commands", HostCodec::decodeCommands,
      "reports", HostCodec::decodeReports);

  @ParameterizedTest(name = "{0} {2}: {1} {3}")
  @MethodSource("malformedBodies")
  void a_malformed_body_is_refused_naming_the_field(String kind, String body, String field,
      String says) {
    assertThatThrownBy(() -> DECODERS.get(kind).apply(body))
        .isInstanceOf(BadRequest.class)
        .hasMessageStartingWith(field + ": ")
        .hasMessageContaining(says);
  }
}
