package dev.shepherd.cluster;

import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The high-availability benchmark, on three JVMs: the throughput of an HA pool against a plain
 * pool in the same run (echo jobs, 256 in flight, request/reply from a fourth member; the plain
 * pool is on the first node), then the failover time over five {@code kill -9}s of the active
 * coordinator, from the kill to the first answer to a job submitted after it. It prints its
 * figures and asserts nothing about them. Run on demand: {@code mvn -B -o test -Dtest=HaBench
 * -Dsurefire.failIfNoSpecifiedTests=false}; its name keeps it out of the suite.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class HaBench {
  static final int IN_FLIGHT = 256;
  static final long ROUND_MS = 10_000;
  /**
   * {@code -Dha.bench.warmupMs=N}: each pool's warm-up before the rounds (20 s by default). With
   * 3 s, C2 was still compiling in the measured rounds (36% of the leader's samples), so the
   * figures were the product's cold start as much as its steady state.
   */
  static final long WARMUP_MS = Long.getLong("ha.bench.warmupMs", 20_000);
  /** {@code -Dha.bench.kills=N}: the failovers measured (5 by default; 0: throughput only). */
  static final int KILLS = Integer.getInteger("ha.bench.kills", 5);
  /** {@code -Dha.bench.writesInFlight=N}: the nodes' leaders keep up to N writes in flight. */
  static final String WRITES = System.getProperty("ha.bench.writesInFlight");
  /**
   * {@code -Dha.bench.recentOutcomes=N}: the pools remember N answered jobs (the default 10,000
   * when unset), which sizes the HA pool's state, its checkpoints and what a takeover reads.
   */
  static final Integer RECENT = Integer.getInteger("ha.bench.recentOutcomes");
  /** {@code -Dha.bench.sealed=true}: the nodes share a cluster key, so HA records are sealed. */
  static final boolean SEALED = Boolean.getBoolean("ha.bench.sealed");
  /**
   * {@code -Dha.bench.javaOpts=...}: more options for the nodes' JVMs, a profiler's agent for one
   * ({@code %n} in them becomes the node's name, so each writes its own file).
   */
  static final String JAVA_OPTS = System.getProperty("ha.bench.javaOpts", "");
  /**
   * {@code -Dha.bench.liteMember=true}: the submitting member joins as a Hazelcast lite member,
   * holding no partition, so that the HA store's key is owned by one of the nodes.
   */
  static final boolean LITE = Boolean.getBoolean("ha.bench.liteMember");
  /**
   * {@code -Dha.bench.killUnderLoad=true}: each kill comes 3 s into a closed loop of {@link
   * #IN_FLIGHT} submits to the HA pool (which goes on 3 s after it), so the leader dies while it
   * checkpoints several times a second: the takeover then reads the whole log (its node logs
   * how much, in the "claimed term" line).
   */
  static final boolean KILL_UNDER_LOAD = Boolean.getBoolean("ha.bench.killUnderLoad");
  private static final String KEY = java.util.Base64.getEncoder()
      .encodeToString(new java.security.SecureRandom().generateSeed(32));

  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();

  private static JsonObject echoPool(String name, boolean ha) {
    JsonObject pool = new JsonObject().put("name", name)
        .put("ha", new JsonObject().put("enabled", ha))
        .put("worker", new JsonObject().put("class", "dev.shepherd.demo.DemoWorker")
            .put("instances", 4).put("maxConcurrency", 64).put("threading", "EVENT_LOOP"))
        .put("backlogCapacity", 100_000);
    if (RECENT != null) {
      pool.put("recentOutcomes", new JsonObject().put("capacity", RECENT));
    }
    return pool;
  }

  private ClusterNode startNode(String name, boolean withPlain) {
    JsonArray pools = new JsonArray().add(echoPool(HaNodes.POOL, true));
    if (withPlain) {
      pools.add(echoPool("plain", false));
    }
    java.util.Map<String, String> env = new java.util.HashMap<>(cluster.clusterEnv());
    // The test harness's nodes stop at C1 to start fast; a benchmark measures the product as it
    // runs, with C2 and its intrinsics (AES-GCM's among them: at C1, sealing ran in plain Java).
    env.put("JAVA_OPTS", "-XX:TieredStopAtLevel=4"
        + (WRITES == null ? "" : " -Dshepherd.ha.writesInFlight=" + WRITES)
        + (JAVA_OPTS.isBlank() ? "" : " " + JAVA_OPTS.replace("%n", name)));
    if (SEALED) {
      env.put(dev.shepherd.cluster.trust.ClusterKeys.KEY, KEY);
    }
    return cluster.start(name, new JsonObject()
        .put("http", new JsonObject().put("enabled", false)).put("pools", pools), env,
        java.util.List.of());
  }

  @Test
  void ha_against_plain_throughput_and_failover_times() throws Exception {
    System.out.println("HaBench: HA records " + (SEALED ? "sealed (cluster key set)"
        : "in clear (no cluster key)") + ", writes in flight "
        + (WRITES == null ? "4 (default)" : WRITES));
    List<ClusterNode> nodes = new ArrayList<>();
    nodes.add(startNode("n0", true));
    nodes.add(startNode("n1", false));
    nodes.add(startNode("n2", false));
    for (ClusterNode node : nodes) {
      node.awaitLine("Shepherd node ready", Duration.ofSeconds(120));
    }
    Vertx member = cluster.joinAsMember(LITE);
    HaNodes view = new HaNodes(member, nodes);
    await().atMost(Duration.ofSeconds(60)).until(() -> view.active() != null);
    String replyTo = "ha-bench.answers";
    member.eventBus().consumer(replyTo, m -> { }).completion().toCompletionStage()
        .toCompletableFuture().join();

    // Interleaved: both pools compiled, neither warming up while the other is measured.
    for (int half = 0; half < 2; half++) {
      closedLoop(member, "plain", WARMUP_MS / 2);
      closedLoop(member, HaNodes.POOL, WARMUP_MS / 2);
    }
    System.out.println("HaBench: warmed up for " + WARMUP_MS + " ms per pool");
    List<Double> plain = new ArrayList<>();
    List<Double> ha = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      plain.add(closedLoop(member, "plain", ROUND_MS));
      ha.add(closedLoop(member, HaNodes.POOL, ROUND_MS));
    }
    double plainMean = plain.stream().mapToDouble(d -> d).average().orElse(0);
    double haMean = ha.stream().mapToDouble(d -> d).average().orElse(0);
    System.out.printf("throughput, echo, %d in flight: plain %s jobs/s, ha %s jobs/s;"
        + " means %.0f / %.0f (ha/plain %.2f)%n", IN_FLIGHT, rounded(plain), rounded(ha),
        plainMean, haMean, haMean / plainMean);
    ClusterNode leader = view.active();
    System.out.printf("HA leader %s; the store key's owner %s%n",
        leader == null ? "none" : leader.name(), storeKeyOwner(member, view));

    List<Long> failovers = new ArrayList<>();
    for (int kill = 0; kill < KILLS; kill++) {
      HaLoad load = new HaLoad(member, HaNodes.POOL, "bench-" + kill);
      load.start(10, i -> new JsonObject().put("job", "f" + System.nanoTime() + "-" + i)
          .put("payload", new JsonObject().put("echo", i)));
      Thread.sleep(2_000);
      Thread flood = null;
      if (KILL_UNDER_LOAD) {
        flood = new Thread(() -> {
          try {
            closedLoop(member, HaNodes.POOL, 6_000, 3_000);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }, "ha-bench-flood");
        flood.start();
        Thread.sleep(3_000);
      }
      ClusterNode victim = view.active();
      long killedAt = System.currentTimeMillis();
      victim.kill();
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
          .until(() -> load.firstAnswerToJobSubmittedAfter(killedAt) > 0);
      long failover = load.firstAnswerToJobSubmittedAfter(killedAt) - killedAt;
      failovers.add(failover);
      long accepted = load.firstAcceptedAfter(killedAt);
      System.out.printf("kill %d of %s at %s: first job submitted after the kill answered after"
          + " %d ms (the first admission after the kill %d ms)%n", kill + 1, victim.name(),
          java.time.LocalTime.ofInstant(java.time.Instant.ofEpochMilli(killedAt),
              java.time.ZoneId.systemDefault()), failover,
          accepted < 0 ? -1 : accepted - killedAt);
      load.stop();
      if (flood != null) {
        flood.join();
      }
      nodes.remove(victim);
      ClusterNode fresh = startNode("r" + kill, false);
      fresh.awaitLine("Shepherd node ready", Duration.ofSeconds(120));
      nodes.add(fresh);
      view.replace(victim, fresh);
      System.out.printf("kill %d: of %d submits, %d failed, %d of them timed out (3 s)%n",
          kill + 1, load.sent(), load.unanswered(), load.timedOut());
      Thread.sleep(3_000);
    }
    if (failovers.isEmpty()) {
      return;
    }
    List<Long> sorted = new ArrayList<>(failovers);
    sorted.sort(Long::compare);
    System.out.printf("failover over %d kills: %s ms; median %d ms, max %d ms%n", sorted.size(),
        failovers, sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1));
  }

  /** Jobs per second of {@code pool} with {@link #IN_FLIGHT} always in flight for {@code ms}. */
  private static double closedLoop(Vertx vertx, String pool, long ms) throws Exception {
    return closedLoop(vertx, pool, ms, 30_000);
  }

  /** The same, each submit failing after {@code timeoutMs} without an answer. */
  private static double closedLoop(Vertx vertx, String pool, long ms, long timeoutMs)
      throws Exception {
    AtomicLong next = new AtomicLong();
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(timeoutMs);
    String address = "shepherd." + pool + ".submit";
    // A failed submit (no consumer while no node leads) is replaced 10 ms later, not at once.
    return ClosedLoop.jobsPerSecond(vertx, IN_FLIGHT, ms, () -> vertx.eventBus().request(address,
        new JsonObject().put("job", pool + "-" + next.incrementAndGet())
            .put("payload", new JsonObject().put("echo", 1)), options)
        .recover(failure -> {
          io.vertx.core.Promise<io.vertx.core.eventbus.Message<Object>> later =
              io.vertx.core.Promise.promise();
          vertx.setTimer(10, t -> later.fail(failure));
          return later.future();
        }));
  }

  /**
   * Which member owns the partition of the HA store's key for the pool, where its writes run: a
   * node's name, or the submitting member (a full member holds partitions too).
   */
  private static String storeKeyOwner(Vertx member, HaNodes view) {
    io.vertx.spi.cluster.hazelcast.HazelcastClusterManager manager =
        (io.vertx.spi.cluster.hazelcast.HazelcastClusterManager)
            ((io.vertx.core.internal.VertxInternal) member).clusterManager();
    com.hazelcast.cluster.Member owner = manager.getHazelcastInstance().getPartitionService()
        .getPartition(HaNodes.POOL).getOwner();
    String nodeId = owner == null ? null : owner.getAttribute("__vertx.nodeId");
    if (nodeId != null && nodeId.equals(manager.getNodeId())) {
      return "the submitting member";
    }
    ClusterNode node = nodeId == null ? null : view.byNodeId(nodeId);
    return node != null ? node.name() : "unknown (" + nodeId + ")";
  }

  private static List<Long> rounded(List<Double> values) {
    return values.stream().map(Math::round).toList();
  }
}
