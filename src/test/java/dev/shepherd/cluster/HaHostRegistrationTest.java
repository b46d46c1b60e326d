package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.cluster.hosts.HostMessages;
import dev.shepherd.cluster.hosts.HostReport;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.access.LocalPools;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Worker hosts of a highly available pool (A3 with H1): the pool's effects, the notice that a
 * host is UP included, leave only once their records are written, and a registration must not
 * be judged by that notice. One clustered Vert.x that is its own majority leads the pool; a
 * {@link FakeHost} registers.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HaHostRegistrationTest {
  private static Vertx vertx;
  private static String node;

  @BeforeAll
  static void cluster() {
    vertx = ClusteredVertx.start(ClusterPorts.uniqueName("ha-hosts"), ClusterPorts.freeBase(), 1);
    node = ClusteredVertx.nodeId(vertx);
  }

  @AfterAll
  static void close() {
    ClusteredVertx.close(vertx);
  }

  @Test
  void A3_H1_a_host_registering_with_a_highly_available_pool_is_taken_at_once_and_its_slots_run_jobs() {
    JsonObject config = PoolFixture.demoPool("ha-hosts", 0)
        .put("ha", new JsonObject().put("enabled", true)).put("heartbeatTimeoutMs", 5_000);
    PoolFixture.deploy(vertx, config);
    // Led, and its hosts' address consumed: a malformed registration is answered 400.
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() ->
        LocalPools.find(vertx, "ha-hosts") != null && PoolFixture.failure(vertx.eventBus()
            .request("shepherd.ha-hosts.register", new JsonObject())) instanceof ReplyException e
            && e.failureType() == ReplyFailure.RECIPIENT_FAILURE && e.failureCode() == 400);
    FakeHost host = new FakeHost(vertx, "shepherd.ha-hosts", "h1", node);

    HostMessages.Registered registered = host.register(1, 1);
    host.heartbeat();
    HostMessages.Registered again = host.register(1, 1);

    assertThat(registered.term()).isPositive();
    assertThat(again.term()).isEqualTo(registered.term());
    await().atMost(PoolFixture.STEP)
        .until(() -> host.commands(HostCommand.Deploy.class).size() == 1);
    host.report(new HostReport.Created("h1/w-0", 1));
    Future<Outcome> outcome = PoolClient.create(vertx, "ha-hosts")
        .outcome(JobRequest.of(PoolFixture.echo("on the host")).withJob("j1"));
    await().atMost(PoolFixture.STEP)
        .until(() -> host.commands(HostCommand.Assign.class).size() == 1);
    HostCommand.Assign assign = host.commands(HostCommand.Assign.class).get(0);
    host.report(new HostReport.Completion("h1/w-0", assign.assignment(), "done", null));

    assertThat(join(outcome)).isInstanceOfSatisfying(Outcome.Completed.class,
        c -> assertThat(c.result()).isEqualTo("done"));
  }
}
