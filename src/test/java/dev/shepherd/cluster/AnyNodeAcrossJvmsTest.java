package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.demo.DemoWorker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Section 8.4 across JVMs, with nodes started through the docker entrypoint: node A coordinates
 * {@code jobs}; node B coordinates nothing and serves HTTP. Submit, status and the live events go
 * through B; when A is killed, B no longer lists the pool (Hazelcast removes the member).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class AnyNodeAcrossJvmsTest {
  @RegisterExtension
  final ClusterNodes nodes = new ClusterNodes();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
      .build();

  @Test
  void submit_status_and_live_events_through_a_node_that_does_not_coordinate_the_pool()
      throws Exception {
    ClusterNode a = nodes.start("a", ClusterFormationTest.node(0, "jobs",
        DemoWorker.class.getName()));
    ClusterNode b = nodes.start("b", new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", 0))
        .put("pools", new JsonArray()));
    a.awaitLine(ClusterNode.READY, Duration.ofSeconds(90));
    int portB = b.httpPort(Duration.ofSeconds(90));
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> get(portB, "/api/pools/jobs").statusCode() == 200);

    JsonObject outcome = new JsonObject(post(portB, "/api/pools/jobs/jobs",
        "{\"job\":\"through-b\",\"payload\":{\"echo\":\"across JVMs\"}}").body());
    assertThat(outcome.getString("type")).as(outcome.encode()).isEqualTo("completed");
    assertThat(outcome.getJsonObject("result").getString("echo")).isEqualTo("across JVMs");

    JsonObject status = new JsonObject(get(portB, "/api/pools/jobs").body());
    assertThat(status.getString("name")).isEqualTo("jobs");
    assertThat(status.getJsonArray("slots")).hasSize(1);
    assertThat(status.getJsonObject("counters").getLong("completed")).isGreaterThanOrEqualTo(1);
    JsonArray listed = new JsonObject(get(portB, "/api/pools").body()).getJsonArray("pools");
    assertThat(listed).hasSize(1);

    List<JsonObject> frames = new CopyOnWriteArrayList<>();
    WebSocket live = http.newWebSocketBuilder().buildAsync(
        URI.create("ws://127.0.0.1:" + portB + "/api/pools/jobs/events"), collect(frames))
        .get(10, TimeUnit.SECONDS);
    try {
      await().atMost(Duration.ofSeconds(20)).until(() -> !frames.isEmpty());
      assertThat(frames.get(0).getString("type")).isEqualTo("snapshot");
      assertThat(frames.get(0).getJsonObject("snapshot").getString("name")).isEqualTo("jobs");
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
        post(portB, "/api/pools/jobs/jobs", "{\"payload\":{\"fail\":\"watched\"}}");
        return frames.stream().anyMatch(f -> "job".equals(f.getString("type")));
      });
      await().atMost(Duration.ofSeconds(10))
          .until(() -> frames.stream().anyMatch(f -> "stats".equals(f.getString("type"))));
      assertThat(frames).allMatch(f -> "jobs".equals(f.getString("pool")));
    } finally {
      live.abort();
    }

    a.kill();
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250))
        .until(() -> get(portB, "/api/pools/jobs").statusCode() == 404);
    assertThat(new JsonObject(get(portB, "/api/pools").body()).getJsonArray("pools")).isEmpty();
  }

  private static WebSocket.Listener collect(List<JsonObject> frames) {
    return new WebSocket.Listener() {
      private final StringBuilder partial = new StringBuilder();

      @Override
      public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
          frames.add(new JsonObject(partial.toString()));
          partial.setLength(0);
        }
        socket.request(1);
        return null;
      }
    };
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(20)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(int port, String path, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
