package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.join;

import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.cluster.setup.ClusterSetup;
import dev.shepherd.cluster.setup.DepartureAwareClusterManager;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.VertxTracerFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Clustered Vert.x instances for tests: Hazelcast as the shipped {@code conf/cluster.xml} sets it
 * up (loopback, tuned failure detection, a one-second join wait), on a cluster name and ports of
 * the test's own, the event bus on 127.0.0.1.
 */
public final class ClusteredVertx {
  private ClusteredVertx() {}

  /** A member of cluster {@code name} whose members are sought on {@code basePort} and up. */
  public static Vertx start(String name, int basePort) {
    return start(name, basePort, ClusterSettings.DEFAULT_MAJORITY);
  }

  /** As above, where {@code majority} members are a majority (1: it may lead HA pools alone). */
  public static Vertx start(String name, int basePort, int majority) {
    return start(name, basePort, majority, null);
  }

  /** As above, tracing through {@code tracer} (with its default options) unless it is null. */
  public static Vertx start(String name, int basePort, int majority, VertxTracerFactory tracer) {
    ClusterSettings settings =
        new ClusterSettings(name, "127.0.0.1", basePort, List.of("127.0.0.1"), majority);
    DepartureAwareClusterManager manager =
        new DepartureAwareClusterManager(ClusterSetup.hazelcastConfig(settings));
    VertxOptions options = new VertxOptions()
        .setEventBusOptions(new EventBusOptions().setHost("127.0.0.1").setPort(0));
    VertxBuilder builder = Vertx.builder();
    if (tracer != null) {
      options.setTracingOptions(tracer.newOptions());
      builder.withTracer(tracer);
    }
    Future<Vertx> started = builder.with(options).withClusterManager(manager).buildClustered();
    try {
      return started.toCompletionStage().toCompletableFuture()
          .get(Duration.ofSeconds(60).toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new AssertionError("the clustered Vert.x did not start", e);
    }
  }

  /** This instance's Vert.x node id. */
  public static String nodeId(Vertx vertx) {
    return ((VertxInternal) vertx).clusterManager().getNodeId();
  }

  /** The Vert.x node ids of the cluster's members, as {@code vertx} sees them. */
  static List<String> nodes(Vertx vertx) {
    return ((VertxInternal) vertx).clusterManager().getNodes();
  }

  public static void close(Vertx vertx) {
    if (vertx != null) {
      join(vertx.close());
    }
  }
}
