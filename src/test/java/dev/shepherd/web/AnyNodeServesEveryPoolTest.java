package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Section 8.4 on two clustered nodes in this JVM: node A coordinates {@code jobs}, node B
 * coordinates {@code images}, and each serves HTTP. Everything a node serves for its own pools it
 * serves for the other's: the API (submit, status, cancel, rebalance, revive, lookup and waiting
 * for a job, the dead-letter set, the list), the live events WebSocket (snapshot, history,
 * events), the bridge, {@code /metrics} (labelled by where the pool is coordinated) and {@code
 * /health}; an in-JVM {@code PoolClient} on B speaks the bus; a pool that stops disappears from
 * the other node.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 240, unit = SECONDS)
class AnyNodeServesEveryPoolTest {
  private ClusteredWebNode a;
  private ClusteredWebNode b;

  private static ConditionFactory eventually() {
    return await().atMost(60, SECONDS).pollInterval(java.time.Duration.ofMillis(100));
  }

  @BeforeAll
  void start() {
    ClusteredWebNode.Cluster cluster = ClusteredWebNode.Cluster.fresh("anynode");
    a = ClusteredWebNode.start(cluster, WebTestApp.demoPool("jobs", 2).put("maxPayloadDepth", 8));
    b = ClusteredWebNode.start(cluster, WebTestApp.demoPool("images", 1));
    // The first requests across the cluster may find it still forming.
    eventually().until(() -> Http.get(b.url("/api/pools/jobs")).status() == 200
        && Http.get(a.url("/api/pools/images")).status() == 200);
  }

  @AfterAll
  void stop() {
    if (b != null) {
      b.close();
    }
    if (a != null) {
      a.close();
    }
  }

  private static List<String> names(Http.Response list) {
    return list.json().getJsonArray("pools").stream()
        .map(p -> ((JsonObject) p).getString("name")).toList();
  }

  private JsonObject statusOnA() {
    return Http.get(a.url("/api/pools/jobs")).json();
  }

  @Test
  void any_node_lists_every_pool_of_the_cluster_with_its_snapshot() {
    for (ClusteredWebNode node : List.of(a, b)) {
      Http.Response list = Http.get(node.url("/api/pools"));
      assertThat(list.status()).isEqualTo(200);
      assertThat(names(list)).contains("images", "jobs").isSorted();
    }
    JsonObject jobs = Http.get(b.url("/api/pools/jobs")).json();
    assertThat(jobs.getString("name")).isEqualTo("jobs");
    assertThat(jobs.getString("state")).isEqualTo("RUNNING");
    assertThat(jobs.getJsonArray("slots")).hasSize(2);
    assertThat(jobs.getJsonObject("backlog").getInteger("capacity")).isPositive();

    Http.Response nowhere = Http.get(b.url("/api/pools/nowhere"));
    assertThat(nowhere.status()).isEqualTo(404);
    assertThat(nowhere.json().getString("error")).isEqualTo("UNKNOWN_POOL");
  }

  @Test
  void a_job_submitted_through_a_node_that_does_not_coordinate_the_pool_runs_there() {
    long completedBefore = statusOnA().getJsonObject("counters").getLong("completed");

    Http.Response done = Http.post(b.url("/api/pools/jobs/jobs"),
        "{\"job\":\"via-b\",\"payload\":{\"echo\":\"across\"}}");
    Http.Response admitted = Http.post(b.url("/api/pools/jobs/jobs?wait=false"),
        "{\"payload\":{\"echo\":\"admitted\"}}");
    Http.Response failed = Http.post(b.url("/api/pools/jobs/jobs"),
        "{\"payload\":{\"fail\":\"on purpose\"}}");

    assertThat(done.status()).isEqualTo(200);
    JsonObject outcome = done.json();
    assertThat(outcome.getString("type")).isEqualTo("completed");
    assertThat(outcome.getString("job")).isEqualTo("via-b");
    assertThat(outcome.getJsonObject("result").getString("echo")).isEqualTo("across");
    assertThat(outcome.getString("worker")).isIn("w-0", "w-1");
    assertThat(admitted.status()).isEqualTo(200);
    assertThat(admitted.json().getString("type")).isEqualTo("accepted");
    assertThat(failed.json().getString("type")).isEqualTo("failed");
    eventually().until(() -> statusOnA().getJsonObject("counters").getLong("completed")
        >= completedBefore + 2);
  }

