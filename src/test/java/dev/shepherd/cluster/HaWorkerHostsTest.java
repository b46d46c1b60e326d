package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A highly available pool that runs on a worker host only (A2, A3 with section 8.2): when the
 * active coordinator is killed, the host registers with the new leader by itself, the jobs that
 * were running on it are run again there, and it takes new work under the new term.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HaWorkerHostsTest {
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();

  @Test
  void A2_a_worker_host_registers_with_the_new_leader_by_itself_and_runs_its_jobs_under_the_new_term()
      throws Exception {
    ClusterNode host = cluster.start("h1", HaNodes.workerHost("h1"));
    HaNodes ha = new HaNodes(cluster, 3, HaNodes.pool(0));
    host.awaitLine("Shepherd node ready", Duration.ofSeconds(120));
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> ha.active() != null && ha.hostUp("h1"));
    long termBefore = ha.status().getJsonObject("ha").getLong("term");

    HaLoad load = new HaLoad(ha.member, HaNodes.POOL, "hosts");
    for (int i = 0; i < 6; i++) {
      load.submit(new JsonObject().put("job", "long-" + i)
          .put("payload", new JsonObject().put("sleepMs", 3_000)));
    }
    await().atMost(Duration.ofSeconds(20)).until(() -> load.accepted().size() == 6);
    Thread.sleep(300);
    ClusterNode victim = ha.active();
    victim.kill();

    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
      JsonObject status = ha.status();
      return status != null && status.getJsonObject("ha").getLong("term") > termBefore
          && ha.hostUp("h1");
    });
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> load.answers().size() == 6);
    for (int i = 0; i < 4; i++) {
      load.submit(new JsonObject().put("job", "after-" + i)
          .put("payload", new JsonObject().put("sleepMs", 10)));
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> load.answers().size() == 10);
    for (List<JsonObject> answers : load.answers().values()) {
      assertThat(answers).hasSize(1);
      JsonObject outcome = answers.get(0);
      assertThat(outcome.getString("type")).as(outcome.encode()).isEqualTo("completed");
      assertThat(outcome.getJsonObject("result").getString("node")).isEqualTo("h1");
      assertThat(outcome.getString("worker")).startsWith("h1/");
    }
  }
}
