package dev.shepherd.bench;

import dev.shepherd.cluster.hosts.HostAgent;
import dev.shepherd.cluster.hosts.HostConfig;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Node B of {@link ClusterBench}, a JVM of its own: a worker host of the pool coordinated on node
 * A ({@code --slots} slots of {@link BenchWorker}, each {@code maxConcurrency}
 * {@code --max-concurrency}, on event loops) and, beside it, {@code --consumers} raw event-bus
 * consumers doing the same echo ({@link LoadBench.RawConsumer}). It joins the cluster that the
 * {@code SHEPHERD_CLUSTER_*} environment describes and prints {@value #READY} once all of it is
 * deployed; the host's own line says when the pool took it. It answers its JVM's counters at
 * {@value #COUNTERS}. It runs until it is killed.
 */
public final class BenchHostNode {
  static final String READY = "bench host node ready";
  static final String HOST_ID = "b";
  /** Where node B answers its {@link JvmCounters}, so each round can say what B's JVM spent. */
  static final String COUNTERS = "bench.host.jvm-counters";

  private BenchHostNode() {}

  public static void main(String[] args) {
    String pool = "bench";
    int slots = 4;
    int maxConcurrency = 64;
    int consumers = 4;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--pool" -> pool = args[++i];
        case "--slots" -> slots = Integer.parseInt(args[++i]);
        case "--max-concurrency" -> maxConcurrency = Integer.parseInt(args[++i]);
        case "--consumers" -> consumers = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + " (use --pool NAME --slots N --max-concurrency N --consumers N)");
      }
    }
    Vertx vertx = BenchCluster.join(System.getenv());
    vertx.eventBus().consumer(COUNTERS, m -> m.reply(JvmCounters.now().toJson())).completion()
        .await();
    for (int i = 0; i < consumers; i++) {
      vertx.deployVerticle(new LoadBench.RawConsumer()).await();
    }
    HostConfig host = HostConfig.parse(new JsonObject().put("pool", pool).put("id", HOST_ID)
        .put("worker", new JsonObject().put("class", BenchWorker.class.getName())
            .put("instances", slots).put("maxConcurrency", maxConcurrency)
            .put("threading", "EVENT_LOOP")), "hosts[0]", HOST_ID);
    vertx.deployVerticle(new HostAgent(host, refused -> {
      System.err.println("bench host refused: " + refused.getMessage());
      System.exit(3);
    })).await();
    System.out.println(READY);
  }
}