  @Test
  void cancel_and_rebalance_through_the_other_node_reach_the_coordinator() {
    Http.Response admitted = Http.post(b.url("/api/pools/jobs/jobs?wait=false"),
        "{\"job\":\"slow-1\",\"payload\":{\"sleepMs\":20000}}");
    assertThat(admitted.json().getString("type")).isEqualTo("accepted");
    eventually().until(() -> Http.get(b.url("/api/pools/jobs")).body().contains("\"slow-1\""));

    Http.Response cancelled = Http.delete(b.url("/api/pools/jobs/jobs/slow-1"), null);
    Http.Response again = Http.delete(b.url("/api/pools/jobs/jobs/slow-1"), null);

    assertThat(cancelled.status()).isEqualTo(200);
    assertThat(cancelled.json()).isEqualTo(new JsonObject().put("job", "slow-1")
        .put("cancelled", true));
    assertThat(again.json().getBoolean("cancelled")).isFalse();

    Http.Response moved = Http.post(b.url("/api/pools/jobs/rebalance"),
        "{\"key\":\"tenant-7\",\"worker\":\"w-1\"}");
    Http.Response refused = Http.post(b.url("/api/pools/jobs/rebalance"),
        "{\"key\":\"tenant-7\",\"worker\":\"w-9\"}");
    Http.Response keyed = Http.post(b.url("/api/pools/jobs/jobs"),
        "{\"key\":\"tenant-7\",\"payload\":{\"echo\":1}}");

    assertThat(moved.status()).isEqualTo(200);
    assertThat(moved.json()).isEqualTo(new JsonObject().put("key", "tenant-7")
        .put("worker", "w-1"));
    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.json().getString("error")).isEqualTo("UNKNOWN_WORKER");
    assertThat(keyed.json().getString("worker")).isEqualTo("w-1");
  }

  @Test
  void bad_input_for_a_remote_pool_is_refused_naming_the_field_and_counts_nothing() {
    JsonObject counters = statusOnA().getJsonObject("counters");
    String tooDeep = "{\"payload\":" + "[".repeat(12) + "]".repeat(12) + "}";
    List<String[]> cases = List.of(
        new String[] {"{}", "payload"},
        new String[] {"[1]", "body"},
        new String[] {"not json", "body"},
        new String[] {"{\"payload\":1,\"job\":\"\"}", "job"},
        new String[] {"{\"payload\":1,\"key\":7}", "key"},
        new String[] {"{\"payload\":1,\"timeoutMs\":-5}", "timeoutMs"},
        new String[] {"{\"payload\":1,\"extra\":true}", "extra"},
        new String[] {"{\"payload\":1,\"replyTo\":\"somewhere\"}", "replyTo"},
        new String[] {tooDeep, "payload"});
    for (String[] c : cases) {
      Http.Response r = Http.post(b.url("/api/pools/jobs/jobs"), c[0]);
      assertThat(r.status()).as(c[0]).isEqualTo(400);
      assertThat(r.json().getString("error")).as(c[0]).isEqualTo("BAD_REQUEST");
      assertThat(r.json().getString("message")).as(c[0]).startsWith(c[1] + ":");
    }
    Http.Response rebalance = Http.post(b.url("/api/pools/jobs/rebalance"), "{\"key\":1}");
    assertThat(rebalance.status()).isEqualTo(400);
    assertThat(rebalance.json().getString("message")).startsWith("key:");
    Http.Response cancel = Http.delete(b.url("/api/pools/jobs/jobs/" + "x".repeat(300)), null);
    assertThat(cancel.status()).isEqualTo(400);

    JsonObject after = statusOnA().getJsonObject("counters");
    assertThat(after.getLong("accepted")).isEqualTo(counters.getLong("accepted"));
    assertThat(after.getLong("rejected")).isEqualTo(counters.getLong("rejected"));
  }

  @Test
  void the_live_view_of_a_remote_pool_has_its_snapshot_then_its_events() {
    try (Sockets live = Sockets.connect(b.port(), "/api/pools/jobs/events")) {
      eventually().until(() -> !live.received().isEmpty());
      JsonObject first = live.received().get(0);
      assertThat(first.getString("type")).isEqualTo("snapshot");
      assertThat(first.getString("pool")).isEqualTo("jobs");
      assertThat(first.getJsonObject("snapshot").getJsonArray("slots")).hasSize(2);
      eventually().until(() -> live.received().size() >= 2);
      assertThat(live.received().get(1).getString("type")).as("the pool's past, from A")
          .isEqualTo("history");

      // The clustered consumer may take a moment to be seen by the coordinator's node.
      eventually().until(() -> {
        Http.post(a.url("/api/pools/jobs/jobs"), "{\"payload\":{\"fail\":\"seen\"}}");
        return live.any(e -> "job".equals(e.getString("type")));
      });
      eventually().until(() -> live.any(e -> "stats".equals(e.getString("type"))));
      assertThat(List.copyOf(live.received())).allMatch(e -> "jobs".equals(e.getString("pool")));
      assertThat(live.first(e -> "job".equals(e.getString("type"))).getJsonObject("outcome")
          .getString("type")).isEqualTo("failed");
    }
  }

  @Test
  void metrics_on_each_node_label_where_the_pool_is_coordinated_so_nothing_counts_twice() {
    Http.post(b.url("/api/pools/jobs/jobs"), "{\"payload\":{\"echo\":\"metered\"}}");
    eventually().until(() -> {
      String text = Http.get(b.url("/metrics")).body();
      return Prometheus.value(text, "shepherd_slots", "pool", "jobs", "coordinator", "remote",
          "phase", "IDLE") == 2
          && Prometheus.value(text, "shepherd_jobs_finished_total", "pool", "jobs",
              "coordinator", "remote", "outcome", "completed") >= 1;
    });
    String onB = Http.get(b.url("/metrics")).body();
    String onA = Http.get(a.url("/metrics")).body();

    assertThat(Prometheus.value(onB, "shepherd_backlog_capacity", "pool", "jobs",
        "coordinator", "remote")).isPositive();
    assertThat(Prometheus.value(onB, "shepherd_backlog_length", "pool", "jobs",
        "coordinator", "remote")).isNotNaN();
    assertThat(Prometheus.value(onB, "shepherd_slots", "pool", "jobs", "coordinator", "remote",
        "phase", "LOST")).isZero();
    assertThat(Prometheus.value(onB, "shepherd_jobs_finished_total", "pool", "jobs",
        "coordinator", "local")).as("B does not coordinate jobs").isNaN();
    assertThat(Prometheus.value(onB, "shepherd_jobs_admitted_total", "pool", "images",
        "coordinator", "local", "result", "accepted")).isNotNaN();
    assertThat(Prometheus.value(onA, "shepherd_jobs_finished_total", "pool", "jobs",
        "coordinator", "local", "outcome", "completed")).isGreaterThanOrEqualTo(1);
    assertThat(Prometheus.value(onA, "shepherd_queue_wait_seconds_count", "pool", "jobs",
        "coordinator", "local")).isNotNaN();
    assertThat(Prometheus.value(onB, "shepherd_queue_wait_seconds_count", "pool", "jobs"))
        .as("queue wait is measured where the pool runs").isNaN();
  }

  @Test
  void health_on_any_node_names_every_pool_of_the_cluster() {
    Http.Response health = Http.get(b.url("/health"));

    assertThat(health.status()).isEqualTo(200);
    JsonArray checks = health.json().getJsonArray("checks");
    JsonObject jobs = checks.stream().map(JsonObject.class::cast)
        .filter(c -> "jobs".equals(c.getString("id"))).findFirst().orElseThrow();
    assertThat(jobs.getString("status")).isEqualTo("UP");
    assertThat(jobs.getJsonObject("data").getString("state")).isEqualTo("RUNNING");
    assertThat(jobs.getJsonObject("data").getJsonObject("slots").getInteger("IDLE")
        + jobs.getJsonObject("data").getJsonObject("slots").getInteger("ASSIGNED")).isEqualTo(2);
    assertThat(checks.stream().map(c -> ((JsonObject) c).getString("id")))
        .contains("images", "jobs");
  }

  @Test
  void a_pool_client_on_a_node_that_does_not_coordinate_the_pool_speaks_the_bus() {
    Set<String> sentFromB = ConcurrentHashMap.newKeySet();
    Set<String> sentFromA = ConcurrentHashMap.newKeySet();
    b.vertx().eventBus().addOutboundInterceptor(record(sentFromB));
    a.vertx().eventBus().addOutboundInterceptor(record(sentFromA));

    Object onB = ClusteredWebNode.join(PoolClient.create(b.vertx(), "jobs")
        .submit(new JsonObject().put("echo", "client on b")), 30);
    Object onA = ClusteredWebNode.join(PoolClient.create(a.vertx(), "jobs")
        .submit(new JsonObject().put("echo", "client on a")), 30);

    assertThat(((JsonObject) onB).getString("echo")).isEqualTo("client on b");
    assertThat(((JsonObject) onA).getString("echo")).isEqualTo("client on a");
    assertThat(sentFromB).contains("shepherd.jobs.submit");
    assertThat(sentFromA).as("in the coordinator's JVM the client hands jobs straight over")
        .doesNotContain("shepherd.jobs.submit");
  }

  @Test
  void J6_J5_a_job_admitted_through_the_other_node_is_looked_up_and_awaited_there() {
    Http.Response admitted = Http.post(b.url("/api/pools/jobs/jobs?wait=false"),
        "{\"job\":\"later-b\",\"payload\":{\"sleepMs\":2000,\"echo\":\"later\"}}");
    assertThat(admitted.json().getString("type")).isEqualTo("accepted");
    io.vertx.core.Future<dev.shepherd.core.Outcome> viaClient =
        PoolClient.create(b.vertx(), "jobs").await("later-b");

    Http.Response view = Http.get(b.url("/api/pools/jobs/jobs/later-b"));
    Http.Response done = Http.get(b.url("/api/pools/jobs/jobs/later-b?wait=true&timeoutMs=20000"));
    Http.Response never = Http.get(b.url("/api/pools/jobs/jobs/never-seen"));
    Http.Response dead = Http.get(b.url("/api/pools/jobs/dead?limit=5"));
    Http.Response noEntry = Http.get(b.url("/api/pools/jobs/dead/never-seen"));
    dev.shepherd.core.Outcome awaited = ClusteredWebNode.join(viaClient, 30);

    assertThat(view.status()).as(view.body()).isEqualTo(200);
    assertThat(view.json().getString("state")).isIn("QUEUED", "RUNNING");
    assertThat(done.status()).as(done.body()).isEqualTo(200);
    assertThat(done.json().getString("type")).isEqualTo("completed");
    assertThat(done.json().getJsonObject("result").getString("echo")).isEqualTo("later");
    assertThat(never.status()).isEqualTo(404);
    assertThat(never.json().getString("error")).isEqualTo("UNKNOWN_JOB");
    assertThat(dead.status()).as(dead.body()).isEqualTo(200);
    assertThat(dead.json().getString("pool")).isEqualTo("jobs");
    assertThat(dead.json().getInteger("limit")).isEqualTo(5);
    assertThat(noEntry.status()).isEqualTo(404);
    assertThat(noEntry.json().getString("error")).isEqualTo("UNKNOWN_JOB");
    assertThat(awaited).isInstanceOf(dev.shepherd.core.Outcome.Completed.class);
    assertThat(awaited.job()).isEqualTo("later-b");
  }

  private static io.vertx.core.Handler<io.vertx.core.eventbus.DeliveryContext<Object>> record(
      Set<String> addresses) {
    return context -> {
      addresses.add(context.message().address());
      context.next();
    };
  }

  @Test
  void the_bridge_of_any_node_permits_a_pool_that_appeared_after_it_started() {
    String late = deployOnA("late");
    try (Sockets bridge = Sockets.connect(b.port(), "/eventbus/websocket")) {
      eventually().until(() -> Http.get(b.url("/api/pools/late")).status() == 200);
      eventually().until(() -> {
        bridge.send(new JsonObject().put("type", "send").put("address", "shepherd.late.status")
            .put("body", new JsonObject()).put("replyAddress", "late-status"));
        return bridge.any(f -> "late-status".equals(f.getString("address"))
            && "rec".equals(f.getString("type")));
      });
      bridge.send(new JsonObject().put("type", "register").put("address",
          "shepherd.late.events"));
      eventually().until(() -> bridge.any(f -> "shepherd.late.events".equals(
          f.getString("address")) && "stats".equals(f.getJsonObject("body").getString("type"))));
      assertThat(bridge.first(f -> "late-status".equals(f.getString("address")))
          .getJsonObject("body").getString("name")).isEqualTo("late");
    } finally {
      ClusteredWebNode.join(a.vertx().undeploy(late), 30);
    }
  }

  @Test
  void a_pool_that_stops_disappears_from_the_other_node() {
    String temp = deployOnA("temp");
    eventually().until(() -> names(Http.get(b.url("/api/pools"))).contains("temp"));

    ClusteredWebNode.join(a.vertx().undeploy(temp), 30);

    eventually().until(() -> Http.get(b.url("/api/pools/temp")).status() == 404);
    assertThat(Http.get(b.url("/api/pools/temp")).json().getString("error"))
        .isEqualTo("UNKNOWN_POOL");
    assertThat(names(Http.get(b.url("/api/pools")))).doesNotContain("temp")
        .contains("jobs", "images");
  }

  @Test
  void a_retired_slot_of_a_remote_pool_is_revived_through_the_other_node_and_counted_there() {
    String fragile = deployOnA("fragile", WebTestApp.demoPool("fragile", 1)
        .put("supervision", new JsonObject().put("maxRestarts", 0)));
    try {
      eventually().until(() -> Http.get(b.url("/api/pools/fragile")).status() == 200);
      // B follows the pool's events from its first scrape on.
      eventually().until(() -> !Double.isNaN(Prometheus.value(Http.get(b.url("/metrics")).body(),
          "shepherd_revives_total", "pool", "fragile", "coordinator", "remote",
          "by", "operator")));
      Http.post(b.url("/api/pools/fragile/jobs"), "{\"payload\":{\"crash\":true}}");
      eventually().until(() -> Http.get(b.url("/api/pools/fragile")).body()
          .contains("\"REPLACEMENT_UNAVAILABLE\""));

      Http.Response revived = Http.post(b.url("/api/pools/fragile/slots/w-0/restart"), "");
      Http.Response again = Http.post(b.url("/api/pools/fragile/slots/w-0/restart"), "");

      assertThat(revived.status()).as(revived.body()).isEqualTo(200);
      assertThat(revived.json()).isEqualTo(new JsonObject().put("worker", "w-0")
          .put("incarnation", 2));
      assertThat(again.status()).isEqualTo(409);
      assertThat(again.json().getString("error")).isEqualTo("REVIVE_REFUSED");
      eventually().until(() -> Prometheus.value(Http.get(b.url("/metrics")).body(),
          "shepherd_revives_total", "pool", "fragile", "coordinator", "remote",
          "by", "operator") == 1);
      eventually().until(() -> Http.get(b.url("/api/pools/fragile")).body()
          .contains("\"IDLE\""));
      Http.post(b.url("/api/pools/fragile/jobs"), "{\"payload\":{\"crash\":true}}");
      eventually().until(() -> Http.get(b.url("/api/pools/fragile")).body()
          .contains("\"REPLACEMENT_UNAVAILABLE\""));
      Integer viaClient = ClusteredWebNode.join(PoolClient.create(b.vertx(), "fragile")
          .revive("w-0"), 30);
      assertThat(viaClient).isEqualTo(3);
    } finally {
      ClusteredWebNode.join(a.vertx().undeploy(fragile), 30);
    }
  }

  /** Deploys a one-slot pool on A beside the application; its deployment id. */
  private String deployOnA(String name) {
    return deployOnA(name, WebTestApp.demoPool(name, 1));
  }

  /** Deploys the pool {@code config} on A beside the application; its deployment id. */
  private String deployOnA(String name, JsonObject config) {
    Vertx vertx = a.vertx();
    return ClusteredWebNode.join(vertx.deployVerticle(new PoolVerticle(),
        new DeploymentOptions().setConfig(config.put("name", name))), 30);
  }
}
