package dev.shepherd.bench;

import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.cluster.setup.ClusterSetup;
import dev.shepherd.cluster.trust.ClusterKeys;
import dev.shepherd.cluster.trust.EventBusTls;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A cluster of a benchmark's own on loopback: a name nobody else uses and a block of free
 * Hazelcast ports, so a benchmark never joins another cluster (nor a test's). Its {@link #env()}
 * places a child node in it; {@link #join()} makes this JVM a member.
 *
 * <p>The cluster's trust settings come from the environment, as the launcher reads them (a child
 * node inherits it): with {@code SHEPHERD_EVENTBUS_TLS_*} set the event bus is TLS with client
 * certificates, with {@code SHEPHERD_CLUSTER_KEY} set HA records are sealed and worker hosts
 * carry MACs (docs/security.md), so a benchmark measures what each costs.
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
    return trusted(ClusterSetup.clusterManager(settings), System.getenv());
  }

  /** What trust the environment turns on, for a benchmark to print beside its figures. */
  static String trust(Map<String, String> env) {
    EventBusTls tls = EventBusTls.fromEnvironment(env);
    return "event bus " + (tls == null ? "in clear" : "TLS with client certificates")
        + ", cluster key " + (ClusterKeys.fromEnvironment(env).present() ? "set" : "not set");
  }

  private static Vertx trusted(io.vertx.core.spi.cluster.ClusterManager manager,
      Map<String, String> env) {
    VertxOptions options = new VertxOptions();
    EventBusTls tls = EventBusTls.fromEnvironment(env);
    if (tls != null) {
      tls.applyTo(options.getEventBusOptions());
    }
    Vertx vertx = Vertx.builder().with(options).withClusterManager(manager).buildClustered()
        .await();
    ClusterKeys.install(vertx, ClusterKeys.fromEnvironment(env));
    return vertx;
  }

  /** A clustered Vert.x joining the cluster {@code env} describes (a child node's side). */
  static Vertx join(Map<String, String> env) {
    return trusted(ClusterSetup.clusterManager(ClusterSettings.fromEnvironment(env)), env);
  }
}
