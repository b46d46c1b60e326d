package dev.shepherd.cluster;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A worker-host node for multi-JVM tests, run in a child JVM: joins the cluster the {@code
 * SHEPHERD_CLUSTER_*} environment names (as a launched node does), deploys a {@link HostAgent}
 * per entry of the {@code hosts} array given as its one argument, and prints {@code READY
 * <node id>}. A host the pool refuses makes it print {@code REFUSED <reason>} and exit 3.
 */
public final class HostNodeMain {
  private HostNodeMain() {}

  public static void main(String[] args) {
    System.setProperty("hazelcast.logging.type", "slf4j");
    ClusterSettings settings = ClusterSettings.fromEnvironment(System.getenv());
    VertxOptions options = new VertxOptions()
        .setEventBusOptions(new EventBusOptions().setHost(settings.host()).setPort(0));
    Vertx vertx = Vertx.builder().with(options)
        .withClusterManager(ClusterSetup.clusterManager(settings)).buildClustered().await();
    JsonArray hosts = new JsonObject(args[0]).getJsonArray("hosts");
    for (int i = 0; i < hosts.size(); i++) {
      HostConfig config = HostConfig.parse(hosts.getJsonObject(i), "hosts[" + i + "]",
          HostConfig.machineName());
      vertx.deployVerticle(new HostAgent(config, refused -> {
        System.out.println("REFUSED " + refused.getMessage());
        System.out.flush();
        Runtime.getRuntime().halt(3);
      })).await();
    }
    System.out.println("READY " + ClusteredVertx.nodeId(vertx));
    System.out.flush();
  }
}
