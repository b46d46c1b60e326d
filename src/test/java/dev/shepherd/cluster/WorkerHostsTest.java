package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.phase;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.hosts.HostAgent;
import dev.shepherd.cluster.hosts.HostConfig;
import dev.shepherd.core.ConfigException;
import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.demo.DemoWorker;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.testworkers.ConcurrencyWorker;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A pool's coordinator and real worker hosts ({@link HostAgent}) on one clustered Vert.x: the
 * pool takes a host's slots with no configuration (H2), holds each remote slot to its capacity
 * (H3), supervises remote incarnations with its own policy, budget and job timeouts (H4), and
 * lets a host leave. Each test has a pool of its own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerHostsTest {
  private static final AtomicInteger POOLS = new AtomicInteger();
  private static String clusterName;
  private static int basePort;
  private static Vertx vertx;
  private final List<ConfigException> refusals = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void cluster() {
    clusterName = ClusterPorts.uniqueName("hosts");
    basePort = ClusterPorts.freeBase();
    vertx = ClusteredVertx.start(clusterName, basePort);
  }

  @AfterAll
  static void close() {
    ClusteredVertx.close(vertx);
  }

  /** A pool with no slot of its own (H2): FAIL interruption, so outcomes show what happened. */
  private static JsonObject hostsOnlyPool() {
    JsonObject pool = PoolFixture.demoPool("hp" + POOLS.incrementAndGet(), 0);
    PoolFixture.deploy(vertx, pool);
    return pool;
  }

  private HostAgent host(JsonObject pool, String id, String worker, int instances,
      int maxConcurrency, String threading) {
    JsonObject json = new JsonObject().put("pool", pool.getString("name")).put("id", id)
        .put("heartbeatMs", 200)
        .put("worker", new JsonObject().put("class", worker).put("instances", instances)
            .put("maxConcurrency", maxConcurrency).put("threading", threading));
    HostAgent agent =
        new HostAgent(HostConfig.parse(json, "hosts[0]", "unused"), refusals::add);
    join(vertx.deployVerticle(agent));
    return agent;
  }

  /** A host of {@code instances} DemoWorker slots whose slots are IDLE in the pool. */
  private HostAgent readyHost(JsonObject pool, String id, int instances) {
    HostAgent agent = host(pool, id, DemoWorker.class.getName(), instances, 1, "WORKER");
    awaitStatus(vertx, name(pool), s -> idleSlots(s, id) == instances);
    return agent;
  }

  private static long idleSlots(JsonObject status, String host) {
    return status.getJsonArray("slots").stream().map(JsonObject.class::cast)
        .filter(s -> host.equals(s.getString("host")) && "IDLE".equals(s.getString("phase")))
        .count();
  }

  private static String name(JsonObject pool) {
    return pool.getString("name");
  }

  private static Outcome run(JsonObject pool, JobRequest request) {
    return join(PoolClient.create(vertx, name(pool)).outcome(request));
  }

  @Test
  void H2_a_pool_of_hosts_alone_queues_work_until_a_host_registers_then_runs_it_there() {
    JsonObject pool = hostsOnlyPool();
    Future<Outcome> waiting =
        PoolClient.create(vertx, name(pool)).outcome(JobRequest.of(echo("early")));
    awaitStatus(vertx, name(pool), s -> s.getJsonObject("backlog").getInteger("length") == 1);
    assertThat(waiting.isComplete()).isFalse();

    host(pool, "h1", DemoWorker.class.getName(), 2, 1, "EVENT_LOOP");

    Outcome outcome = join(waiting);
    assertThat(outcome).isInstanceOfSatisfying(Outcome.Completed.class, c -> {
      assertThat(c.worker()).isIn("h1/w-0", "h1/w-1");
      assertThat(((JsonObject) c.result()).getString("echo")).isEqualTo("early");
    });
    JsonObject status = status(vertx, name(pool));
    JsonObject host = status.getJsonArray("hosts").getJsonObject(0);
    assertThat(host.getString("id")).isEqualTo("h1");
    assertThat(host.getString("state")).isEqualTo("UP");
    assertThat(host.getString("node")).isEqualTo(ClusteredVertx.nodeId(vertx));
    assertThat(host.getJsonArray("slots")).isEqualTo(new JsonArray(List.of("h1/w-0", "h1/w-1")));
    assertThat(slot(status, "h1/w-1").getString("host")).isEqualTo("h1");
    assertThat(refusals).isEmpty();
  }

  @Test
  void T3_a_job_on_a_hosts_slot_has_its_run_time_measured_on_the_host_for_the_pools_observers() {
    JsonObject pool = hostsOnlyPool();
    readyHost(pool, "h1", 1);
    List<String> ran = new CopyOnWriteArrayList<>();
    List<Long> nanos = new CopyOnWriteArrayList<>();
    assertThat(LocalPools.handle(vertx, name(pool)).observe(new PoolObserver() {
      @Override
      public void onRun(String worker, long runNanos) {
        ran.add(worker);
        nanos.add(runNanos);
      }
    })).isTrue();

    for (int i = 0; i < 3; i++) {
      assertThat(run(pool, JobRequest.of(sleep(30)).withJob("slept-" + i)))
          .isInstanceOf(Outcome.Completed.class);
    }

    await().atMost(10, TimeUnit.SECONDS).until(() -> ran.size() == 3);
    assertThat(ran).containsOnly("h1/w-0");
    assertThat(nanos).as("each job slept 30 ms on the host")
        .allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(30_000_000L));
  }

  @Test
  void J1_a_job_that_throws_on_a_host_fails_with_its_type_and_the_remote_slot_serves_on() {
    JsonObject pool = hostsOnlyPool();
    readyHost(pool, "h1", 1);

    Outcome thrown = run(pool, JobRequest.of(new JsonObject().put("throw", "remote kaput"))
        .withJob("t"));
    Outcome next = run(pool, JobRequest.of(echo("after")).withJob("next"));

    assertThat(thrown).isEqualTo(new Outcome.Failed("t",
        new JobError(500, "remote kaput", "java.lang.RuntimeException"), "h1/w-0", 1));
    assertThat(next).isInstanceOfSatisfying(Outcome.Completed.class, c ->
        assertThat(((JsonObject) c.result()).getInteger("incarnation")).isEqualTo(1));
    JsonObject status = status(vertx, name(pool));
    assertThat(status.getJsonObject("counters").getLong("restarts")).isZero();
    assertThat(slot(status, "h1/w-0").getInteger("incarnation")).isEqualTo(1);
  }

  @Test
  void H3_a_remote_slot_never_runs_more_assignments_than_its_capacity() {
    JsonObject pool = hostsOnlyPool();
    host(pool, "h1", ConcurrencyWorker.class.getName(), 1, 2, "EVENT_LOOP");
    awaitStatus(vertx, name(pool), s -> idleSlots(s, "h1") == 1);

    List<Future<Outcome>> outcomes = new ArrayList<>();
    PoolClient client = PoolClient.create(vertx, name(pool));
    for (int i = 0; i < 20; i++) {
      outcomes.add(client.outcome(JobRequest.of(sleep(30))));
    }

    List<Integer> seen = new ArrayList<>();
    for (Future<Outcome> outcome : outcomes) {
      Outcome o = join(outcome);
      assertThat(o).isInstanceOf(Outcome.Completed.class);
      seen.add(((JsonObject) ((Outcome.Completed) o).result()).getInteger("concurrent"));
    }
    assertThat(seen).allSatisfy(n -> assertThat(n).isBetween(1, 2)).contains(2);
  }

  @Test
  void H4_a_crash_on_a_host_is_restarted_by_the_pool_and_counted_in_its_budget() {
    JsonObject pool = hostsOnlyPool();
    readyHost(pool, "h1", 1);

    Outcome crashed = run(pool, JobRequest.of(crash()));

    assertThat(crashed).isInstanceOfSatisfying(Outcome.Interrupted.class, i -> assertThat(
        ((Interruption.WorkerStopped) i.reason()).exit()).isEqualTo(Exit.CRASH));
    JsonObject status = awaitStatus(vertx, name(pool), PoolFixture.idleAt("h1/w-0", 2));
    assertThat(slot(status, "h1/w-0").getInteger("restarts")).isEqualTo(1);
    assertThat(status.getJsonObject("budget").getInteger("restartsInWindow")).isEqualTo(1);
    assertThat(run(pool, JobRequest.of(echo("after")))).isInstanceOfSatisfying(
        Outcome.Completed.class, c -> assertThat(((JsonObject) c.result()).getInteger(
            "incarnation")).isEqualTo(2));
  }

  @Test
  void H4_budget_exhaustion_retires_the_remote_slot() {
    JsonObject config = PoolFixture.demoPool("hp" + POOLS.incrementAndGet(), 0);
    PoolFixture.supervision(config).put("maxRestarts", 1);
    PoolFixture.deploy(vertx, config);
    readyHost(config, "h1", 1);

    run(config, JobRequest.of(crash()));
    awaitStatus(vertx, name(config), PoolFixture.idleAt("h1/w-0", 2));
    run(config, JobRequest.of(crash()));

    JsonObject status = awaitStatus(vertx, name(config), PoolFixture.phaseIs("h1/w-0", "RETIRED"));
    assertThat(slot(status, "h1/w-0").getString("retirement"))
        .isEqualTo("REPLACEMENT_UNAVAILABLE");
    assertThat(status.getJsonObject("counters").getLong("budgetRefusals")).isEqualTo(1);
  }

  @Test
  void H4_P14_a_job_that_runs_past_its_timeout_on_a_host_is_stopped_by_the_pool() {
    JsonObject pool = hostsOnlyPool();
    readyHost(pool, "h1", 1);

    Outcome timedOut = run(pool, JobRequest.of(PoolFixture.hang()).withTimeoutMs(300));

    assertThat(timedOut).isInstanceOfSatisfying(Outcome.Interrupted.class, i -> assertThat(
        ((Interruption.WorkerStopped) i.reason()).exit()).isEqualTo(Exit.TIMEOUT));
    awaitStatus(vertx, name(pool), PoolFixture.idleAt("h1/w-0", 2));
    assertThat(run(pool, JobRequest.of(echo("next")))).isInstanceOf(Outcome.Completed.class);
  }

  @Test
  void P17_cancelling_a_job_running_on_a_host_ends_it_there_and_frees_the_slot() {
    JsonObject pool = hostsOnlyPool();
    readyHost(pool, "h1", 1);
    PoolClient client = PoolClient.create(vertx, name(pool));
    Future<Outcome> running = client.outcome(JobRequest.of(sleep(60_000)).withJob("long"));
    awaitStatus(vertx, name(pool), PoolFixture.running("h1/w-0", "long"));

    assertThat(join(client.cancel("long"))).isTrue();

    assertThat(join(running)).isEqualTo(new Outcome.Cancelled("long"));
    awaitStatus(vertx, name(pool), PoolFixture.idleAt("h1/w-0", 1));
    assertThat(run(pool, JobRequest.of(echo("next")))).isInstanceOf(Outcome.Completed.class);
  }

  @Test
  void H8_a_host_that_leaves_takes_its_slots_and_the_pool_queues_again_until_one_comes() {
    JsonObject pool = hostsOnlyPool();
    HostAgent agent = readyHost(pool, "h1", 2);

    join(vertx.undeploy(agent.deploymentID()));

    JsonObject status = awaitStatus(vertx, name(pool), s -> s.getJsonArray("hosts").isEmpty());
    assertThat(status.getJsonArray("slots")).isEmpty();
    Future<Outcome> queued =
        PoolClient.create(vertx, name(pool)).outcome(JobRequest.of(echo("later")));
    awaitStatus(vertx, name(pool), s -> s.getJsonObject("backlog").getInteger("length") == 1);

    readyHost(pool, "h1", 2);
    assertThat(join(queued)).isInstanceOf(Outcome.Completed.class);
  }

  @Test
  void a_pool_on_a_vertx_that_is_not_clustered_takes_no_hosts_and_keeps_protocol_v1() {
    Vertx local = Vertx.vertx();
    try {
      PoolFixture.deployReady(local, PoolFixture.demoPool("alone", 1));
      io.vertx.core.eventbus.ReplyException noHosts = PoolFixture.refused(local,
          "shepherd.alone.register", new JsonObject());
      assertThat(noHosts.failureType())
          .isEqualTo(io.vertx.core.eventbus.ReplyFailure.NO_HANDLERS);
      io.vertx.core.eventbus.ReplyException batch = PoolFixture.refused(local,
          "shepherd.alone.completed", new JsonObject().put("host", "h1")
              .put("items", new JsonArray()));
      assertThat(batch.failureCode()).isEqualTo(400);
    } finally {
      join(local.close());
    }
  }

  @Test
  void H1_a_second_live_host_with_the_same_id_on_another_node_is_refused_naming_its_id() {
    JsonObject pool = hostsOnlyPool();
    readyHost(pool, "h1", 1);
    Vertx second = ClusteredVertx.start(clusterName, basePort);
    try {
      HostConfig twin = HostConfig.parse(new JsonObject().put("pool", name(pool)).put("id", "h1")
          .put("worker", new JsonObject().put("class", DemoWorker.class.getName())
              .put("instances", 1)), "hosts[0]", "unused");
      join(second.deployVerticle(new HostAgent(twin, refusals::add)));

      await().atMost(PoolFixture.STEP).until(() -> !refusals.isEmpty());
      assertThat(refusals.get(0).getMessage()).startsWith("hosts[0].id: ")
          .contains("DUPLICATE_HOST");
      JsonObject status = status(vertx, name(pool));
      assertThat(status.getJsonArray("hosts").getJsonObject(0).getString("node"))
          .isEqualTo(ClusteredVertx.nodeId(vertx));
      assertThat(phase(status, "h1/w-0")).isEqualTo("IDLE");
    } finally {
      ClusteredVertx.close(second);
    }
  }
}
