package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed requests on every endpoint of the pools' HTTP API (section 7), in the running
 * application: each is answered 400, 404, 409 or 413 with {@code {"error": NAME, "message": …}}
 * naming the field (or the pool, the slot, the limit), and the pool's whole snapshot (counters,
 * backlog, slots, budget, dead letters) is the same afterwards: nothing accepted, counted, moved,
 * revived, replayed or discarded. J5's dead-letter routes and J6's lookups included.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MalformedInputTest {
  private static final String JOBS = "/api/pools/jobs/jobs";
  private static final String REBALANCE = "/api/pools/jobs/rebalance";
  private static final String RESTART = "/api/pools/jobs/slots/w-0/restart";
  private static final int MAX_BODY = 2048;
  private WebTestApp app;

  @BeforeAll
  void start() {
    app = WebTestApp.start(WebTestApp.config(new JsonObject().put("maxBodyBytes", MAX_BODY),
        WebTestApp.demoPool("jobs", 2)));
    // Counters that are not all zero, so a refusal that counted something would show.
    assertThat(Http.post(app.url(JOBS), "{\"job\": \"warm\", \"payload\": {\"echo\": 1}}")
        .status()).isEqualTo(200);
  }

  @AfterAll
  void stop() {
    app.close();
  }

  private static Arguments bad(String name, String method, String path, String body, int status,
      String error, String field) {
    return Arguments.of(name, method, path, body, status, error, field);
  }

  private static Arguments post(String name, String path, String body, String field) {
    return bad(name, "POST", path, body, 400, "BAD_REQUEST", field);
  }

  private static String submit(String extra) {
    return "{\"payload\": 1" + extra + "}";
  }

  /** Each malformed submit body, sent both waiting for the outcome and with ?wait=false. */
  static Stream<Arguments> badSubmits() {
    String id257 = "x".repeat(257);
    return Stream.of(
        new String[] {"empty body", "", "body"},
        new String[] {"not JSON", "not json", "body"},
        new String[] {"truncated JSON", "{\"payload\":", "body"},
        new String[] {"unclosed object", "{\"payload\": 1", "body"},
        new String[] {"JSON array", "[1, 2]", "body"},
        new String[] {"empty JSON array", "[]", "body"},
        new String[] {"JSON number", "42", "body"},
        new String[] {"JSON string", "\"payload\"", "body"},
        new String[] {"JSON null", "null", "body"},
        new String[] {"empty object", "{}", "payload"},
        new String[] {"missing payload", "{\"job\": \"j\"}", "payload"},
        new String[] {"job number", submit(", \"job\": 7"), "job"},
        new String[] {"job empty", submit(", \"job\": \"\""), "job"},
        new String[] {"job 257 chars", submit(", \"job\": \"" + id257 + "\""), "job"},
        new String[] {"key empty", submit(", \"key\": \"\""), "key"},
        new String[] {"key empty array", submit(", \"key\": []"), "key"},
        new String[] {"key array", submit(", \"key\": [\"k\"]"), "key"},
        new String[] {"key 257 chars", submit(", \"key\": \"" + id257 + "\""), "key"},
        new String[] {"timeout negative", submit(", \"timeoutMs\": -5"), "timeoutMs"},
        new String[] {"timeout zero", submit(", \"timeoutMs\": 0"), "timeoutMs"},
        new String[] {"timeout fractional", submit(", \"timeoutMs\": 2.5"), "timeoutMs"},
        new String[] {"timeout huge", submit(", \"timeoutMs\": 99999999999999"), "timeoutMs"},
        new String[] {"timeout text", submit(", \"timeoutMs\": \"10\""), "timeoutMs"},
        new String[] {"replyTo over HTTP", submit(", \"replyTo\": \"addr\""), "replyTo"},
        new String[] {"delayMs negative", submit(", \"delayMs\": -1"), "delayMs"},
        new String[] {"delayMs fractional", submit(", \"delayMs\": 0.5"), "delayMs"},
        new String[] {"delayMs text", submit(", \"delayMs\": \"1000\""), "delayMs"},
        new String[] {"delayMs object", submit(", \"delayMs\": {\"ms\": 1}"), "delayMs"},
        new String[] {"delayMs above maxDelayMs", submit(", \"delayMs\": 86400001"),
            "delayMs: must be at most 86400000"},
        new String[] {"retry not an object", submit(", \"retry\": 3"), "retry"},
        new String[] {"retry an array", submit(", \"retry\": [3]"), "retry"},
        new String[] {"retry maxAttempts 0", submit(", \"retry\": {\"maxAttempts\": 0}"),
            "retry.maxAttempts"},
        new String[] {"retry maxAttempts text",
            submit(", \"retry\": {\"maxAttempts\": \"2\"}"), "retry.maxAttempts"},
        new String[] {"retry backoff not an object",
            submit(", \"retry\": {\"backoff\": 100}"), "retry.backoff"},
        new String[] {"retry backoff multiplier 0.5",
            submit(", \"retry\": {\"backoff\": {\"multiplier\": 0.5}}"),
            "retry.backoff.multiplier"},
        new String[] {"retry backoff jitter 3",
            submit(", \"retry\": {\"backoff\": {\"jitter\": 3}}"), "retry.backoff.jitter"},
        new String[] {"retry unknown field", submit(", \"retry\": {\"tries\": 2}"),
            "retry.tries"},
        new String[] {"unknown field", submit(", \"unknown\": true"), "unknown"},
        new String[] {"another unknown field", submit(", \"colour\": \"blue\""), "colour"})
        .flatMap(c -> Stream.of(post("submit " + c[0], JOBS, c[1], c[2]),
            post("submit ?wait=false " + c[0], JOBS + "?wait=false", c[1], c[2])));
  }

  static Stream<Arguments> malformed() {
    String id257 = "x".repeat(257);
    String huge = new JsonObject().put("payload", "y".repeat(MAX_BODY)).encode();
    return Stream.of(
        post("submit wait bogus", JOBS + "?wait=bogus", submit(""), "wait"),
        post("submit wait empty", JOBS + "?wait=", submit(""), "wait"),
        post("submit wait yes", JOBS + "?wait=yes", submit(""), "wait"),
        post("submit wait maybe", JOBS + "?wait=maybe", submit(""), "wait"),
        bad("submit body over maxBodyBytes", "POST", JOBS, huge, 413, "PAYLOAD_TOO_LARGE",
            String.valueOf(MAX_BODY)),
        bad("cancel job 257 chars", "DELETE", JOBS + "/" + id257, null, 400, "BAD_REQUEST",
            "job"),
        post("rebalance not JSON", REBALANCE, "nope", "body"),
        post("rebalance empty body", REBALANCE, "", "body"),
        post("rebalance JSON array", REBALANCE, "[1, 2]", "body"),
        post("rebalance empty object", REBALANCE, "{}", "key"),
        post("rebalance missing key", REBALANCE, "{\"worker\": \"w-0\"}", "key"),
        post("rebalance missing worker", REBALANCE, "{\"key\": \"k\"}", "worker"),
        post("rebalance key number", REBALANCE, "{\"key\": 5, \"worker\": \"w-0\"}", "key"),
        post("rebalance key empty", REBALANCE, "{\"key\": \"\", \"worker\": \"w-0\"}", "key"),
        post("rebalance worker number", REBALANCE, "{\"key\": \"k\", \"worker\": 5}", "worker"),
        post("rebalance worker boolean", REBALANCE, "{\"key\": \"k\", \"worker\": false}",
            "worker"),
        post("rebalance unknown field", REBALANCE,
            "{\"key\": \"k\", \"worker\": \"w-0\", \"extra\": 1}", "extra"),
        post("rebalance another unknown field", REBALANCE,
            "{\"key\": \"k\", \"worker\": \"w-0\", \"force\": true}", "force"),
        bad("rebalance unknown worker", "POST", REBALANCE, "{\"key\": \"k\", \"worker\": \"w-9\"}",
            409, "UNKNOWN_WORKER", "w-9"),
        bad("rebalance body over maxBodyBytes", "POST", REBALANCE, huge, 413,
            "PAYLOAD_TOO_LARGE", String.valueOf(MAX_BODY)),
        post("restart body not JSON", RESTART, "now", "body"),
        post("restart body JSON array", RESTART, "[]", "body"),
        post("restart body JSON string", RESTART, "\"w-0\"", "body"),
        post("restart body truncated", RESTART, "{", "body"),
        post("restart body with a field", RESTART, "{\"force\": true}", "force"),
        post("restart body naming the worker", RESTART, "{\"worker\": \"w-0\"}", "worker"),
        post("restart slot 257 chars", "/api/pools/jobs/slots/" + id257 + "/restart", "",
            "slot"),
        bad("restart unknown slot", "POST", "/api/pools/jobs/slots/w-9/restart", "", 409,
            "UNKNOWN_WORKER", "w-9"),
        bad("restart a slot that is not retired", "POST", RESTART, "", 409, "REVIVE_REFUSED",
            "w-0"),
        bad("restart body over maxBodyBytes", "POST", RESTART, huge, 413, "PAYLOAD_TOO_LARGE",
            String.valueOf(MAX_BODY)),
        bad("submit to unknown pool", "POST", "/api/pools/ghost/jobs", submit(""), 404,
            "UNKNOWN_POOL", "ghost"),
        bad("snapshot of unknown pool", "GET", "/api/pools/ghost", null, 404, "UNKNOWN_POOL",
            "ghost"),
        bad("events of unknown pool", "GET", "/api/pools/ghost/events", null, 404,
            "UNKNOWN_POOL", "ghost"),
        bad("cancel on unknown pool", "DELETE", "/api/pools/ghost/jobs/j", null, 404,
            "UNKNOWN_POOL", "ghost"),
        bad("rebalance on unknown pool", "POST", "/api/pools/ghost/rebalance",
            "{\"key\": \"k\", \"worker\": \"w-0\"}", 404, "UNKNOWN_POOL", "ghost"),
        bad("restart on unknown pool", "POST", "/api/pools/ghost/slots/w-0/restart", "", 404,
            "UNKNOWN_POOL", "ghost"),
        bad("events without a WebSocket upgrade", "GET", "/api/pools/jobs/events", null, 400,
            "BAD_REQUEST", "Upgrade"),
        bad("unknown route", "GET", "/no/such/page", null, 404, "NOT_FOUND", "/no/such/page"));
  }

  private static Arguments get(String name, String path, String field) {
    return bad(name, "GET", path, null, 400, "BAD_REQUEST", field);
  }

  /** J5, J6: lookups and the dead-letter set. */
  static Stream<Arguments> badJobQueries() {
    String id257 = "x".repeat(257);
    String lookup = JOBS + "/warm";
    String dead = "/api/pools/jobs/dead";
    String replay = dead + "/j/replay";
    String huge = new JsonObject().put("payload", "y".repeat(MAX_BODY)).encode();
    return Stream.of(
        get("lookup job 257 chars", JOBS + "/" + id257, "job"),
        get("lookup wait bogus", lookup + "?wait=bogus", "wait"),
        get("lookup wait empty", lookup + "?wait=", "wait"),
        get("lookup wait 1", lookup + "?wait=1", "wait"),
        get("lookup wait twice", lookup + "?wait=true&wait=false", "wait"),
        get("lookup timeoutMs without wait", lookup + "?timeoutMs=100", "timeoutMs"),
        get("lookup timeoutMs with wait=false", lookup + "?wait=false&timeoutMs=100",
            "timeoutMs"),
        get("lookup timeoutMs zero", lookup + "?wait=true&timeoutMs=0", "timeoutMs"),
        get("lookup timeoutMs negative", lookup + "?wait=true&timeoutMs=-5", "timeoutMs"),
        get("lookup timeoutMs fractional", lookup + "?wait=true&timeoutMs=1.5", "timeoutMs"),
        get("lookup timeoutMs text", lookup + "?wait=true&timeoutMs=soon", "timeoutMs"),
        get("lookup timeoutMs empty", lookup + "?wait=true&timeoutMs=", "timeoutMs"),
        get("lookup timeoutMs over an hour", lookup + "?wait=true&timeoutMs=3600001",
            "timeoutMs"),
        get("lookup timeoutMs 25 digits", lookup + "?wait=true&timeoutMs=" + "9".repeat(25),
            "timeoutMs"),
        get("lookup timeoutMs twice", lookup + "?wait=true&timeoutMs=5&timeoutMs=6",
            "timeoutMs"),
        bad("lookup unknown job", "GET", JOBS + "/never", null, 404, "UNKNOWN_JOB", "never"),
        bad("lookup unknown job, waiting", "GET", JOBS + "/never?wait=true", null, 404,
            "UNKNOWN_JOB", "never"),
        bad("lookup empty job id", "GET", JOBS + "/", null, 404, "NOT_FOUND", "/jobs/"),
        bad("lookup on unknown pool", "GET", "/api/pools/ghost/jobs/j", null, 404,
            "UNKNOWN_POOL", "ghost"),
        get("dead offset negative", dead + "?offset=-1", "offset"),
        get("dead offset text", dead + "?offset=first", "offset"),
        get("dead offset fractional", dead + "?offset=0.5", "offset"),
        get("dead offset past an int", dead + "?offset=3000000000", "offset"),
        get("dead offset twice", dead + "?offset=1&offset=2", "offset"),
        get("dead offset empty", dead + "?offset=", "offset"),
        get("dead limit zero", dead + "?limit=0", "limit"),
        get("dead limit 501", dead + "?limit=501", "limit"),
        get("dead limit negative", dead + "?limit=-10", "limit"),
        get("dead limit text", dead + "?limit=all", "limit"),
        get("dead limit hex", dead + "?limit=0x10", "limit"),
        bad("dead on unknown pool", "GET", "/api/pools/ghost/dead", null, 404, "UNKNOWN_POOL",
            "ghost"),
        get("dead entry job 257 chars", dead + "/" + id257, "job"),
        bad("dead entry unknown job", "GET", dead + "/never", null, 404, "UNKNOWN_JOB",
            "never"),
        bad("dead entry on unknown pool", "GET", "/api/pools/ghost/dead/j", null, 404,
            "UNKNOWN_POOL", "ghost"),
        post("replay job 257 chars", dead + "/" + id257 + "/replay", "", "job"),
        post("replay body not JSON", replay, "now", "body"),
        post("replay body JSON array", replay, "[\"j\"]", "body"),
        post("replay body JSON string", replay, "\"j\"", "body"),
        post("replay body truncated", replay, "{", "body"),
        post("replay body with a field", replay, "{\"job\": \"j\"}", "job"),
        post("replay body asking for priority", replay, "{\"priority\": 1}", "priority"),
        bad("replay unknown job", "POST", replay, "", 404, "UNKNOWN_JOB", "'j'"),
        bad("replay empty job id", "POST", dead + "//replay", "", 404, "NOT_FOUND", "replay"),
        bad("replay on unknown pool", "POST", "/api/pools/ghost/dead/j/replay", "", 404,
            "UNKNOWN_POOL", "ghost"),
        bad("replay body over maxBodyBytes", "POST", replay, huge, 413, "PAYLOAD_TOO_LARGE",
            String.valueOf(MAX_BODY)),
        bad("discard job 257 chars", "DELETE", dead + "/" + id257, null, 400, "BAD_REQUEST",
            "job"),
        bad("discard body not JSON", "DELETE", dead + "/j", "all", 400, "BAD_REQUEST", "body"),
        bad("discard body with a field", "DELETE", dead + "/j", "{\"force\": true}", 400,
            "BAD_REQUEST", "force"),
        bad("discard unknown job", "DELETE", dead + "/j", null, 404, "UNKNOWN_JOB", "'j'"),
        bad("discard empty job id", "DELETE", dead + "/", null, 404, "NOT_FOUND", "dead"),
        bad("discard on unknown pool", "DELETE", "/api/pools/ghost/dead/j", null, 404,
            "UNKNOWN_POOL", "ghost"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"badSubmits", "malformed", "badJobQueries"})
  void malformed_request_is_refused_naming_the_field_and_changes_nothing(String name,
      String method, String path, String body, int status, String error, String field) {
    JsonObject before = snapshot();

    Http.Response response = Http.send(HttpRequest.newBuilder(URI.create(app.url(path)))
        .header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body)));

    assertThat(response.status()).as(response.body()).isEqualTo(status);
    JsonObject answer = response.json();
    assertThat(answer.fieldNames()).containsExactlyInAnyOrder("error", "message");
    assertThat(answer.getString("error")).isEqualTo(error);
    assertThat(answer.getString("message")).as("message names the field").contains(field);
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void wrong_methods_on_operator_endpoints_are_refused_without_effect() {
    JsonObject before = snapshot();
    HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(app.url("/metrics")))
        .POST(HttpRequest.BodyPublishers.ofString("x"));
    assertThat(Http.send(post).status()).isIn(404, 405);
    HttpRequest.Builder put = HttpRequest.newBuilder(URI.create(app.url("/api/pools/jobs")))
        .PUT(HttpRequest.BodyPublishers.ofString("{}"));
    assertThat(Http.send(put).status()).isIn(404, 405);
    assertThat(Http.get(app.url(RESTART)).status()).isIn(404, 405);
    HttpRequest.Builder delete = HttpRequest.newBuilder(URI.create(app.url(RESTART))).DELETE();
    assertThat(Http.send(delete).status()).isIn(404, 405);
    assertThat(snapshot()).isEqualTo(before);
  }

  private JsonObject snapshot() {
    Http.Response r = Http.get(app.url("/api/pools/jobs"));
    assertThat(r.status()).isEqualTo(200);
    return r.json();
  }
}
