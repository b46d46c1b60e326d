package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.runtime.wire.SnapshotJson;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code GET /health} and {@code GET /ready} (Vert.x health checks, one check per pool). */
class HealthEndpointsTest {

  private static JsonObject check(JsonObject body, String pool) {
    return body.getJsonArray("checks").stream().map(JsonObject.class::cast)
        .filter(c -> c.getString("id").equals(pool)).findFirst().orElseThrow();
  }

  @Test
  void J8_health_follows_the_rule_the_live_view_follows_case_by_case() throws Exception {
    JsonObject cases = new JsonObject(Files.readString(
        Path.of("src", "test", "js", "health-cases.json"), StandardCharsets.UTF_8));
    assertThat(cases.getJsonArray("cases")).hasSizeGreaterThanOrEqualTo(8);
    for (Object o : cases.getJsonArray("cases")) {
      JsonObject c = (JsonObject) o;
      PoolHealth health = PoolHealth.of(SnapshotJson.decode(c.getJsonObject("snapshot")));
      assertThat(health.up() ? "UP" : "DOWN").as(c.getString("name"))
          .isEqualTo(c.getString("status"));
      assertThat(health.reason()).as(c.getString("name")).isEqualTo(c.getString("reason"));
    }
  }

  @Test
  void health_is_up_while_every_pool_has_a_live_slot() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 2)))) {
      Http.Response r = Http.get(app.url("/health"));
      assertThat(r.status()).isEqualTo(200);
      JsonObject body = r.json();
      assertThat(body.getString("status")).isEqualTo("UP");
      JsonObject jobs = check(body, "jobs");
      assertThat(jobs.getString("status")).isEqualTo("UP");
      assertThat(jobs.getJsonObject("data").getString("state")).isEqualTo("RUNNING");
    }
  }

  @Test
  void health_is_down_with_the_reason_when_every_slot_of_a_pool_retires() {
    JsonObject broken = WebTestApp.demoPool("broken", 2);
    broken.getJsonObject("worker").put("config", new JsonObject().put("failStart", "always"));
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 1), broken))) {
      await().atMost(10, SECONDS).until(() -> Http.get(app.url("/health")).status() == 503);
      JsonObject body = Http.get(app.url("/health")).json();
      assertThat(body.getString("status")).isEqualTo("DOWN");
      assertThat(check(body, "jobs").getString("status")).isEqualTo("UP");
      JsonObject down = check(body, "broken");
      assertThat(down.getString("status")).isEqualTo("DOWN");
      assertThat(down.getJsonObject("data").getString("reason"))
          .isEqualTo("every slot is retired: w-0 CREATION_REJECTED, w-1 CREATION_REJECTED");

      // Ready nonetheless: both pools' first incarnations have resolved (one way or the other).
      await().atMost(10, SECONDS).until(() -> Http.get(app.url("/ready")).status() == 200);
    }
  }

  @Test
  void health_goes_down_when_the_last_slot_retires_under_load() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 1).put("supervision",
            new JsonObject().put("maxRestarts", 0))))) {
      assertThat(Http.get(app.url("/health")).status()).isEqualTo(200);
      Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":{\"crash\":true}}");
      Http.Response r = Http.get(app.url("/health"));
      assertThat(r.status()).isEqualTo(503);
      assertThat(check(r.json(), "jobs").getJsonObject("data").getString("reason"))
          .isEqualTo("every slot is retired: w-0 REPLACEMENT_UNAVAILABLE");
    }
  }

  @Test
  void ready_once_the_first_incarnations_resolved_and_not_while_stopping() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 3)))) {
      await().atMost(10, SECONDS).until(() -> Http.get(app.url("/ready")).status() == 200);
      JsonObject body = Http.get(app.url("/ready")).json();
      assertThat(check(body, "jobs").getJsonObject("data").getJsonObject("slots")
          .getInteger("IDLE")).isEqualTo(3);
    }
  }

  @Test
  void T3_ready_on_a_node_that_coordinates_nothing_is_200_with_a_json_body() {
    io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
    try {
      MapPoolDirectory directory = new MapPoolDirectory();
      WebServer server = new WebServer(vertx, new HttpConfig("127.0.0.1", 0, 1 << 20, null),
          directory);
      ClusteredWebNode.join(server.start(), 10);
      String base = "http://127.0.0.1:" + server.port();
      for (String path : new String[] {"/ready", "/health"}) {
        Http.Response r = Http.get(base + path);
        assertThat(r.status()).as(path).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse(""))
            .startsWith("application/json");
        assertThat(r.json().getString("status")).isEqualTo("UP");
        assertThat(r.json().getString("outcome")).isEqualTo("UP");
        assertThat(r.json().getJsonArray("checks")).isEmpty();
        assertThat(r.json().getString("reason")).isNotBlank();
      }
      // A pool coordinated elsewhere is the cluster's: this node still coordinates nothing.
      directory.put(new dev.shepherd.runtime.access.BusPoolHandle(vertx, "far",
          new dev.shepherd.runtime.wire.Addresses("remote.far"), "node-x", 1_000, 1_000));
      Http.Response ready = Http.get(base + "/ready");
      assertThat(ready.status()).isEqualTo(200);
      assertThat(ready.json().getString("reason")).contains("coordinates no pool");
    } finally {
      ClusteredWebNode.join(vertx.close(), 10);
    }
  }
}
