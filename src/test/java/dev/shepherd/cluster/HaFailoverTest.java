package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * High availability across JVMs (section 8.5): three nodes list one HA pool, the test's JVM is a
 * fourth member that submits with a {@code replyTo} of its own. The active coordinator is killed
 * ({@code kill -9}) under a steady load: a standby takes over, every job the submitter saw
 * accepted is answered, with one outcome, and the new leader serves within seconds.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class HaFailoverTest {
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();

  @Test
  void A3_kill_9_of_the_active_coordinator_under_load_every_accepted_job_is_answered_once()
      throws Exception {
    HaNodes ha = new HaNodes(cluster, 3, HaNodes.pool(2));
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> ha.active() != null);
    JsonObject before = ha.status().getJsonObject("ha");
    assertThat(before.getBoolean("enabled")).isTrue();
    assertThat(before.getBoolean("available")).isTrue();
    long termBefore = before.getLong("term");

    HaLoad load = new HaLoad(ha.member, HaNodes.POOL, "kill9");
    load.start(10, i -> new JsonObject().put("job", "j-" + i)
        .put("payload", new JsonObject().put("sleepMs", 50).put("echo", i)));
    await().atMost(Duration.ofSeconds(30)).until(() -> load.answers().size() >= 100);

    ClusterNode victim = ha.active();
    long killedAt = System.currentTimeMillis();
    victim.kill();
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> load.firstAcceptedAfter(killedAt + 200) > 0);
    long servedAt = load.firstAcceptedAfter(killedAt + 200);
    System.out.printf("failover: kill -9 to the first job accepted by the new leader: %d ms%n",
        servedAt - killedAt);
    Thread.sleep(2_000);
    load.stop();

    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> load.waiting().isEmpty());
    JsonObject after = ha.status().getJsonObject("ha");
    assertThat(after.getLong("term")).isGreaterThan(termBefore);
    assertThat(ha.byNodeId(after.getString("active"))).isNotSameAs(victim).isNotNull();

    int duplicates = 0;
    List<String> conflicting = new ArrayList<>();
    for (Map.Entry<String, List<JsonObject>> e : load.answers().entrySet()) {
      duplicates += e.getValue().size() - 1;
      if (e.getValue().stream().map(o -> o.getString("type")).distinct().count() > 1) {
        conflicting.add(e.getKey() + " " + e.getValue());
      }
    }
    System.out.printf("kill -9: %d sent, %d accepted, %d never admitted (the dead node's),"
        + " %d answers sent twice%n", load.sent(), load.accepted().size(), load.unanswered(),
        duplicates);
    assertThat(load.waiting()).as("accepted and never answered").isEmpty();
    assertThat(conflicting).as("jobs answered with two different outcomes").isEmpty();
    assertThat(load.answers().keySet()).containsAll(load.accepted());
    assertThat(servedAt - killedAt).as("takeover time, ms").isLessThan(15_000);
  }
}
