package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The live view's plain WebSocket, {@code /api/pools/<name>/events}: the snapshot, the pool's
 * history, then its events.
 */
class LiveEventsSocketTest {

  @Test
  void sends_a_snapshot_first_then_every_event_of_the_pool() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
            WebTestApp.demoPool("jobs", 2), WebTestApp.demoPool("other", 1)));
        Sockets live = Sockets.connect(app.port(), "/api/pools/jobs/events")) {
      await().atMost(5, SECONDS).until(() -> !live.received().isEmpty());
      JsonObject first = live.received().get(0);
      assertThat(first.getString("type")).isEqualTo("snapshot");
      assertThat(first.getString("pool")).isEqualTo("jobs");
      assertThat(first.getJsonObject("snapshot").getJsonArray("slots")).hasSize(2);

      Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":{\"crash\":true}}");
      Http.post(app.url("/api/pools/other/jobs"), "{\"payload\":{\"crash\":true}}");
      await().atMost(10, SECONDS).until(() ->
          live.any(e -> "restart".equals(e.getString("type")))
              && live.any(e -> "job".equals(e.getString("type")))
              && live.any(e -> "phase".equals(e.getString("type"))
                  && "IDLE".equals(e.getString("phase")) && e.getInteger("incarnation") == 2)
              && live.any(e -> "stats".equals(e.getString("type"))));
      List<JsonObject> frames = List.copyOf(live.received());
      assertThat(frames).allMatch(e -> "jobs".equals(e.getString("pool")));
      assertThat(frames).filteredOn(e -> "snapshot".equals(e.getString("type"))).hasSize(1);
      JsonObject restart = live.first(e -> "restart".equals(e.getString("type")));
      assertThat(restart.getString("exit")).isEqualTo("CRASH");
      assertThat(restart.getLong("at")).isPositive();
    }
  }

  @Test
  void the_history_frame_comes_right_after_the_snapshot_with_what_happened_before() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 2)))) {
      Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":{\"echo\":1}}");
      Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":{\"crash\":true}}");
      await().atMost(10, SECONDS).until(() -> Http.get(app.url("/api/pools/jobs")).json()
          .getJsonObject("counters").getLong("restarts") == 1);
      try (Sockets live = Sockets.connect(app.port(), "/api/pools/jobs/events")) {
        await().atMost(5, SECONDS).until(() -> live.received().size() >= 2);
        List<JsonObject> frames = List.copyOf(live.received());
        assertThat(frames.get(0).getString("type")).isEqualTo("snapshot");
        JsonObject history = frames.get(1);
        assertThat(history.fieldNames()).containsExactlyInAnyOrder("type", "pool", "at",
            "events", "series", "lastExits");
        assertThat(history.getString("type")).isEqualTo("history");
        assertThat(history.getString("pool")).isEqualTo("jobs");
        assertThat(history.getJsonArray("events").stream().map(JsonObject.class::cast)
            .map(e -> e.getString("type"))).contains("restart", "job");
        assertThat(history.getJsonObject("lastExits").getJsonObject("w-0").getString("exit"))
            .isEqualTo("CRASH");
        assertThat(history.getJsonArray("series").stream().map(JsonObject.class::cast)
            .mapToLong(e -> e.getLong("completed")).sum()).isEqualTo(1);
      }
    }
  }

  @Test
  void unknown_pools_and_other_origins_are_refused_at_the_handshake() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 1)))) {
      Throwable unknown = Sockets.refusal(new WebSocketConnectOptions().setHost("127.0.0.1")
          .setPort(app.port()).setURI("/api/pools/nope/events"));
      assertThat(unknown).isInstanceOf(UpgradeRejectedException.class);
      assertThat(((UpgradeRejectedException) unknown).getStatus()).isEqualTo(404);

      Throwable foreign = Sockets.refusal(new WebSocketConnectOptions().setHost("127.0.0.1")
          .setPort(app.port()).setURI("/api/pools/jobs/events")
          .addHeader("Origin", "http://evil.example"));
      assertThat(foreign).isInstanceOf(UpgradeRejectedException.class);
      assertThat(((UpgradeRejectedException) foreign).getStatus()).isEqualTo(403);

      try (Sockets same = Sockets.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
          .setPort(app.port()).setURI("/api/pools/jobs/events")
          .addHeader("Origin", "http://127.0.0.1:" + app.port()))) {
        await().atMost(5, SECONDS).until(() -> same.any(e ->
            "snapshot".equals(e.getString("type"))));
      }
    }
  }
}
