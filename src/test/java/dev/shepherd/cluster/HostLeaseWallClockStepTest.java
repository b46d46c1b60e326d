package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.runtime.FakeTime;
import dev.shepherd.runtime.PoolFixture;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * H5 on the monotonic clock: a host is lost after {@code heartbeatTimeoutMs} of silence measured
 * on the pool's monotonic clock, so a step of the wall clock between two messages neither loses a
 * host that spoke a moment ago (a step forward) nor keeps one that has gone silent (a step back).
 * One clustered Vert.x on a {@link FakeTime}, hosts written by the test ({@link FakeHost}); what
 * the host says is a report request, whose answer tells the test the pool has heard it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostLeaseWallClockStepTest {
  private static final AtomicInteger POOLS = new AtomicInteger();
  private static Vertx vertx;
  private static FakeTime time;
  private static String node;

  @BeforeAll
  static void cluster() {
    vertx = ClusteredVertx.start(ClusterPorts.uniqueName("lease-clock"), ClusterPorts.freeBase());
    time = FakeTime.install(vertx);
    node = ClusteredVertx.nodeId(vertx);
  }

  @AfterAll
  static void close() {
    ClusteredVertx.close(vertx);
  }

  private static String hostState(String pool) {
    return status(vertx, pool).getJsonArray("hosts").getJsonObject(0).getString("state");
  }

  @ParameterizedTest(name = "wall clock stepped by {0} ms")
  @ValueSource(longs = {-60_000, 60_000})
  void H5_a_host_is_lost_after_heartbeatTimeoutMs_of_silence_on_the_monotonic_clock(long step) {
    String pool = "lc" + POOLS.incrementAndGet();
    PoolFixture.deploy(vertx, PoolFixture.seedRules(PoolFixture.demoPool(pool, 0))
        .put("heartbeatTimeoutMs", 1_000));
    FakeHost host = new FakeHost(vertx, "shepherd." + pool, "h1", node);
    host.register(1, 1);
    await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10))
        .until(() -> !host.commands(HostCommand.Deploy.class).isEmpty());
    awaitStatus(vertx, pool, s -> "UP".equals(s.getJsonArray("hosts").getJsonObject(0)
        .getString("state")));

    time.advance(600);
    assertThat(host.report()).as("heard 600 ms after registering").isInstanceOf(JsonObject.class);
    time.stepWall(step);
    time.advance(400);
    assertThat(hostState(pool)).as("400 ms of silence").isEqualTo("UP");
    time.advance(599);
    assertThat(hostState(pool)).as("999 ms of silence").isEqualTo("UP");
    time.advance(1);

    assertThat(hostState(pool)).as("1000 ms of silence").isEqualTo("LOST");
    host.close();
  }
}
