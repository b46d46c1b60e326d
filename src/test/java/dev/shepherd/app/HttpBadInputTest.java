package dev.shepherd.app;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed requests on every HTTP endpoint of the pools' API (section 7): each is answered
 * 400/404/409/413 with {@code {"error": NAME, "message": …}} naming the field, and the pool's
 * snapshot (counters, backlog, slots) is the same afterwards.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class HttpBadInputTest {
  private static final String JOBS = "/api/pools/jobs/jobs";
  private static final String REBALANCE = "/api/pools/jobs/rebalance";
  private static final int MAX_BODY = 2048;

  private static Arguments bad(String name, HttpMethod method, String path, String body,
      int status, String error, String field) {
    return Arguments.of(name, method, path, body, status, error, field);
  }

  private static Arguments post(String name, String path, String body, String field) {
    return bad(name, HttpMethod.POST, path, body, 400, "BAD_REQUEST", field);
  }

  private static String submit(String extra) {
    return "{\"payload\": 1" + extra + "}";
  }

  static Stream<Arguments> malformed() {
    String id257 = "x".repeat(257);
    String huge = new JsonObject().put("payload", "y".repeat(MAX_BODY)).encode();
    return Stream.of(
        post("submit not JSON", JOBS, "not json", "body"),
        post("submit truncated JSON", JOBS, "{\"payload\":", "body"),
        post("submit empty body", JOBS, "", "body"),
        post("submit JSON array", JOBS, "[1, 2]", "body"),
        post("submit JSON string", JOBS, "\"payload\"", "body"),
        post("submit JSON null", JOBS, "null", "body"),
        post("submit missing payload", JOBS, "{\"job\": \"j\"}", "payload"),
        post("submit job number", JOBS, submit(", \"job\": 7"), "job"),
        post("submit job empty", JOBS, submit(", \"job\": \"\""), "job"),
        post("submit job 257 chars", JOBS, submit(", \"job\": \"" + id257 + "\""), "job"),
        post("submit key array", JOBS, submit(", \"key\": []"), "key"),
        post("submit key 257 chars", JOBS, submit(", \"key\": \"" + id257 + "\""), "key"),
        post("submit timeout negative", JOBS, submit(", \"timeoutMs\": -5"), "timeoutMs"),
        post("submit timeout zero", JOBS, submit(", \"timeoutMs\": 0"), "timeoutMs"),
        post("submit timeout fractional", JOBS, submit(", \"timeoutMs\": 2.5"), "timeoutMs"),
        post("submit timeout huge", JOBS, submit(", \"timeoutMs\": 99999999999999"), "timeoutMs"),
        post("submit timeout text", JOBS, submit(", \"timeoutMs\": \"10\""), "timeoutMs"),
        post("submit unknown field", JOBS, submit(", \"unknown\": true"), "unknown"),
        post("submit replyTo over HTTP", JOBS, submit(", \"replyTo\": \"addr\""), "replyTo"),
        post("submit wait bogus", JOBS + "?wait=bogus", submit(""), "wait"),
        post("submit wait empty", JOBS + "?wait=", submit(""), "wait"),
        post("submit wait yes", JOBS + "?wait=yes", submit(""), "wait"),
        bad("submit body over maxBodyBytes", HttpMethod.POST, JOBS, huge, 413,
            "PAYLOAD_TOO_LARGE", String.valueOf(MAX_BODY)),
        bad("cancel job 257 chars", HttpMethod.DELETE, JOBS + "/" + id257, null, 400,
            "BAD_REQUEST", "job"),
        post("rebalance not JSON", REBALANCE, "nope", "body"),
        post("rebalance empty body", REBALANCE, "", "body"),
        post("rebalance empty object", REBALANCE, "{}", "key"),
        post("rebalance missing worker", REBALANCE, "{\"key\": \"k\"}", "worker"),
        post("rebalance worker number", REBALANCE, "{\"key\": \"k\", \"worker\": 5}", "worker"),
        post("rebalance key empty", REBALANCE, "{\"key\": \"\", \"worker\": \"w-0\"}", "key"),
        post("rebalance unknown field", REBALANCE,
            "{\"key\": \"k\", \"worker\": \"w-0\", \"extra\": 1}", "extra"),
        bad("rebalance unknown worker", HttpMethod.POST, REBALANCE,
            "{\"key\": \"k\", \"worker\": \"w-9\"}", 409, "UNKNOWN_WORKER", "w-9"),
        bad("rebalance body over maxBodyBytes", HttpMethod.POST, REBALANCE, huge, 413,
            "PAYLOAD_TOO_LARGE", String.valueOf(MAX_BODY)),
        bad("submit to unknown pool", HttpMethod.POST, "/api/pools/ghost/jobs", submit(""), 404,
            "UNKNOWN_POOL", "ghost"),
        bad("snapshot of unknown pool", HttpMethod.GET, "/api/pools/ghost", null, 404,
            "UNKNOWN_POOL", "ghost"),
        bad("cancel on unknown pool", HttpMethod.DELETE, "/api/pools/ghost/jobs/j", null, 404,
            "UNKNOWN_POOL", "ghost"),
        bad("rebalance on unknown pool", HttpMethod.POST, "/api/pools/ghost/rebalance",
            "{\"key\": \"k\", \"worker\": \"w-0\"}", 404, "UNKNOWN_POOL", "ghost"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void malformed_request_is_refused_naming_the_field_and_changes_nothing(String name,
      HttpMethod method, String path, String body, int status, String error, String field,
      Vertx vertx) {
    AppFixture app = AppFixture.startWithHttp(vertx,
        new JsonObject().put("maxBodyBytes", MAX_BODY), demoPool("jobs", 2));
    app.post("/api/pools/jobs/jobs", AppFixture.submitBody("warm", echo(1)));
    JsonObject before = app.status("jobs");

    HttpResponse<Buffer> response = app.call(method, path, body);

    assertThat(response.statusCode()).isEqualTo(status);
    JsonObject answer = response.bodyAsJsonObject();
    assertThat(answer.getString("error")).isEqualTo(error);
    assertThat(answer.getString("message")).contains(field);
    assertThat(app.status("jobs")).isEqualTo(before);
  }
}
