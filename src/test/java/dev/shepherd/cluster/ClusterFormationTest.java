package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.demo.DemoWorker;
import dev.shepherd.testworkers.RelayWorker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nodes started through the docker entrypoint, each a JVM of its own on loopback (8.1): two of
 * one cluster name form one cluster, where a job goes from a pool on one node to a pool on the
 * other over the clustered event bus; a node of another cluster name never joins them.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterFormationTest {
  @RegisterExtension
  final ClusterNodes nodes = new ClusterNodes();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
      .build();

  static JsonObject node(int httpPort, String pool, String worker) {
    return new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", httpPort))
        .put("pools", new JsonArray().add(new JsonObject().put("name", pool)
            .put("worker", new JsonObject().put("class", worker).put("instances", 1)
                .put("threading", "EVENT_LOOP"))));
  }

  @Test
  void nodes_of_one_name_form_one_cluster_and_a_node_of_another_name_stays_out() throws Exception {
    ClusterNode a = nodes.start("a", node(0, "jobs", DemoWorker.class.getName()));
    ClusterNode b = nodes.start("b", node(0, "relay", RelayWorker.class.getName()));
    ClusterNode c = nodes.start("c", node(0, "relay", RelayWorker.class.getName()),
        nodes.clusterEnv(nodes.clusterName() + "-other"), List.of());
    a.awaitLine(ClusterNode.READY, Duration.ofSeconds(90));
    int portB = b.httpPort(Duration.ofSeconds(90));
    int portC = c.httpPort(Duration.ofSeconds(90));

    AtomicReference<JsonObject> viaB = new AtomicReference<>();
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
        .until(() -> {
          viaB.set(relay(portB, "hello"));
          return "completed".equals(viaB.get().getString("type"));
        });
    JsonObject fromA = viaB.get().getJsonObject("result");
    assertThat(fromA.getString("type")).isEqualTo("completed");
    assertThat(fromA.getJsonObject("result").getString("echo")).isEqualTo("hello");

    for (int i = 0; i < 3; i++) {
      JsonObject viaC = relay(portC, "lost");
      assertThat(viaC.getString("type")).as("a node of another cluster: %s", viaC)
          .isEqualTo("failed");
      assertThat(viaC.getJsonObject("error").getString("message")).contains("No handlers");
    }
  }

  @Test
  void a_bad_cluster_variable_stops_the_node_printing_one_line_that_names_it() {
    java.util.Map<String, String> env = new java.util.HashMap<>(nodes.clusterEnv());
    env.put(ClusterSettings.MEMBERS, "127.0.0.1:5701-5710");

    ClusterNode node = nodes.start("bad", node(ClusterPorts.freeHttpPort(), "jobs",
        DemoWorker.class.getName()), env, List.of());

    assertThat(node.waitFor(Duration.ofSeconds(60))).isEqualTo(2);
    assertThat(node.stderr().lines().filter(line -> !line.isBlank())).singleElement().asString()
        .startsWith("shepherd: invalid configuration: SHEPHERD_CLUSTER_MEMBERS: ")
        .contains("5701-5710");
  }

  /** A job to the relay pool of the node serving {@code port}: its outcome. */
  private JsonObject relay(int port, String echo) throws Exception {
    String body = new JsonObject().put("payload", new JsonObject().put("echo", echo)).encode();
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/api/pools/relay/jobs"))
        .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    return new JsonObject(response.body());
  }
}
