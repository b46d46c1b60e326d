package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.app.OtlpTraceReceiver.Span;
import dev.shepherd.cluster.ClusterPorts;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * T1 (docs/rules.md) through the application jar across processes of one cluster, each sending
 * its spans to the same OTLP/HTTP receiver under a service name of its own: two coordinators of
 * a highly available pool with no slots of their own, and a worker host that runs its slot. A
 * job submitted over HTTP with a W3C {@code traceparent} has its attempt span sent by the host,
 * below the leader's server span, below the caller's; and when the leader is killed ({@code kill
 * -9}) while the job runs, its retry's attempt span is under that same server span, the new
 * leader's {@code queued} span too, starting at the original admission. The three processes serve
 * both tests (in order: the second kills the leader); the cluster has a name and ports of its own,
 * on loopback.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TracesClusterJarIT {
  private static final String POOL = "far";
  private static final String TRACE = "5bf92f3577b34da6a3ce929d0e0e4737";
  private static final String CALLER = "10f067aa0ba902b8";
  private static final String MOVED_TRACE = "1af7651916cd43dd8448eb211c80319d";
  private static final String MOVED_CALLER = "c7ad6b7169203332";
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String HOST_SERVICE = "shepherd-it-host";

  private static OtlpTraceReceiver receiver;
  private static JarNode first;
  private static JarNode second;
  private static JarNode host;

  @BeforeAll
  static void launch() throws Exception {
    receiver = new OtlpTraceReceiver();
    Map<String, String> cluster = Map.of(
        "SHEPHERD_CLUSTER_NAME", ClusterPorts.uniqueName("traces-it"),
        "SHEPHERD_CLUSTER_HOST", "127.0.0.1",
        "SHEPHERD_CLUSTER_MEMBERS", "127.0.0.1",
        "SHEPHERD_CLUSTER_PORT", String.valueOf(ClusterPorts.freeBase()));
    JsonObject coordinator = new JsonObject().put("pools", List.of(new JsonObject()
        .put("name", POOL).put("ha", new JsonObject().put("enabled", true))
        .put("worker", new JsonObject().put("class", "dev.shepherd.demo.DemoWorker")
            .put("instances", 0))
        .put("interruption", "RETRY").put("maxAttempts", 3)));
    JsonObject hosts = new JsonObject().put("hosts", List.of(new JsonObject()
        .put("pool", POOL).put("id", "h1").put("heartbeatMs", 200)
        // Two jobs at once: the retry need not wait for the first attempt, which the host
        // still runs after the leader that assigned it died.
        .put("worker", new JsonObject().put("class", "dev.shepherd.demo.DemoWorker")
            .put("instances", 1).put("maxConcurrency", 2).put("threading", "WORKER"))));
    List<String> clustered = List.of("-cluster");
    first = JarNode.start("coordinator-1", coordinator, ClusterPorts.freeHttpPort(), clustered,
        env(cluster, "shepherd-it-coordinator-1"));
    second = JarNode.start("coordinator-2", coordinator, ClusterPorts.freeHttpPort(), clustered,
        env(cluster, "shepherd-it-coordinator-2"));
    host = JarNode.start("host", hosts, 0, clustered, env(cluster, HOST_SERVICE));
    first.awaitReady(WAIT);
    second.awaitReady(WAIT);
    await("host h1's slot idle (see " + host.dir + ")").atMost(WAIT)
        .pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .until(() -> new JsonObject(first.get("/api/pools/" + POOL).body())
            .getJsonArray("slots").stream().map(JsonObject.class::cast)
            .anyMatch(slot -> "h1".equals(slot.getString("host"))
                && "IDLE".equals(slot.getString("phase"))));
  }

  private static Map<String, String> env(Map<String, String> cluster, String service) {
    Map<String, String> env = new HashMap<>(cluster);
    env.putAll(JarNode.tracingTo(receiver.port(), service));
    return env;
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      for (JarNode node : new JarNode[] {host, second, first}) {
        if (node != null) {
          node.close();
        }
      }
    } finally {
      if (receiver != null) {
        receiver.close();
      }
    }
  }

  /**
   * The live coordinator that leads the pool: the pool's status (from a live coordinator) names
   * the term, and the leader's log says it serves that term and has not stepped down from it.
   */
  private static JarNode leader() {
    return await("the pool's leader").atMost(WAIT).pollInterval(Duration.ofMillis(100))
        .ignoreExceptions().until(() -> {
          JarNode asked = first.process.isAlive() ? first : second;
          long term = new JsonObject(asked.get("/api/pools/" + POOL).body())
              .getJsonObject("ha").getLong("term");
          for (JarNode node : List.of(first, second)) {
            String log = node.process.isAlive() ? node.stdout() : "";
            if (log.contains("pool " + POOL + ": term " + term + " serves")
                && !log.contains("steps down from term " + term)) {
              return node;
            }
          }
          return null;
        }, node -> node != null);
  }

  private static String service(JarNode coordinator) {
    return coordinator == first ? "shepherd-it-coordinator-1" : "shepherd-it-coordinator-2";
  }

  @Test
  @Order(1)
  void T1_a_job_run_on_a_worker_host_has_its_attempt_span_from_the_host_below_the_callers()
      throws Exception {
    JarNode leader = leader();
    HttpResponse<String> admitted = leader.submit(POOL, "hosted", new JsonObject(), TRACE,
        CALLER);
    assertThat(admitted.statusCode()).as(admitted.body()).isEqualTo(200);

    Span attempt = receiver.await("attempt", "hosted", 1, WAIT, host.dir).get(0);
    Span queued = receiver.await("queued", "hosted", 1, WAIT, leader.dir).get(0);
    Span server = receiver.awaitById(attempt.parentSpanId(), WAIT);

    assertThat(attempt.service()).as("sent by the host's process").isEqualTo(HOST_SERVICE);
    assertThat(attempt.traceId()).isEqualTo(TRACE);
    assertThat(attempt.attribute("shepherd.slot")).isEqualTo("h1/w-0");
    assertThat(attempt.attribute("shepherd.outcome")).isEqualTo("completed");
    assertThat(server.service()).isEqualTo(service(leader));
    assertThat(server.parentSpanId()).as("the server span is the caller's child")
        .isEqualTo(CALLER);
    assertThat(queued.service()).isEqualTo(service(leader));
    assertThat(queued.parentSpanId()).isEqualTo(server.spanId());
  }

  @Test
  @Order(2)
  void T1_after_the_leader_is_killed_the_retry_on_the_host_is_under_the_callers_span_still()
      throws Exception {
    JarNode leader = leader();
    JarNode standby = leader == first ? second : first;
    HttpResponse<String> admitted = leader.submit(POOL, "moved",
        new JsonObject().put("sleepMs", 3_000), MOVED_TRACE, MOVED_CALLER);
    assertThat(admitted.statusCode()).as(admitted.body()).isEqualTo(200);
    await("job moved running").atMost(WAIT).pollInterval(Duration.ofMillis(50))
        .ignoreExceptions().until(() -> "RUNNING".equals(new JsonObject(
            leader.get("/api/pools/" + POOL + "/jobs/moved").body()).getString("state")));
    // Its first dispatch ended its queued span: the leader's spans are out before it dies.
    Span firstQueued = receiver.await("queued", "moved", 1, WAIT, leader.dir).get(0);
    Span server = receiver.awaitById(firstQueued.parentSpanId(), WAIT);

    leader.kill();

    assertThat(leader()).isSameAs(standby);
    Span retry = await("the retry's attempt span (see " + host.dir + ")").atMost(WAIT)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> receiver.spans().stream().filter(s -> "attempt".equals(s.name())
                && "moved".equals(s.attribute("shepherd.job"))
                && "2".equals(s.attribute("shepherd.attempt"))).findFirst().orElse(null),
            s -> s != null);
    assertThat(retry.service()).as("sent by the host's process").isEqualTo(HOST_SERVICE);
    assertThat(retry.traceId()).isEqualTo(MOVED_TRACE);
    assertThat(retry.parentSpanId()).as("under the killed leader's server span")
        .isEqualTo(server.spanId());
    assertThat(retry.attribute("shepherd.outcome")).isEqualTo("completed");
    assertThat(server.parentSpanId()).isEqualTo(MOVED_CALLER);

    Span recovered = receiver.await("queued", "moved", 2, WAIT, standby.dir).stream()
        .filter(s -> service(standby).equals(s.service())).findFirst().orElseThrow();
    assertThat(recovered.parentSpanId()).isEqualTo(server.spanId());
    assertThat(recovered.startNanos()).as("starts at the admission, before the first dispatch")
        .isLessThanOrEqualTo(firstQueued.startNanos());
  }
}
