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
 * Malformed input on the web endpoints: 400 with {@code {"error": "BAD_REQUEST", "message"}}
 * naming what is wrong, and the pool's state unchanged (nothing accepted, no binding moved).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MalformedInputTest {
  private WebTestApp app;

  @BeforeAll
  void start() {
    app = WebTestApp.start(WebTestApp.config(null, WebTestApp.demoPool("jobs", 2)));
  }

  @AfterAll
  void stop() {
    app.close();
  }

  static Stream<Arguments> badSubmits() {
    String longId = "j".repeat(257);
    return Stream.of(
        Arguments.of("", "body"),
        Arguments.of("not json", "body"),
        Arguments.of("{\"payload\": 1", "body"),
        Arguments.of("[]", "body"),
        Arguments.of("42", "body"),
        Arguments.of("\"text\"", "body"),
        Arguments.of("null", "body"),
        Arguments.of("{}", "payload"),
        Arguments.of("{\"job\": \"j\"}", "payload"),
        Arguments.of("{\"payload\": 1, \"job\": \"\"}", "job"),
        Arguments.of("{\"payload\": 1, \"job\": \"" + longId + "\"}", "job"),
        Arguments.of("{\"payload\": 1, \"job\": 7}", "job"),
        Arguments.of("{\"payload\": 1, \"key\": \"\"}", "key"),
        Arguments.of("{\"payload\": 1, \"key\": [\"k\"]}", "key"),
        Arguments.of("{\"payload\": 1, \"key\": \"" + longId + "\"}", "key"),
        Arguments.of("{\"payload\": 1, \"timeoutMs\": 0}", "timeoutMs"),
        Arguments.of("{\"payload\": 1, \"timeoutMs\": -5}", "timeoutMs"),
        Arguments.of("{\"payload\": 1, \"timeoutMs\": \"100\"}", "timeoutMs"),
        Arguments.of("{\"payload\": 1, \"timeoutMs\": 1.5}", "timeoutMs"),
        Arguments.of("{\"payload\": 1, \"timeoutMs\": 99999999999999}", "timeoutMs"),
        Arguments.of("{\"payload\": 1, \"replyTo\": \"somewhere\"}", "replyTo"),
        Arguments.of("{\"payload\": 1, \"colour\": \"blue\"}", "colour"));
  }

  @ParameterizedTest(name = "[{index}] submit {0}")
  @MethodSource("badSubmits")
  void malformed_submits_are_400_naming_the_field(String body, String field) {
    assertBadRequest(Http.post(app.url("/api/pools/jobs/jobs"), body), field);
    assertBadRequest(Http.post(app.url("/api/pools/jobs/jobs?wait=false"), body), field);
    assertThat(counters().getLong("accepted")).isZero();
    assertThat(counters().getLong("rejected")).isZero();
  }

  static Stream<Arguments> badRebalances() {
    return Stream.of(
        Arguments.of("", "body"),
        Arguments.of("[1, 2]", "body"),
        Arguments.of("{}", "key"),
        Arguments.of("{\"worker\": \"w-0\"}", "key"),
        Arguments.of("{\"key\": \"k\"}", "worker"),
        Arguments.of("{\"key\": \"\", \"worker\": \"w-0\"}", "key"),
        Arguments.of("{\"key\": 5, \"worker\": \"w-0\"}", "key"),
        Arguments.of("{\"key\": \"k\", \"worker\": false}", "worker"),
        Arguments.of("{\"key\": \"k\", \"worker\": \"w-0\", \"force\": true}", "force"));
  }

  @ParameterizedTest(name = "[{index}] rebalance {0}")
  @MethodSource("badRebalances")
  void malformed_rebalances_are_400_naming_the_field(String body, String field) {
    assertBadRequest(Http.post(app.url("/api/pools/jobs/rebalance"), body), field);
  }

  @Test
  void a_bad_wait_parameter_is_400() {
    assertBadRequest(Http.post(app.url("/api/pools/jobs/jobs?wait=maybe"), "{\"payload\":1}"),
        "wait");
    assertThat(counters().getLong("accepted")).isZero();
  }

  @Test
  void an_overlong_job_id_to_cancel_is_400() {
    assertBadRequest(Http.delete(app.url("/api/pools/jobs/jobs/" + "j".repeat(257)), null),
        "job");
  }

  @Test
  void the_events_endpoint_without_a_websocket_upgrade_is_400() {
    Http.Response r = Http.get(app.url("/api/pools/jobs/events"));
    assertBadRequest(r, "Upgrade");
  }

  @Test
  void unknown_pools_and_routes_are_404_with_a_message() {
    for (String path : new String[] {"/api/pools/nope", "/api/pools/nope/events"}) {
      Http.Response r = Http.get(app.url(path));
      assertThat(r.status()).as(path).isEqualTo(404);
      assertThat(r.json().getString("error")).isEqualTo("UNKNOWN_POOL");
      assertThat(r.json().getString("message")).contains("nope");
    }
    Http.Response submit = Http.post(app.url("/api/pools/nope/jobs"), "{\"payload\":1}");
    assertThat(submit.status()).isEqualTo(404);
    Http.Response route = Http.get(app.url("/no/such/page"));
    assertThat(route.status()).isEqualTo(404);
    assertThat(route.json().getString("error")).isEqualTo("NOT_FOUND");
  }

  @Test
  void a_rebalance_to_an_unknown_slot_is_409_and_moves_nothing() {
    Http.Response r = Http.post(app.url("/api/pools/jobs/rebalance"),
        "{\"key\":\"k\",\"worker\":\"w-9\"}");
    assertThat(r.status()).isEqualTo(409);
    assertThat(r.json().getString("error")).isEqualTo("UNKNOWN_WORKER");
  }

  @Test
  void wrong_methods_on_operator_endpoints_are_refused_without_effect() {
    HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(app.url("/metrics")))
        .POST(HttpRequest.BodyPublishers.ofString("x"));
    assertThat(Http.send(post).status()).isIn(404, 405);
    HttpRequest.Builder put = HttpRequest.newBuilder(URI.create(app.url("/api/pools/jobs")))
        .PUT(HttpRequest.BodyPublishers.ofString("{}"));
    assertThat(Http.send(put).status()).isIn(404, 405);
  }

  private JsonObject counters() {
    return Http.get(app.url("/api/pools/jobs")).json().getJsonObject("counters");
  }

  private static void assertBadRequest(Http.Response r, String field) {
    assertThat(r.status()).as(r.body()).isEqualTo(400);
    JsonObject body = r.json();
    assertThat(body.getString("error")).isEqualTo("BAD_REQUEST");
    assertThat(body.getString("message")).as("message names the field").contains(field);
  }
}
