package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.setup.ClusterSettings;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A highly available pool on three separate hosts (network namespaces with addresses of their
 * own, the nodes started through the docker entrypoint as the coordinator role): a {@code kill
 * -9} of the active node and a partition that leaves it alone on its side. The test reaches each
 * node over HTTP on its own address. Skipped, saying why, without root or {@code ip}.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class HaNamespacesTest {
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
      .build();
  private NetworkNamespaces hosts;
  private final List<ClusterNode> nodes = new ArrayList<>();

  @BeforeEach
  void hosts() {
    Optional<String> why = NetworkNamespaces.unavailable();
    Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
    hosts = NetworkNamespaces.create(3);
  }

  @AfterEach
  void removeHosts() {
    if (hosts != null) {
      hosts.close();
    }
  }

  /**
   * The environment of the node on host {@code i}. Members are listed with their port, as in
   * docker/compose.yaml: a member without one is looked for on five ports, and after a partition
   * each of those a node cannot reach costs its merge search seconds.
   */
  private Map<String, String> env(int i) {
    return Map.of(ClusterSettings.NAME, cluster.clusterName(),
        ClusterSettings.HOST, hosts.address(i),
        ClusterSettings.MEMBERS, hosts.address(0) + ":5701," + hosts.address(1) + ":5701,"
            + hosts.address(2) + ":5701",
        ClusterSettings.PORT, "5701", "SHEPHERD_ROLE", "coordinator");
  }

  private void startThree() {
    JsonObject conf = ClusterNodes.shippedConf("cluster-coordinator.json")
        .put("pools", new JsonArray().add(HaNodes.pool(1)));
    for (int i = 0; i < 3; i++) {
      nodes.add(cluster.start("host-" + i, conf, env(i), hosts.exec(i)));
    }
    for (ClusterNode node : nodes) {
      node.awaitLine("Shepherd node ready", Duration.ofSeconds(120));
    }
  }

  @Test
  void A3_kill_9_of_the_active_node_on_its_own_host_a_node_on_another_host_takes_over()
      throws Exception {
    startThree();
    JsonObject before = awaitHa(1, null);
    int active = hostOf(before.getString("active"));
    long killedAt = System.currentTimeMillis();
    nodes.get(active).kill();
    int survivor = (active + 1) % 3;

    JsonObject after = awaitHa(survivor, before.getLong("term"));
    System.out.printf("namespaces: kill -9 to a newer term in the status: %d ms%n",
        System.currentTimeMillis() - killedAt);
    assertThat(hostOf(after.getString("active"))).isNotEqualTo(active);
    JsonObject outcome = new JsonObject(post(survivor, "{\"payload\":{\"echo\":\"after\"}}"));
    assertThat(outcome.getString("type")).as(outcome.encode()).isEqualTo("completed");
  }

  @Test
  void A2_a_partition_that_leaves_the_active_node_alone_makes_it_step_down_and_the_majority_takes_over()
      throws Exception {
    startThree();
    JsonObject before = awaitHa(0, null);
    int active = hostOf(before.getString("active"));
    ClusterNode cutOff = nodes.get(active);
    hosts.cut(active);
    int survivor = (active + 1) % 3;

    JsonObject after = awaitHa(survivor, before.getLong("term"));
    assertThat(hostOf(after.getString("active"))).isNotEqualTo(active);
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
        .until(() -> cutOff.output().contains("steps down from term " + before.getLong("term")));
    assertThat(cutOff.isAlive()).isTrue();

    hosts.restore(active);
    long restoredAt = System.currentTimeMillis();
    // After the merge every node, the one that was cut off included, shows the majority's leader.
    // The merge waits for Hazelcast's merge task (every 5 s) and, on a loaded machine, for the
    // cut-off member to be accepted back; a failure says what that node last showed.
    JsonObject[] last = new JsonObject[1];
    try {
      await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).until(() -> {
        JsonObject there = status(active);
        last[0] = there;
        return there != null && there.getJsonObject("ha") != null
            && after.getLong("term").equals(there.getJsonObject("ha").getLong("term"))
            && after.getString("active").equals(there.getJsonObject("ha").getString("active"));
      });
    } catch (ConditionTimeoutException e) {
      String output = cutOff.output();
      throw new AssertionError("the node that was cut off still shows " + last[0]
          + " where the majority shows " + after + "; its last output:\n"
          + output.substring(Math.max(0, output.length() - 6_000)), e);
    }
    System.out.printf("partition: the cut-off node shows the majority's leader %d ms after its"
        + " link returned%n", System.currentTimeMillis() - restoredAt);
    for (int i = 0; i < 3; i++) {
      assertThat(status(i).getJsonObject("ha")).isEqualTo(status(survivor).getJsonObject("ha"));
    }
  }

  /** Waits until host {@code i} shows an active coordinator of a term above {@code above}. */
  private JsonObject awaitHa(int i, Long above) {
    JsonObject[] seen = new JsonObject[1];
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
      JsonObject status = status(i);
      if (status == null || status.getJsonObject("ha") == null
          || status.getJsonObject("ha").getString("active") == null
          || (above != null && status.getJsonObject("ha").getLong("term") <= above)) {
        return false;
      }
      seen[0] = status.getJsonObject("ha");
      return true;
    });
    return seen[0];
  }

  /** The host index of the node whose Vert.x node id is {@code nodeId}. */
  private int hostOf(String nodeId) {
    for (int i = 0; i < nodes.size(); i++) {
      if (nodes.get(i).output().contains("node " + nodeId + " stands by")) {
        return i;
      }
    }
    throw new AssertionError("no node logged node id " + nodeId);
  }

  private JsonObject status(int i) {
    try {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(
              URI.create("http://" + hosts.address(i) + ":8080/api/pools/jobs"))
          .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? new JsonObject(response.body()) : null;
    } catch (Exception e) {
      return null;
    }
  }

  private String post(int i, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(
            URI.create("http://" + hosts.address(i) + ":8080/api/pools/jobs/jobs"))
        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }
}
