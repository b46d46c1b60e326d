package dev.shepherd.app;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.refused;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.JobFailedException;
import dev.shepherd.LogCapture;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.testworkers.UnencodableResultWorker;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every accepted job is answered exactly once whatever its payload and result (P3, P8), on every
 * way in: HTTP, the bus (request/reply and {@code replyTo}), the SockJS bridge and the in-JVM
 * {@link PoolClient}. A payload nested deeper than {@code maxPayloadDepth} is refused 400 naming
 * {@code payload} and changes nothing; a result that no answer can carry (too deep, cyclic, not
 * JSON) is answered {@code failed} with {@code RESULT_NOT_ENCODABLE}, counted once as failed, and
 * logged once.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnswerEncodingTest {
  private static final String BRIDGE = "/eventbus/websocket";

  static String nested(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }

  static JsonObject counters(AppFixture app, String pool) {
    return app.status(pool).getJsonObject("counters");
  }

  /** A raw SockJS bridge socket on the application's port, collecting every frame. */
  static final class Bridge implements AutoCloseable {
    final List<JsonObject> frames = new CopyOnWriteArrayList<>();
    private final WebSocketClient client;
    private final WebSocket socket;

    Bridge(Vertx vertx, int port) {
      client = vertx.createWebSocketClient();
      socket = join(client.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
          .setPort(port).setURI(BRIDGE)).map(ws -> ws.handler(b -> frames.add(new JsonObject(b)))));
    }

    /** Sends {@code body} (JSON text, so it may be nested as deep as wanted) to {@code address}. */
    JsonObject request(String address, String body, String replyAddress) {
      socket.writeTextMessage("{\"type\":\"send\",\"address\":\"" + address
          + "\",\"replyAddress\":\"" + replyAddress + "\",\"body\":" + body + "}");
      await().atMost(STEP).until(() -> frames.stream()
          .anyMatch(f -> replyAddress.equals(f.getString("address"))));
      return frames.stream().filter(f -> replyAddress.equals(f.getString("address")))
          .findFirst().orElseThrow();
    }

    @Override
    public void close() {
      socket.close();
      client.close();
    }
  }

  @Nested
  class TooDeepPayloads {

    @Test
    void a_payload_deeper_than_maxPayloadDepth_is_refused_400_naming_payload_on_every_way_in(
        Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("jobs", 1).put("maxPayloadDepth", 8));
      String nine = "{\"payload\":" + nested(9) + "}";
      String deepest = "{\"payload\":" + nested(999) + "}";

      for (String body : List.of(nine, deepest)) {
        for (String wait : List.of("", "?wait=false")) {
          HttpResponse<Buffer> http = app.call(HttpMethod.POST, "/api/pools/jobs/jobs" + wait,
              body);
          assertThat(http.statusCode()).isEqualTo(400);
          assertThat(http.bodyAsJsonObject().getString("error")).isEqualTo("BAD_REQUEST");
          assertThat(http.bodyAsJsonObject().getString("message"))
              .startsWith("payload: nested more than 8 levels deep");
        }
      }
      ReplyException text = refused(vertx, "shepherd.jobs.submit", nine);
      ReplyException decoded = refused(vertx, "shepherd.jobs.submit", new JsonObject(nine));
      Throwable client = failure(PoolClient.create(vertx, "jobs").submit(
          new JsonArray(nested(9))));
      JsonObject bridged;
      try (Bridge bridge = new Bridge(vertx, app.port)) {
        bridged = bridge.request("shepherd.jobs.submit", nine, "deep-reply");
      }

      for (ReplyException bus : List.of(text, decoded)) {
        assertThat(bus.failureCode()).isEqualTo(400);
        assertThat(bus.getMessage()).startsWith("payload: nested more than 8 levels deep");
      }
      assertThat(client).isInstanceOf(BadRequest.class)
          .hasMessageStartingWith("payload: nested more than 8 levels deep");
      assertThat(bridged.getString("type")).isEqualTo("err");
      assertThat(bridged.getInteger("failureCode")).isEqualTo(400);
      assertThat(bridged.getString("message")).startsWith("payload:");
      assertThat(counters(app, "jobs").getLong("accepted")).isZero();
      assertThat(counters(app, "jobs").getLong("rejected")).isZero();

      HttpResponse<Buffer> atTheLimit = app.call(HttpMethod.POST, "/api/pools/jobs/jobs",
          "{\"payload\":" + nested(8) + "}");
      assertThat(atTheLimit.statusCode()).isEqualTo(200);
      assertThat(atTheLimit.bodyAsJsonObject().getJsonObject("result").getJsonArray("echo"))
          .isEqualTo(new JsonArray(nested(8)));
    }

    @Test
    void the_default_limit_is_64_levels(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("jobs", 1));
      assertThat(app.call(HttpMethod.POST, "/api/pools/jobs/jobs", "{\"payload\":" + nested(64)
          + "}").bodyAsJsonObject().getString("type")).isEqualTo("completed");
      assertThat(app.call(HttpMethod.POST, "/api/pools/jobs/jobs", "{\"payload\":" + nested(65)
          + "}").statusCode()).isEqualTo(400);
    }
  }

  @Nested
  class UnencodableResults {

    private static final List<String> KINDS = List.of("deep", "cycle", "thread");

    private AppFixture start(Vertx vertx) {
      JsonObject pool = demoPool("odd", 2);
      worker(pool).put("class", UnencodableResultWorker.class.getName());
      return AppFixture.start(vertx, pool);
    }

    private void assertNotEncodable(JsonObject outcome, String kind) {
      assertThat(outcome.getString("type")).as(kind).isEqualTo("failed");
      assertThat(outcome.getJsonObject("error").getInteger("code")).isEqualTo(500);
      assertThat(outcome.getJsonObject("error").getString("message"))
          .startsWith("RESULT_NOT_ENCODABLE: result");
      assertThat(outcome.containsKey("result")).isFalse();
    }

    @Test
    void P8_a_result_no_answer_can_carry_is_answered_failed_once_on_every_way_in(Vertx vertx) {
      AppFixture app = start(vertx);
      List<JsonObject> later = new CopyOnWriteArrayList<>();
      join(vertx.eventBus().<JsonObject>consumer("odd-answers", m -> later.add(m.body()))
          .completion());
      int answers = 0;
      try (LogCapture log = LogCapture.start(); Bridge bridge = new Bridge(vertx, app.port)) {
        for (String kind : KINDS) {
          String body = new JsonObject().put("payload", kind).encode();
          HttpResponse<Buffer> http = app.call(HttpMethod.POST, "/api/pools/odd/jobs", body);
          assertThat(http.statusCode()).isEqualTo(200);
          assertNotEncodable(http.bodyAsJsonObject(), kind);

          assertNotEncodable(request(vertx, "shepherd.odd.submit", new JsonObject(body)), kind);

          JsonObject admission = request(vertx, "shepherd.odd.submit",
              new JsonObject(body).put("replyTo", "odd-answers").put("job", "later-" + kind));
          assertThat(admission.getString("type")).isEqualTo("accepted");

          assertNotEncodable(bridge.request("shepherd.odd.submit", body, "odd-" + kind)
              .getJsonObject("body"), kind);

          Throwable failed = failure(PoolClient.create(vertx, "odd").submit(kind));
          assertThat(failed).isInstanceOf(JobFailedException.class);
          assertThat(((JobFailedException) failed).error().code()).isEqualTo(500);
          assertThat(((JobFailedException) failed).error().message())
              .startsWith("RESULT_NOT_ENCODABLE: result");
          answers += 5;
        }
        await().atMost(STEP).until(() -> later.size() == KINDS.size());
        later.forEach(outcome -> assertNotEncodable(outcome, outcome.getString("job")));

        JsonObject counters = counters(app, "odd");
        assertThat(counters.getLong("accepted")).isEqualTo(answers);
        assertThat(counters.getLong("failed")).isEqualTo(answers);
        assertThat(counters.getLong("completed")).isZero();
        // Logged once per job, on one line each, and nothing else complains.
        assertThat(log.lines().stream().filter(l -> l.contains("RESULT_NOT_ENCODABLE")))
            .hasSize(answers);
        assertThat(log.lines()).noneMatch(l -> l.startsWith("ERROR") || l.startsWith("\tat "));
      }
      // The pool goes on serving.
      assertThat(app.call(HttpMethod.POST, "/api/pools/odd/jobs", "{\"payload\":{\"fine\":1}}")
          .bodyAsJsonObject().getString("type")).isEqualTo("completed");
    }

    @Test
    void job_events_carry_no_payload_or_result_and_stay_small(Vertx vertx) {
      JsonObject odd = demoPool("odd", 1);
      worker(odd).put("class", UnencodableResultWorker.class.getName());
      AppFixture app = AppFixture.start(vertx, odd,
          demoPool("busy", 1).put("backlogCapacity", 0));
      List<JsonObject> events = new CopyOnWriteArrayList<>();
      for (String pool : List.of("odd", "busy")) {
        join(vertx.eventBus().<JsonObject>consumer("shepherd." + pool + ".events",
            m -> events.add(m.body())).completion());
      }
      PoolClient.create(vertx, "busy").submit(new JsonObject().put("sleepMs", 2_000));
      await().atMost(STEP).until(() -> app.status("busy").getJsonArray("slots")
          .getJsonObject(0).getInteger("inFlight") == 1);
      String big = "x".repeat(100_000);
      JsonObject rejected = app.post("/api/pools/busy/jobs", new JsonObject().put("payload",
          big)).bodyAsJsonObject();
      assertThat(rejected.getString("payload")).isEqualTo(big);
      failure(PoolClient.create(vertx, "odd").submit("deep"));

      await().atMost(STEP).until(() -> events.stream().filter(e -> "job".equals(
          e.getString("type"))).count() == 2);
      for (JsonObject job : events.stream().filter(e -> "job".equals(e.getString("type")))
          .toList()) {
        assertThat(job.getJsonObject("outcome").getString("type")).isIn("rejected", "failed");
        assertThat(job.getJsonObject("outcome").fieldNames()).doesNotContain("payload", "result");
        assertThat(job.encode().length()).isLessThan(1_000);
      }
    }
  }
}
