package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.testworkers.RelayWorker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nodes on separate hosts, each in a network namespace of its own with its own address (what a
 * compose network gives), started through the docker entrypoint with the shipped coordinator
 * configuration: a node binds and serves on its own address, two nodes form one cluster across
 * the bridge, and a cut link parts them. Skipped, saying why, without root or {@code ip}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SeparateHostsTest {
  @RegisterExtension
  final ClusterNodes nodes = new ClusterNodes();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
      .build();
  private NetworkNamespaces hosts;

  @BeforeEach
  void hosts() {
    Optional<String> why = NetworkNamespaces.unavailable();
    Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
    hosts = NetworkNamespaces.create(2);
  }

  @AfterEach
  void removeHosts() {
    if (hosts != null) {
      hosts.close();
    }
  }

  /** The environment of a node on host {@code i}: its address, every host a member. */
  private Map<String, String> env(int i) {
    return Map.of(ClusterSettings.NAME, nodes.clusterName(),
        ClusterSettings.HOST, hosts.address(i),
        ClusterSettings.MEMBERS, hosts.address(0) + "," + hosts.address(1),
        ClusterSettings.PORT, "5701", "SHEPHERD_ROLE", "coordinator");
  }

  /** The shipped coordinator role (HTTP on every address of its host, port 8080), one local slot. */
  private static JsonObject coordinator() {
    JsonObject conf = ClusterNodes.shippedConf("cluster-coordinator.json");
    conf.getJsonArray("pools").getJsonObject(0).getJsonObject("worker").put("instances", 1);
    return conf;
  }

  private static JsonObject relayNode() {
    return coordinator().put("pools", new JsonArray().add(new JsonObject().put("name", "relay")
        .put("worker", new JsonObject().put("class", RelayWorker.class.getName())
            .put("instances", 1).put("threading", "EVENT_LOOP"))));
  }

  @Test
  void a_node_in_its_own_namespace_binds_and_serves_on_its_own_address() throws Exception {
    ClusterNode node = nodes.start("ns-node", coordinator(), env(0), hosts.exec(0));

    node.awaitLine("Shepherd node ready", Duration.ofSeconds(90));
    JsonObject outcome = submit(hosts.address(0), "jobs", "hello");

    assertThat(outcome.getString("type")).isEqualTo("completed");
    assertThat(outcome.getJsonObject("result").getString("echo")).isEqualTo("hello");
    assertThat(node.output()).contains("[" + hosts.address(0) + "]:5701");
  }

  @Test
  void nodes_on_two_hosts_form_one_cluster_and_a_cut_link_parts_them() throws Exception {
    ClusterNode pool = nodes.start("host-0", coordinator(), env(0), hosts.exec(0));
    ClusterNode relay = nodes.start("host-1", relayNode(), env(1), hosts.exec(1));
    pool.awaitLine("Shepherd node ready", Duration.ofSeconds(90));
    relay.awaitLine("Shepherd node ready", Duration.ofSeconds(90));

    AtomicReference<JsonObject> across = new AtomicReference<>();
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
      across.set(submit(hosts.address(1), "relay", "across"));
      return "completed".equals(across.get().getString("type"));
    });
    assertThat(across.get().getJsonObject("result").getJsonObject("result").getString("echo"))
        .isEqualTo("across");

    hosts.cut(0);

    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() ->
        "failed".equals(submit(hosts.address(1), "relay", "cut off").getString("type")));
    assertThat(pool.isAlive()).isTrue();
  }

  private JsonObject submit(String address, String pool, String echo) throws Exception {
    String body = new JsonObject().put("payload", new JsonObject().put("echo", echo)).encode();
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(
            URI.create("http://" + address + ":8080/api/pools/" + pool + "/jobs"))
        .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    return new JsonObject(response.body());
  }
}
