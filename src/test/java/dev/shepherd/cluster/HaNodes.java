package dev.shepherd.cluster;

import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Three nodes that each list one highly available pool (A1), started through the entrypoint by
 * a {@link ClusterNodes}, and the test's own member of their cluster, from which the tests
 * submit and ask for the status. Finds which node is active from the status and the node ids the
 * nodes log when they stand by.
 */
final class HaNodes {
  static final String POOL = "jobs";

  final List<ClusterNode> nodes = new ArrayList<>();
  final List<Integer> httpPorts = new ArrayList<>();
  final Vertx member;

  HaNodes(ClusterNodes cluster, int count, JsonObject pool) {
    this(cluster, count, pool, java.util.Map.of());
  }

  /** The same, each node's environment with {@code env} added (a cluster key, say). */
  HaNodes(ClusterNodes cluster, int count, JsonObject pool, java.util.Map<String, String> env) {
    java.util.Map<String, String> all = new java.util.HashMap<>(cluster.clusterEnv());
    all.putAll(env);
    for (int i = 0; i < count; i++) {
      // Port 0: each node binds a free port itself and names it in its ready line.
      nodes.add(cluster.start("n" + i, new JsonObject()
          .put("http", new JsonObject().put("host", "127.0.0.1").put("port", 0))
          .put("pools", new JsonArray().add(pool.copy())), all, java.util.List.of()));
    }
    for (ClusterNode node : nodes) {
      httpPorts.add(node.httpPort(Duration.ofSeconds(120)));
    }
    member = cluster.joinAsMember();
  }

  /** The view of nodes a test started itself, from {@code member}. */
  HaNodes(Vertx member, List<ClusterNode> started) {
    this.member = member;
    nodes.addAll(started);
  }

  /** {@code fresh} was started in place of {@code gone}. */
  void replace(ClusterNode gone, ClusterNode fresh) {
    nodes.remove(gone);
    nodes.add(fresh);
  }

  /** An HA pool of {@link NodeEchoWorker}s on the event loop. */
  static JsonObject pool(int instances) {
    return new JsonObject().put("name", POOL)
        .put("ha", new JsonObject().put("enabled", true))
        .put("worker", new JsonObject().put("class", NodeEchoWorker.class.getName())
            .put("instances", instances).put("maxConcurrency", 4).put("threading", "EVENT_LOOP"))
        .put("backlogCapacity", 10_000);
  }

  /**
   * The configuration of a node that is only worker host {@code id} of the pool: two {@link
   * NodeEchoWorker}s, a heartbeat every 500 ms, no HTTP.
   */
  static JsonObject workerHost(String id) {
    return new JsonObject()
        .put("http", new JsonObject().put("enabled", false))
        .put("hosts", new JsonArray().add(new JsonObject().put("pool", POOL)
            .put("id", id).put("heartbeatMs", 500)
            .put("worker", new JsonObject().put("class", NodeEchoWorker.class.getName())
                .put("instances", 2).put("maxConcurrency", 4).put("threading", "EVENT_LOOP"))));
  }

  /** The pool's status over the bus (answered by the active coordinator), or null. */
  JsonObject status() {
    try {
      return member.eventBus().<JsonObject>request("shepherd." + POOL + ".status",
              new JsonObject(), new DeliveryOptions().setSendTimeout(2_000))
          .toCompletionStage().toCompletableFuture().get(3, TimeUnit.SECONDS).body();
    } catch (Exception e) {
      return null;
    }
  }

  /** Whether the pool's status, from its active coordinator, has worker host {@code id} UP. */
  boolean hostUp(String id) {
    JsonObject status = status();
    if (status == null) {
      return false;
    }
    for (Object h : status.getJsonArray("hosts", new JsonArray())) {
      JsonObject host = (JsonObject) h;
      if (id.equals(host.getString("id")) && "UP".equals(host.getString("state"))) {
        return true;
      }
    }
    return false;
  }

  /** The Vert.x node id of the oldest member of the cluster: Hazelcast's master. */
  String masterNodeId() {
    HazelcastInstance hazelcast = ((HazelcastClusterManager) ((VertxInternal) member)
        .clusterManager()).getHazelcastInstance();
    return hazelcast.getCluster().getMembers().iterator().next().getAttribute("__vertx.nodeId");
  }

  /** This JVM's Hazelcast member's identity, which a merge back into the cluster changes. */
  String localMemberUuid() {
    return ((HazelcastClusterManager) ((VertxInternal) member).clusterManager())
        .getHazelcastInstance().getCluster().getLocalMember().getUuid().toString();
  }

  /** The highest term a node's output says it claimed ("claimed term N"), or 0. */
  static long highestClaimedTerm(String output) {
    java.util.regex.Matcher claimed =
        java.util.regex.Pattern.compile("claimed term (\\d+)").matcher(output);
    long highest = 0;
    while (claimed.find()) {
      highest = Math.max(highest, Long.parseLong(claimed.group(1)));
    }
    return highest;
  }

  /** The node whose process logged {@code nodeId} when it stood by, or null. */
  ClusterNode byNodeId(String nodeId) {
    for (ClusterNode node : nodes) {
      if (node.output().contains("node " + nodeId + " stands by")) {
        return node;
      }
    }
    return null;
  }

  /** The active node, by the status, or null while there is none. */
  ClusterNode active() {
    JsonObject status = status();
    if (status == null || status.getJsonObject("ha") == null) {
      return null;
    }
    return byNodeId(status.getJsonObject("ha").getString("active"));
  }
}
