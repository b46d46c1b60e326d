package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.shepherd.LogCapture;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.coordinator.Coordinator;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A3 in docs/rules.md: a node that takes part in a highly available pool builds a term's
 * coordinator ahead, on a worker thread, so that a takeover does not build its first one cold;
 * what it builds is dropped, registering nothing: the pool's one coordinator on the node is the
 * term's, which serves.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HaTakeoverWarmUpTest {
  @Test
  void A3_a_node_builds_a_takeovers_coordinator_ahead_and_registers_nothing_of_it() {
    Vertx vertx = ClusteredVertx.start(ClusterPorts.uniqueName("ha-warm"), ClusterPorts.freeBase(),
        1);
    try (LogCapture log = LogCapture.start("dev.shepherd.runtime.PoolVerticle")) {
      PoolFixture.deploy(vertx, PoolFixture.demoPool("ha-warm", 1)
          .put("ha", new JsonObject().put("enabled", true)));

      await().atMost(Duration.ofSeconds(60)).until(() -> log.lines().stream()
          .anyMatch(line -> line.contains("pool ha-warm: a takeover's coordinator warmed up")));
      await().atMost(Duration.ofSeconds(60)).until(() -> LocalPools.find(vertx, "ha-warm") != null
          && LocalPools.find(vertx, "ha-warm").term() > 0);
      Coordinator led = LocalPools.find(vertx, "ha-warm");

      Object outcome = PoolClient.create(vertx, "ha-warm")
          .outcome(JobRequest.of(PoolFixture.echo("after the warm-up")).withJob("w1"))
          .toCompletionStage().toCompletableFuture().join();
      assertThat(outcome.toString()).contains("after the warm-up");
      assertThat(LocalPools.find(vertx, "ha-warm")).isSameAs(led);
      assertThat(log.events()).filteredOn(e -> e.getLoggerName().startsWith("dev.shepherd"))
          .noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.ERROR)
              || e.getFormattedMessage().contains("failed"));
    } finally {
      ClusteredVertx.close(vertx);
    }
  }
}
