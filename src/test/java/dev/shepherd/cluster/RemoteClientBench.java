package dev.shepherd.cluster;

import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A pool answering another node: two clustered Vert.x in this JVM (so every message crosses
 * loopback TCP), the pool on A (4 EVENT_LOOP slots x 64, echo jobs), the submitters on B, 256 in
 * flight, closed loop. Interleaved rounds of a {@link PoolClient} on B (its outcomes sent to its
 * reply address) and of plain bus requests to the pool's submit address (the outcome is the
 * reply), after a warm-up of both. Not a test: run it on its own,
 * {@code mvn -B -o test -Dtest=RemoteClientBench -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class RemoteClientBench {
  static final int IN_FLIGHT = 256;
  static final long WARMUP_MS = Long.getLong("remote.bench.warmupMs", 10_000);
  static final long ROUND_MS = 5_000;

  @Test
  void pool_client_and_bus_requests_from_another_node() throws Exception {
    String name = ClusterPorts.uniqueName("remote-bench");
    int base = ClusterPorts.freeBase();
    Vertx a = ClusteredVertx.start(name, base);
    Vertx b = ClusteredVertx.start(name, base);
    try {
      JsonObject pool = PoolFixture.demoPool("bench", 4).put("backlogCapacity", 100_000);
      pool.getJsonObject("worker").put("threading", "EVENT_LOOP").put("maxConcurrency", 64);
      PoolFixture.deployReady(a, pool);
      PoolClient client = PoolClient.create(b, "bench");
      AtomicLong ids = new AtomicLong();
      Function<Long, Future<?>> viaClient = i -> client.submit(
          JobRequest.of(new JsonObject().put("echo", 1)).withJob("c-" + i));
      Function<Long, Future<?>> viaBus = i -> b.eventBus().request("shepherd.bench.submit",
          new JsonObject().put("job", "b-" + i).put("payload", new JsonObject().put("echo", 1)));
      for (int half = 0; half < 2; half++) {
        closedLoop(b, viaClient, ids, WARMUP_MS / 2);
        closedLoop(b, viaBus, ids, WARMUP_MS / 2);
      }
      List<Long> clientRounds = new ArrayList<>();
      List<Long> busRounds = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        clientRounds.add(Math.round(closedLoop(b, viaClient, ids, ROUND_MS)));
        busRounds.add(Math.round(closedLoop(b, viaBus, ids, ROUND_MS)));
      }
      System.out.printf("RemoteClientBench, echo, %d in flight from another node: PoolClient %s"
          + " jobs/s, bus requests %s jobs/s%n", IN_FLIGHT, clientRounds, busRounds);
      PoolFixture.join(client.close());
    } finally {
      ClusteredVertx.close(b);
      ClusteredVertx.close(a);
    }
  }

  private static double closedLoop(Vertx vertx, Function<Long, Future<?>> submit, AtomicLong ids,
      long ms) throws Exception {
    return ClosedLoop.jobsPerSecond(vertx, IN_FLIGHT, ms, () -> submit.apply(ids.incrementAndGet()));
  }
}
