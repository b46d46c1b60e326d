package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.shepherd.LogCapture;
import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.PoolVerticle;
import dev.shepherd.runtime.WorkerContext;
import dev.shepherd.runtime.access.LocalPools;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A clean stop of the node that leads a highly available pool (A2: it gives the pool up to a
 * standby, without draining it) logs no ERROR and no stack trace, also while one of its WORKER
 * incarnations is busy in a job: the pool undeploys its own incarnations, once, and waits for
 * them before Vert.x undeploys what is left and shuts its worker threads down. In one JVM (a
 * clustered Vert.x that is its own majority), and once through the launcher and SIGTERM.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HaLeaderStopTest {
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();

  @Test
  void A2_closing_the_vertx_of_a_leader_busy_in_a_job_undeploys_its_incarnations_first_and_logs_no_error() {
    String name = "ha-close";
    Vertx vertx = ClusteredVertx.start(ClusterPorts.uniqueName(name), ClusterPorts.freeBase(), 1);
    Set<String> left = ConcurrentHashMap.newKeySet();
    String observer = join(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> stop() {
        left.addAll(vertx.deploymentIDs());
        return Future.succeededFuture();
      }
    }));
    String pool = lead(vertx, name);
    PoolClient client = PoolClient.create(vertx, name);
    client.submit(PoolFixture.sleep(1_500));
    PoolFixture.awaitStatus(vertx, name, HaLeaderStopTest::busy);
    Set<String> incarnations = new HashSet<>(vertx.deploymentIDs());
    incarnations.removeAll(List.of(observer, pool));
    assertThat(incarnations).hasSize(2);

    List<String> alarms = whileWatching(() -> join(vertx.close()));

    assertThat(left).as("deployed when Vert.x undeploys what is left").isNotEmpty()
        .doesNotContainAnyElementsOf(incarnations);
    assertThat(alarms).isEmpty();
  }

  @Test
  void A2_closing_a_leader_whose_incarnations_are_still_starting_warns_of_nothing() {
    String name = "ha-starting";
    Vertx vertx = ClusteredVertx.start(ClusterPorts.uniqueName(name), ClusterPorts.freeBase(), 1);
    JsonObject config = PoolFixture.demoPool(name, 2)
        .put("ha", new JsonObject().put("enabled", true));
    config.getJsonObject("worker").remove("class");
    join(vertx.deployVerticle(new PoolVerticle(() -> new JobHandler() {
      @Override
      public Future<Void> start(WorkerContext context) {
        Promise<Void> started = Promise.promise();
        context.vertx().setTimer(1_000, id -> started.tryComplete());
        return started.future();
      }

      @Override
      public Future<?> handle(Job job) {
        return Future.succeededFuture();
      }
    }), new DeploymentOptions().setConfig(config)));
    // As soon as it leads: its incarnations are about to deploy, or deploying (1 s each).
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1))
        .until(() -> LocalPools.find(vertx, name) != null);

    List<String> alarms = whileWatching(() -> join(vertx.close()));

    assertThat(alarms).isEmpty();
  }

  @Test
  void A2_undeploying_the_pool_verticle_of_a_leader_and_then_closing_logs_no_error() {
    String name = "ha-undeploy";
    Vertx vertx = ClusteredVertx.start(ClusterPorts.uniqueName(name), ClusterPorts.freeBase(), 1);
    String deployment = lead(vertx, name);

    List<String> alarms = whileWatching(() -> {
      join(vertx.undeploy(deployment));
      assertThat(LocalPools.find(vertx, name)).isNull();
      join(vertx.close());
    });

    assertThat(alarms).isEmpty();
  }

  @Test
  void A2_sigterm_to_the_node_that_leads_exits_0_printing_no_error_and_no_stack_trace()
      throws Exception {
    Map<String, String> env = new HashMap<>(cluster.clusterEnv());
    env.put(ClusterSettings.MAJORITY, "1");
    int port = ClusterPorts.freeHttpPort();
    JsonObject pool = HaNodes.pool(2);
    pool.getJsonObject("worker").put("class", "dev.shepherd.demo.DemoWorker")
        .put("threading", "WORKER").put("maxConcurrency", 1);
    ClusterNode node = cluster.start("leader", new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", port))
        .put("pools", new JsonArray().add(pool)), env, List.of());
    node.awaitLine("this node leads term", Duration.ofSeconds(120));
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    String base = "http://127.0.0.1:" + port + "/api/pools/" + HaNodes.POOL;
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .ignoreExceptions().until(() -> status(http, base).getJsonArray("slots").stream()
            .allMatch(slot -> "IDLE".equals(((JsonObject) slot).getString("phase"))));
    http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/jobs"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"payload\": {\"sleepMs\": 2000}}")).build(),
        HttpResponse.BodyHandlers.ofString());
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .ignoreExceptions().until(() -> busy(status(http, base)));

    node.terminate();
    int status = node.waitFor(Duration.ofSeconds(60));

    assertThat(status).as(node.output()).isZero();
    assertThat(node.output().lines()
        .filter(line -> line.contains(" ERROR ") || line.contains("Exception")
            || line.startsWith("\tat ") || line.contains("failed to deploy"))
        .toList()).as(node.output()).isEmpty();
  }

  /** Deploys the HA pool {@code name} (two WORKER slots) on {@code vertx}; once it led a job. */
  private static String lead(Vertx vertx, String name) {
    JsonObject config = PoolFixture.demoPool(name, 2)
        .put("ha", new JsonObject().put("enabled", true));
    String deployment = PoolFixture.deploy(vertx, config);
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
        .until(() -> LocalPools.find(vertx, name) != null);
    PoolClient client = PoolClient.create(vertx, name);
    assertThat(join(client.submit(PoolFixture.echo("led")))).isNotNull();
    join(client.close());
    return deployment;
  }

  /**
   * What {@code action} made this JVM log at ERROR, or Shepherd log at WARN, or log with a stack
   * trace, and the exceptions that ended a thread meanwhile (Vert.x's worker threads have no
   * handler of their own).
   */
  private static List<String> whileWatching(Runnable action) {
    List<String> died = new CopyOnWriteArrayList<>();
    Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((thread, e) ->
        died.add("uncaught in " + thread.getName() + ": " + e));
    try (LogCapture log = LogCapture.start()) {
      action.run();
      List<String> alarms = new java.util.ArrayList<>(log.events().stream()
          .filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR)
              || (e.getLevel().isGreaterOrEqual(Level.WARN)
                  && e.getLoggerName().startsWith("dev.shepherd"))
              || e.getThrowableProxy() != null)
          .map(HaLeaderStopTest::describe)
          .toList());
      alarms.addAll(died);
      return alarms;
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(previous);
    }
  }

  private static String describe(ILoggingEvent event) {
    return event.getLevel() + " " + event.getLoggerName() + " - " + event.getFormattedMessage()
        + (event.getThrowableProxy() == null ? ""
            : " / " + event.getThrowableProxy().getClassName() + ": "
                + event.getThrowableProxy().getMessage());
  }

  /** Whether a slot of the pool is running a job. */
  private static boolean busy(JsonObject status) {
    return PoolFixture.slots(status).stream()
        .anyMatch(slot -> !((JsonObject) slot).getJsonArray("assignments").isEmpty());
  }

  private static JsonObject status(HttpClient http, String url) throws Exception {
    return new JsonObject(http.send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString()).body());
  }
}
