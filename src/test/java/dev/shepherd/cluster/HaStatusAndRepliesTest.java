package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What every node shows of a highly available pool (A1) and where the answers of jobs taken over
 * go (A4), across JVMs: three nodes list the pool, the test's JVM is a fourth member.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HaStatusAndRepliesTest {
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
      .build();

  @Test
  void A1_every_node_shows_the_active_coordinator_and_its_term_and_with_too_few_members_ha_is_unavailable()
      throws Exception {
    HaNodes ha = new HaNodes(cluster, 3, HaNodes.pool(1));
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> ha.active() != null);
    JsonObject expected = ha.status().getJsonObject("ha");
    assertThat(expected.getBoolean("enabled")).isTrue();
    assertThat(expected.getBoolean("available")).isTrue();
    assertThat(expected.getLong("term")).isPositive();
    for (int port : ha.httpPorts) {
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
          .until(() -> get(port, "/api/pools/jobs").statusCode() == 200);
      JsonObject status = new JsonObject(get(port, "/api/pools/jobs").body());
      assertThat(status.getJsonObject("ha")).as("through port " + port).isEqualTo(expected);
    }

    ClusterNode active = ha.active();
    for (ClusterNode node : ha.nodes) {
      if (node != active) {
        node.kill();
      }
    }
    // Two members are left (the active node and this JVM's): a majority of the configured two,
    // but one more loss would leave none, so HA is unavailable; the pool still serves.
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> {
      JsonObject status = ha.status();
      return status != null && !status.getJsonObject("ha").getBoolean("available");
    });
    JsonObject after = ha.status().getJsonObject("ha");
    assertThat(after.getString("active")).isEqualTo(expected.getString("active"));
    assertThat(after.getLong("term")).isEqualTo(expected.getLong("term"));
    HaLoad load = new HaLoad(ha.member, HaNodes.POOL, "few");
    load.submit(new JsonObject().put("job", "still-served").put("payload", new JsonObject()));
    await().atMost(Duration.ofSeconds(20)).until(() -> load.answers().containsKey("still-served"));
    assertThat(load.answers().get("still-served").get(0).getString("type"))
        .isEqualTo("completed");
  }

  @Test
  void A4_jobs_running_when_their_coordinator_dies_are_answered_at_their_replyTo_by_the_new_leader()
      throws Exception {
    HaNodes ha = new HaNodes(cluster, 3, HaNodes.pool(2));
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> ha.active() != null);
    HaLoad load = new HaLoad(ha.member, HaNodes.POOL, "replies");
    for (int i = 0; i < 6; i++) {
      load.submit(new JsonObject().put("job", "long-" + i)
          .put("payload", new JsonObject().put("sleepMs", 4_000).put("echo", i)));
    }
    PoolClient client = PoolClient.create(ha.member, HaNodes.POOL);
    List<Future<Object>> futures = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      futures.add(client.submit(JobRequest.of(new JsonObject().put("sleepMs", 4_000)
          .put("echo", "client-" + i)).withJob("client-" + i)));
    }
    await().atMost(Duration.ofSeconds(20)).until(() -> load.accepted().size() == 6);
    ClusterNode victim = ha.active();
    // HTTP callers waiting on a node that survives: it submits with a reply address of its own.
    int survivor = ha.httpPorts.get(ha.nodes.get(0) == victim ? 1 : 0);
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      calls.add(http.sendAsync(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + survivor + "/api/pools/jobs/jobs"))
          .timeout(Duration.ofSeconds(90))
          .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("job", "http-" + i)
              .put("payload", new JsonObject().put("sleepMs", 4_000).put("echo", "http-" + i))
              .encode())).build(), HttpResponse.BodyHandlers.ofString()));
    }
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
        .ignoreExceptions().until(() -> ha.status().getJsonObject("counters").getLong("accepted") >= 12);
    Thread.sleep(500);
    victim.kill();
    // Submits made while no node leads (the dead node's consumers are still listed for a
    // moment, then nobody consumes the pool's address) wait for the new leader instead of
    // failing: a PoolClient's, and an HTTP caller's on a surviving node.
    List<Future<Object>> during = new ArrayList<>();
    PoolClient late = PoolClient.create(ha.member, HaNodes.POOL);
    for (int i = 0; i < 3; i++) {
      during.add(late.submit(JobRequest.of(new JsonObject().put("echo", "during-" + i))
          .withJob("during-" + i)));
    }
    List<CompletableFuture<HttpResponse<String>>> duringHttp = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      duringHttp.add(http.sendAsync(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + survivor + "/api/pools/jobs/jobs"))
          .timeout(Duration.ofSeconds(90))
          .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("job", "during-http-" + i)
              .put("payload", new JsonObject().put("echo", "during-http-" + i)).encode()))
          .build(), HttpResponse.BodyHandlers.ofString()));
      Thread.sleep(150);
    }

    // A PoolClient on a clustered Vert.x gives a reply address of its own: its futures complete
    // with the new leader's answers.
    for (int i = 0; i < futures.size(); i++) {
      JsonObject result = (JsonObject) futures.get(i).toCompletionStage().toCompletableFuture()
          .get(60, TimeUnit.SECONDS);
      assertThat(result.getString("echo")).isEqualTo("client-" + i);
      assertThat(result.getString("node")).isNotEqualTo(victim.name());
    }
    client.close();
    for (int i = 0; i < calls.size(); i++) {
      HttpResponse<String> response = calls.get(i).get(90, TimeUnit.SECONDS);
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      JsonObject outcome = new JsonObject(response.body());
      assertThat(outcome.getString("type")).isEqualTo("completed");
      assertThat(outcome.getJsonObject("result").getString("echo")).isEqualTo("http-" + i);
      assertThat(outcome.getJsonObject("result").getString("node")).isNotEqualTo(victim.name());
    }

    for (int i = 0; i < during.size(); i++) {
      JsonObject result = (JsonObject) during.get(i).toCompletionStage().toCompletableFuture()
          .get(60, TimeUnit.SECONDS);
      assertThat(result.getString("echo")).isEqualTo("during-" + i);
    }
    late.close();
    for (int i = 0; i < duringHttp.size(); i++) {
      HttpResponse<String> response = duringHttp.get(i).get(90, TimeUnit.SECONDS);
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      assertThat(new JsonObject(response.body()).getJsonObject("result").getString("echo"))
          .isEqualTo("during-http-" + i);
    }

    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> load.answers().size() == 6);
    Thread.sleep(2_000);
    for (List<JsonObject> answers : load.answers().values()) {
      assertThat(answers).hasSize(1);
      JsonObject outcome = answers.get(0);
      assertThat(outcome.getString("type")).as(outcome.encode()).isEqualTo("completed");
      assertThat(outcome.getJsonObject("result").getString("node")).isNotEqualTo(victim.name());
      assertThat(outcome.getInteger("attempts")).as(outcome.encode()).isGreaterThan(1);
    }
  }

  @Test
  void A1_a_node_without_a_majority_stands_by_and_answers_that_no_node_leads_the_pool()
      throws Exception {
    int port = ClusterPorts.freeHttpPort();
    ClusterNode alone = cluster.start("alone", new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", port)
            .put("leaderWaitMs", 1_500))
        .put("pools", new io.vertx.core.json.JsonArray().add(HaNodes.pool(1))));
    alone.awaitLine("Shepherd node ready", Duration.ofSeconds(120));
    assertThat(alone.output()).contains("stands by for leadership");

    HttpResponse<String> status = get(port, "/api/pools/jobs");
    assertThat(status.statusCode()).as(status.body()).isEqualTo(503);
    assertThat(status.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(new JsonObject(status.body()).getString("error")).isEqualTo("NO_LEADER");
    JsonObject listed = new JsonObject(get(port, "/api/pools").body());
    assertThat(listed.getJsonArray("pools")).singleElement()
        .satisfies(pool -> assertThat(((JsonObject) pool).getString("unreachable"))
            .contains("no node leads it"));
    // A submit waits for a leader for a while (http.leaderWaitMs: none comes), then is told so;
    // nothing is queued.
    for (String wait : new String[] {"true", "false"}) {
      HttpResponse<String> submit = http.send(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + port + "/api/pools/jobs/jobs?wait=" + wait))
          .timeout(Duration.ofSeconds(60))
          .POST(HttpRequest.BodyPublishers.ofString("{\"payload\":{}}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(submit.statusCode()).as(submit.body()).isEqualTo(503);
      assertThat(new JsonObject(submit.body()).getString("message"))
          .contains("no node leads highly available pool 'jobs'");
    }
    assertThat(get(port, "/api/pools/nonesuch").statusCode()).isEqualTo(404);
    // Liveness: a pool waiting for a leader is not this node's failure.
    HttpResponse<String> health = get(port, "/health");
    assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
    assertThat(health.body()).contains("no node leads it now");
  }

  @Test
  void A1_a_node_told_that_one_member_is_a_majority_runs_the_pool_alone_with_ha_unavailable()
      throws Exception {
    int port = ClusterPorts.freeHttpPort();
    java.util.Map<String, String> env = new java.util.HashMap<>(cluster.clusterEnv());
    env.put(ClusterSettings.MAJORITY, "1");
    ClusterNode single = cluster.start("single", new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", port))
        .put("pools", new io.vertx.core.json.JsonArray().add(HaNodes.pool(1))), env, List.of());
    single.awaitLine("Shepherd node ready", Duration.ofSeconds(120));
    assertThat(single.output()).contains("a member alone leads the pool");

    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
        .until(() -> get(port, "/api/pools/jobs").statusCode() == 200);
    JsonObject ha = new JsonObject(get(port, "/api/pools/jobs").body()).getJsonObject("ha");
    assertThat(ha.getBoolean("enabled")).isTrue();
    assertThat(ha.getBoolean("available")).isFalse();
    assertThat(ha.getLong("term")).isPositive();
    HttpResponse<String> job = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/api/pools/jobs/jobs"))
        .timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofString("{\"payload\":{\"echo\":1}}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(job.statusCode()).as(job.body()).isEqualTo(200);
    assertThat(new JsonObject(job.body()).getString("type")).isEqualTo("completed");
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(20)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
