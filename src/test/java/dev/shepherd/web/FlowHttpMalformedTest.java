package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The flow-control routes refuse malformed requests (F1, F5 in docs/rules.md): 400 {@code
 * {"error": "BAD_REQUEST", "message"}} naming the field, 404 {@code UNKNOWN_POOL}, and nothing
 * changes (the pool stays unpaused and knows no group).
 */
@Timeout(value = 60, unit = SECONDS)
class FlowHttpMalformedTest {
  private static WebTestApp app;

  @BeforeAll
  static void start() {
    app = WebTestApp.start(WebTestApp.config(null, WebTestApp.demoPool("p", 1)));
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  static Stream<Arguments> malformed() {
    String longName = "g".repeat(257);
    return Stream.of(
        Arguments.of("POST", "/api/pools/p/pause", "{\"group\":\"g\"}", 400, "group"),
        Arguments.of("POST", "/api/pools/p/pause", "[]", 400, "body"),
        Arguments.of("POST", "/api/pools/p/resume", "nope", 400, "body"),
        Arguments.of("POST", "/api/pools/nowhere/pause", "", 404, null),
        Arguments.of("PUT", "/api/pools/p/groups/g", "", 400, "body"),
        Arguments.of("PUT", "/api/pools/p/groups/g", "[1]", 400, "body"),
        Arguments.of("PUT", "/api/pools/p/groups/g", "{\"concurrency\":-1}", 400, "concurrency"),
        Arguments.of("PUT", "/api/pools/p/groups/g", "{\"concurrency\":\"1\"}", 400,
            "concurrency"),
        Arguments.of("PUT", "/api/pools/p/groups/g", "{\"queueCapacity\":1.5}", 400,
            "queueCapacity"),
        Arguments.of("PUT", "/api/pools/p/groups/g", "{\"weight\":0}", 400, "weight"),
        Arguments.of("PUT", "/api/pools/p/groups/g", "{\"rateLimit\":3}", 400, "rateLimit"),
        Arguments.of("PUT", "/api/pools/p/groups/g", "{\"rateLimit\":{\"perMs\":5}}", 400,
            "rateLimit.permits"),
        Arguments.of("PUT", "/api/pools/p/groups/g", "{\"rateLimit\":{\"permits\":1,\"x\":1}}",
            400, "rateLimit.x"),
        Arguments.of("PUT", "/api/pools/p/groups/g", "{\"paused\":\"true\"}", 400, "paused"),
        Arguments.of("PUT", "/api/pools/p/groups/g", "{\"group\":\"g\"}", 400, "group"),
        Arguments.of("PUT", "/api/pools/p/groups/" + longName, "{\"weight\":2}", 400, "group"),
        Arguments.of("GET", "/api/pools/p/groups/" + longName, null, 400, "group"),
        Arguments.of("DELETE", "/api/pools/p/groups/" + longName, null, 400, "group"),
        Arguments.of("PUT", "/api/pools/nowhere/groups/g", "{\"weight\":2}", 404, null));
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("malformed")
  void F1_F5_a_malformed_request_is_refused_naming_the_field(String method, String path,
      String body, int status, String field) {
    HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofString(body);
    Http.Response r = Http.send(HttpRequest.newBuilder(URI.create(app.url(path)))
        .header("Content-Type", "application/json").method(method, publisher));

    assertThat(r.status()).as(r.body()).isEqualTo(status);
    JsonObject json = r.json();
    assertThat(json.getString("error")).isEqualTo(status == 404 ? "UNKNOWN_POOL" : "BAD_REQUEST");
    if (field != null) {
      assertThat(json.getString("message")).startsWith(field + ":");
    }
    JsonObject pool = Http.get(app.url("/api/pools/p")).json();
    assertThat(pool.getBoolean("paused")).isFalse();
    assertThat(pool.getInteger("groupCount")).isZero();
  }
}
