package dev.shepherd.bench;

import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.cluster.setup.ClusterSetup;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A cluster of a benchmark's own on loopback: a name nobody else uses and a block of free
 * Hazelcast ports, so a benchmark never joins another cluster (nor a test's). Its {@link #env()}
 * places a child node in it; {@link #join()} makes this JVM a member.
 */
final class BenchCluster {
  private final ClusterSettings settings;

  private BenchCluster(ClusterSettings settings) {
    this.settings = settings;
  }

  /** A fresh cluster on 127.0.0.1. */
  static BenchCluster create() {
    SplittableRandom random = new SplittableRandom();
    String name = "shepherd-bench-" + Long.toHexString(random.nextLong() >>> 16);
    return new BenchCluster(new ClusterSettings(name, "127.0.0.1", LoopbackPorts.freeClusterBlock(random),
        List.of("127.0.0.1")));
  }

  /** The {@code SHEPHERD_CLUSTER_*} environment of a node of this cluster. */
  Map<String, String> env() {
    return Map.of(ClusterSettings.NAME, settings.name(), ClusterSettings.HOST, settings.host(),
        ClusterSettings.PORT, String.valueOf(settings.port()), ClusterSettings.MEMBERS,
        String.join(",", settings.members()));
  }

  /** A clustered Vert.x in this JVM, a member of this cluster, as the launcher would make it. */
  Vertx join() {
    return Vertx.builder().with(new VertxOptions())
        .withClusterManager(ClusterSetup.clusterManager(settings)).buildClustered().await();
  }

  /** A clustered Vert.x joining the cluster {@code env} describes (a child node's side). */
  static Vertx join(Map<String, String> env) {
    return Vertx.builder().with(new VertxOptions())
        .withClusterManager(ClusterSetup.clusterManager(ClusterSettings.fromEnvironment(env)))
        .buildClustered().await();
  }
}
