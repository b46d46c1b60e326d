package dev.shepherd.web;

import dev.shepherd.app.ShepherdVerticle;
import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.cluster.setup.ClusterSetup;
import dev.shepherd.cluster.setup.DepartureAwareClusterManager;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One node of a test's own cluster in this JVM: a clustered Vert.x (Hazelcast as the shipped
 * {@code conf/cluster.xml} sets it up, on the test's cluster name and ports, the event bus on
 * 127.0.0.1) with Micrometer metrics in a registry of its own, running the whole application
 * ({@link ShepherdVerticle}) with the given pools and an HTTP server on a free loopback port.
 */
final class ClusteredWebNode implements AutoCloseable {
  private final Vertx vertx;
  private final int port;

  private ClusteredWebNode(Vertx vertx, int port) {
    this.vertx = vertx;
    this.port = port;
  }

  /** A cluster name nobody else uses and the first of a run of free Hazelcast ports. */
  record Cluster(String name, int basePort) {
    static Cluster fresh(String test) {
      String name = test + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
      for (int attempt = 0; attempt < 200; attempt++) {
        int base = 20_000 + ThreadLocalRandom.current().nextInt(4_000) * 10;
        if (allFree(base)) {
          return new Cluster(name, base);
        }
      }
      throw new IllegalStateException("no run of free ports found on 127.0.0.1");
    }

    private static boolean allFree(int base) {
      for (int port = base; port < base + ClusterSettings.PORT_COUNT; port++) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
          socket.setReuseAddress(true);
        } catch (IOException e) {
          return false;
        }
      }
      return true;
    }
  }

  /** Starts a node of {@code cluster} serving HTTP, with {@code pools} coordinated on it. */
  static ClusteredWebNode start(Cluster cluster, JsonObject... pools) {
    DepartureAwareClusterManager manager = new DepartureAwareClusterManager(
        ClusterSetup.hazelcastConfig(new ClusterSettings(cluster.name(), "127.0.0.1",
            cluster.basePort(), List.of("127.0.0.1"))));
    VertxOptions options = new VertxOptions()
        .setEventBusOptions(new EventBusOptions().setHost("127.0.0.1").setPort(0))
        .setMetricsOptions(Metrics.vertxMetricsOptions("test-" + UUID.randomUUID()));
    Vertx vertx = join(Vertx.builder().with(options).withClusterManager(manager)
        .buildClustered(), 90);
    JsonObject config = new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", 0))
        .put("pools", new JsonArray(List.of((Object[]) pools)));
    ShepherdVerticle app = new ShepherdVerticle();
    try {
      join(vertx.deployVerticle(app, new DeploymentOptions().setConfig(config)), 30);
    } catch (RuntimeException e) {
      join(vertx.close(), 30);
      throw e;
    }
    return new ClusteredWebNode(vertx, app.httpPort());
  }

  Vertx vertx() {
    return vertx;
  }

  int port() {
    return port;
  }

  String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  static <T> T join(Future<T> future, int seconds) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("did not complete within " + seconds + " s", e);
    }
  }

  @Override
  public void close() {
    try {
      join(vertx.close(), 30);
    } catch (RuntimeException e) {
      System.out.println("closing a clustered node failed: " + e);
    }
  }
}
