package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import dev.shepherd.cluster.ha.ForgedHaRecords;
import dev.shepherd.cluster.trust.ClusterKeys;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sealed HA records across JVMs (docs/security.md, A3 in docs/rules.md): three nodes of an HA
 * pool share a cluster key; the test's own member, which has none, appends to the pool's log in
 * the HA map a record in clear and one sealed with another key, each accepting a job to be
 * answered at its own address. After {@code kill -9} of the leader the new one refuses both at
 * recovery, an ERROR once each, answers nothing they say, and every honest job is answered once.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HaSealedAcrossJvmsTest {
  private static final String FORGED_REPLIES = "rogue.forged.answers";

  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();

  private static String randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  @Test
  void A3_records_a_member_without_the_key_writes_are_refused_at_recovery_and_never_answered()
      throws Exception {
    HaNodes ha = new HaNodes(cluster, 3, HaNodes.pool(2), Map.of(ClusterKeys.KEY, randomKey()));
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> ha.active() != null);
    List<Object> forgedAnswers = new CopyOnWriteArrayList<>();
    ha.member.eventBus().consumer(FORGED_REPLIES, m -> forgedAnswers.add(m.body()))
        .completion().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

    HaLoad load = new HaLoad(ha.member, HaNodes.POOL, "sealed");
    load.start(10, i -> new JsonObject().put("job", "h-" + i)
        .put("payload", new JsonObject().put("sleepMs", 30).put("echo", i)));
    await().atMost(Duration.ofSeconds(30)).until(() -> load.answers().size() >= 50);

    // The log's end is quiet while the forgery goes in: a batch the leader wrote at the same place
    // would be kept instead of it (or dropped for it), which tests the race, not the sealing.
    load.stop();
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .untilAsserted(() -> assertThat(load.waiting()).as("accepted, not answered").isEmpty());
    HazelcastInstance hazelcast = ((HazelcastClusterManager) ((VertxInternal) ha.member)
        .clusterManager()).getHazelcastInstance();
    long term = ForgedHaRecords.append(hazelcast, HaNodes.POOL, randomKey(), FORGED_REPLIES,
        "forged-clear", "forged-other-key");
    ClusterNode victim = ha.active();
    victim.kill();
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
      JsonObject status = ha.status();
      return status != null && status.getJsonObject("ha").getLong("term") > term
          && ha.active() != null && ha.active() != victim;
    });
    load.start(10, i -> new JsonObject().put("job", "h-after-" + i)
        .put("payload", new JsonObject().put("sleepMs", 30).put("echo", i)));
    int before = load.answers().size();
    await().atMost(Duration.ofSeconds(30)).until(() -> load.answers().size() >= before + 50);
    load.stop();
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .untilAsserted(() -> assertThat(load.waiting()).as("accepted, not answered").isEmpty());

    ClusterNode leader = ha.active();
    String log = leader.output();
    assertThat(errorLines(log, "in clear, but the cluster key is set"))
        .as("ERROR lines for the record in clear, in the new leader's log\n" + log).isEqualTo(1);
    assertThat(errorLines(log, "does not authenticate with the cluster key"))
        .as("ERROR lines for the record sealed with another key").isEqualTo(1);
    JsonObject status = ha.status();
    assertThat(status.encode()).doesNotContain("forged-");
    assertThat(forgedAnswers).as("answers to the forged jobs").isEmpty();
    for (Map.Entry<String, List<JsonObject>> e : load.answers().entrySet()) {
      assertThat(e.getValue()).as("answers of " + e.getKey()).hasSize(1);
    }
    assertThat(load.answers().keySet()).containsAll(load.accepted());
    System.out.printf("sealed HA: %d accepted, %d answered, forged records refused by %s%n",
        load.accepted().size(), load.answers().size(), leader);
  }

  private static long errorLines(String log, String text) {
    return log.lines().filter(l -> l.contains(" ERROR ") && l.contains("refused a batch")
        && l.contains(text)).count();
  }
}
