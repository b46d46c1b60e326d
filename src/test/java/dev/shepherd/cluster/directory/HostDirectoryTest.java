package dev.shepherd.cluster.directory;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.phase;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.ClusterPorts;
import dev.shepherd.cluster.ClusteredVertx;
import dev.shepherd.cluster.FakeHost;
import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.cluster.hosts.HostMessages;
import dev.shepherd.cluster.hosts.HostReport;
import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A pool's coordinator against hosts whose every message the test writes ({@link FakeHost}), on
 * one clustered Vert.x: leases and loss (H5), return and stale late reports (H7), duplicate ids
 * and nodes that left (H1), commands batched per host and turn, and job timeouts (H4, P14).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostDirectoryTest {
  private static final AtomicInteger POOLS = new AtomicInteger();
  private static Vertx vertx;
  private static String node;

  @BeforeAll
  static void cluster() {
    vertx = ClusteredVertx.start(ClusterPorts.uniqueName("directory"), ClusterPorts.freeBase());
    node = ClusteredVertx.nodeId(vertx);
  }

  @AfterAll
  static void close() {
    ClusteredVertx.close(vertx);
  }

  private static ConditionFactory eventually() {
    return await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10));
  }

  /** A pool of hosts alone, FAIL interruption, the given lease; returns its name. */
  private static String pool(long heartbeatTimeoutMs) {
    // The seed's supervisor: a replacement is deployed in the same message as the stop (H4).
    JsonObject config = PoolFixture.seedRules(PoolFixture.demoPool("dp" + POOLS.incrementAndGet(),
        0)).put("heartbeatTimeoutMs", heartbeatTimeoutMs).put("term", 3);
    PoolFixture.deploy(vertx, config);
    return config.getString("name");
  }

  private static FakeHost fake(String pool, String id, String node) {
    return new FakeHost(vertx, "shepherd." + pool, id, node);
  }

  /** Registers, waits for the deploy of incarnation 1 of each slot, reports them created. */
  private static void up(FakeHost host, String pool, int slots, int maxConcurrency) {
    host.register(slots, maxConcurrency);
    eventually().until(() -> host.commands(HostCommand.Deploy.class).size() >= slots);
    for (int i = 0; i < slots; i++) {
      host.report(new HostReport.Created(host.id + "/w-" + i, 1));
    }
    awaitStatus(vertx, pool, PoolFixture.idleAt(host.id + "/w-0", 1));
  }

  private static Future<Outcome> submit(String pool, JsonObject payload) {
    return PoolClient.create(vertx, pool).outcome(JobRequest.of(payload));
  }

  private static HostCommand.Assign awaitAssign(FakeHost host, int index) {
    eventually().until(() -> host.commands(HostCommand.Assign.class).size() > index);
    return host.commands(HostCommand.Assign.class).get(index);
  }

  private static String hostState(JsonObject status, String host) {
    return status.getJsonArray("hosts").stream().map(JsonObject.class::cast)
        .filter(h -> host.equals(h.getString("id"))).findFirst()
        .map(h -> h.getString("state")).orElse(null);
  }

  @Nested
  class Registration {

    @Test
    void H1_the_answer_carries_the_pools_term_and_lease_and_so_do_its_commands() {
      String pool = pool(60_000);
      FakeHost host = fake(pool, "h1", node);

      HostMessages.Registered answer = host.register(1, 1);

      assertThat(answer).isEqualTo(new HostMessages.Registered("h1", 3, 60_000));
      eventually().until(() -> !host.received.isEmpty());
      assertThat(host.received.get(0)).isEqualTo(
          new HostCommand.Batch(3, List.of(new HostCommand.Deploy("h1/w-0", 1))));
    }

    @Test
    void H1_a_registration_repeated_from_the_same_node_changes_nothing() {
      String pool = pool(60_000);
      FakeHost host = fake(pool, "h1", node);
      up(host, pool, 1, 1);

      assertThat(host.register(1, 1).host()).isEqualTo("h1");

      JsonObject status = status(vertx, pool);
      assertThat(slot(status, "h1/w-0").getInteger("incarnation")).isEqualTo(1);
      assertThat(phase(status, "h1/w-0")).isEqualTo("IDLE");
      assertThat(host.commands(HostCommand.Deploy.class)).hasSize(1);
    }

    @Test
    void H1_the_same_id_from_another_node_while_the_first_is_a_live_member_is_refused() {
      String pool = pool(60_000);
      FakeHost first = fake(pool, "h1", node);
      up(first, pool, 1, 1);
      JsonObject before = status(vertx, pool);

      ReplyException refused = fake(pool, "h1", "node-b").refusedRegistration(1, 1);

      assertThat(refused.failureCode()).isEqualTo(409);
      assertThat(refused.getMessage()).startsWith("DUPLICATE_HOST: ").contains(node);
      JsonObject after = status(vertx, pool);
      assertThat(after.getJsonArray("hosts")).isEqualTo(before.getJsonArray("hosts"));
      assertThat(after.getJsonArray("slots")).isEqualTo(before.getJsonArray("slots"));
    }

    @Test
    void H1_H7_the_same_id_from_another_node_after_the_first_node_left_the_cluster_is_taken() {
      String pool = pool(60_000);
      FakeHost gone = fake(pool, "h1", "a-node-that-left");
      up(gone, pool, 1, 1);

      FakeHost back = fake(pool, "h1", node);
      assertThat(back.register(1, 1).host()).isEqualTo("h1");

      JsonObject status = status(vertx, pool);
      JsonObject host = status.getJsonArray("hosts").getJsonObject(0);
      assertThat(host.getString("node")).isEqualTo(node);
      assertThat(host.getString("state")).isEqualTo("UP");
      assertThat(slot(status, "h1/w-0").getInteger("incarnation")).isEqualTo(2);
      eventually().until(() -> back.commands(HostCommand.Deploy.class)
          .contains(new HostCommand.Deploy("h1/w-0", 2)));
      assertThat(gone.commands(HostCommand.Deploy.class)).hasSize(1);
    }

    @Test
    void a_registration_whose_heartbeats_could_not_keep_the_lease_is_refused_naming_heartbeatMs() {
      String pool = pool(100);
      FakeHost host = fake(pool, "h1", node);

      ReplyException refused = host.refusedRegistration(1, 1);

      assertThat(refused.failureCode()).isEqualTo(400);
      assertThat(refused.getMessage()).startsWith("heartbeatMs: ").contains("100");
      assertThat(status(vertx, pool).getJsonArray("hosts")).isEmpty();
    }
  }

  @Nested
  class Loss {

    @Test
    void H5_heartbeats_keep_a_hosts_lease() throws InterruptedException {
      String pool = pool(1_000);
      FakeHost host = fake(pool, "h1", node);
      up(host, pool, 1, 1);

      for (int i = 0; i < 25; i++) {
        host.heartbeat();
        Thread.sleep(100);
      }

      assertThat(hostState(status(vertx, pool), "h1")).isEqualTo("UP");
    }

    @Test
    void H5_a_host_silent_for_heartbeatTimeoutMs_is_lost_and_its_job_interrupted_NODE_LOST() {
      String pool = pool(1_000);
      FakeHost host = fake(pool, "h1", node);
      up(host, pool, 1, 1);
      Future<Outcome> running = submit(pool, PoolFixture.echo("x"));
      awaitAssign(host, 0);

      Outcome outcome = join(running);

      assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
          assertThat(i.reason()).isInstanceOfSatisfying(Interruption.WorkerStopped.class, w -> {
            assertThat(w.worker()).isEqualTo("h1/w-0");
            assertThat(w.exit()).isEqualTo(Exit.NODE_LOST);
            assertThat(w.cause()).contains("no heartbeat").contains("heartbeatTimeoutMs 1000");
          }));
      JsonObject status = status(vertx, pool);
      assertThat(hostState(status, "h1")).isEqualTo("LOST");
      assertThat(phase(status, "h1/w-0")).isEqualTo("LOST");
      assertThat(status.getJsonObject("budget").getInteger("restartsInWindow")).isZero();
      assertThat(host.commands(HostCommand.Stop.class)).as("a lost host is told nothing")
          .isEmpty();
    }

    @Test
    void H7_a_lost_host_that_is_heard_again_is_asked_to_register_and_its_late_reports_are_stale() {
      String pool = pool(1_000);
      FakeHost host = fake(pool, "h1", node);
      up(host, pool, 1, 1);
      Future<Outcome> running = submit(pool, PoolFixture.echo("x"));
      HostCommand.Assign assign = awaitAssign(host, 0);
      join(running);
      JsonObject lost = status(vertx, pool);

      host.heartbeat();
      eventually().until(() -> host.commands(HostCommand.Reregister.class).size() == 1);
      JsonObject late = host.report(
          new HostReport.Completion("h1/w-0", assign.assignment(), "late", null),
          new HostReport.Stopped("h1/w-0", 1, Exit.CRASH, "late crash"));

      assertThat(late).isEqualTo(new JsonObject().put("host", "h1").put("items", 2)
          .put("stale", 2));
      JsonObject after = status(vertx, pool);
      assertThat(counter(after, "completed")).isEqualTo(counter(lost, "completed"));
      assertThat(counter(after, "staleCompletions"))
          .isEqualTo(counter(lost, "staleCompletions") + 1);
      assertThat(after.getJsonArray("slots")).isEqualTo(lost.getJsonArray("slots"));

      host.register(1, 1);
      long heartbeats = vertx.setPeriodic(100, id -> host.heartbeat());
      eventually().until(() -> host.commands(HostCommand.Deploy.class)
          .contains(new HostCommand.Deploy("h1/w-0", 2)));
      host.report(new HostReport.Created("h1/w-0", 2));
      JsonObject back = awaitStatus(vertx, pool, PoolFixture.idleAt("h1/w-0", 2));
      vertx.cancelTimer(heartbeats);
      assertThat(hostState(back, "h1")).isEqualTo("UP");
      assertThat(back.getJsonObject("budget").getInteger("restartsInWindow")).isZero();
    }

    @Test
    void H6_a_host_lost_past_hostGraceMs_retires_HOST_LOST_then_gets_its_slots_and_keys_back() {
      JsonObject config = PoolFixture.demoPool("dp" + POOLS.incrementAndGet(), 0)
          .put("heartbeatTimeoutMs", 1_000).put("hostGraceMs", 300);
      PoolFixture.deploy(vertx, config);
      String pool = config.getString("name");
      FakeHost host = fake(pool, "h1", node);
      up(host, pool, 1, 1);
      join(PoolClient.create(vertx, pool).rebalance("user", "h1/w-0"));
      awaitStatus(vertx, pool, PoolFixture.phaseIs("h1/w-0", "LOST"));

      Outcome waited = join(PoolClient.create(vertx, pool)
          .outcome(JobRequest.of(PoolFixture.echo("keyed")).withKey("user")));

      assertThat(waited).isInstanceOfSatisfying(Outcome.Interrupted.class, i -> assertThat(
          i.reason()).isEqualTo(new Interruption.AffinityRetired("h1/w-0",
              dev.shepherd.core.Retirement.HOST_LOST)));
      assertThat(slot(status(vertx, pool), "h1/w-0").getString("retirement"))
          .isEqualTo("HOST_LOST");

      host.heartbeat();
      eventually().until(() -> host.commands(HostCommand.Reregister.class).size() == 1);
      host.register(1, 1);
      eventually().until(() -> host.commands(HostCommand.Deploy.class)
          .contains(new HostCommand.Deploy("h1/w-0", 2)));
      long heartbeats = vertx.setPeriodic(100, id -> host.heartbeat());
      host.report(new HostReport.Created("h1/w-0", 2));
      awaitStatus(vertx, pool, PoolFixture.idleAt("h1/w-0", 2));
      Future<Outcome> keyed = PoolClient.create(vertx, pool)
          .outcome(JobRequest.of(PoolFixture.echo("again")).withKey("user"));
      HostCommand.Assign assign = awaitAssign(host, 0);
      assertThat(assign.worker()).isEqualTo("h1/w-0");
      assertThat(assign.incarnation()).isEqualTo(2);
      host.report(new HostReport.Completion("h1/w-0", assign.assignment(), "done", null));
      assertThat(join(keyed)).isInstanceOf(Outcome.Completed.class);
      vertx.cancelTimer(heartbeats);
    }

    @Test
    void H7_a_heartbeat_from_a_host_the_pool_never_had_asks_it_to_register() {
      String pool = pool(60_000);
      FakeHost stranger = fake(pool, "h9", node);

      stranger.heartbeat();

      eventually().until(() -> stranger.received.size() == 1);
      assertThat(stranger.received.get(0))
          .isEqualTo(new HostCommand.Batch(3, List.of(new HostCommand.Reregister())));
      assertThat(status(vertx, pool).getJsonArray("hosts")).isEmpty();
    }
  }

  @Nested
  class Transport {

    @Test
    void assignments_of_one_turn_leave_as_one_message_and_completions_return_in_one() {
      String pool = pool(60_000);
      FakeHost host = fake(pool, "h1", node);
      host.register(1, 50);
      eventually().until(() -> host.received.size() == 1);
      List<Future<Outcome>> outcomes = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        outcomes.add(submit(pool, PoolFixture.echo(i)));
      }
      awaitStatus(vertx, pool, s -> s.getJsonObject("backlog").getInteger("length") == 50);

      host.report(new HostReport.Created("h1/w-0", 1));

      eventually().until(() -> host.received.size() == 2);
      List<HostCommand> assigns = host.received.get(1).items();
      assertThat(assigns).hasSize(50).allMatch(c -> c instanceof HostCommand.Assign a
          && a.incarnation() == 1 && a.worker().equals("h1/w-0"));
      List<HostReport> done = new ArrayList<>();
      for (HostCommand command : assigns) {
        HostCommand.Assign a = (HostCommand.Assign) command;
        done.add(new HostReport.Completion(a.worker(), a.assignment(), a.payload(), null));
      }
      assertThat(host.report(done.toArray(HostReport[]::new)).getInteger("stale")).isZero();
      for (Future<Outcome> outcome : outcomes) {
        assertThat(join(outcome)).isInstanceOf(Outcome.Completed.class);
      }
      assertThat(host.received).hasSize(2);
    }

    @Test
    void a_turn_of_more_assignments_than_a_batch_holds_leaves_in_messages_of_64_in_order() {
      String pool = pool(60_000);
      FakeHost host = fake(pool, "h1", node);
      host.register(1, 100);
      eventually().until(() -> host.received.size() == 1);
      for (int i = 0; i < 100; i++) {
        submit(pool, PoolFixture.echo(i));
      }
      awaitStatus(vertx, pool, s -> s.getJsonObject("backlog").getInteger("length") == 100);

      host.report(new HostReport.Created("h1/w-0", 1));

      eventually().until(() -> host.commands(HostCommand.Assign.class).size() == 100);
      assertThat(host.received.subList(1, host.received.size()))
          .extracting(batch -> batch.items().size()).containsExactly(64, 36);
      assertThat(host.commands(HostCommand.Assign.class)).extracting(HostCommand.Assign::job)
          .containsExactlyElementsOf(host.commands(HostCommand.Assign.class).stream()
              .map(HostCommand.Assign::job).sorted(java.util.Comparator.comparingInt(
                  (String job) -> Integer.parseInt(job.replaceAll("\\D", "")))).toList());
    }

    @Test
    void H4_P14_a_timed_out_job_stops_the_incarnation_and_deploys_the_next_in_one_message() {
      String pool = pool(60_000);
      FakeHost host = fake(pool, "h1", node);
      up(host, pool, 1, 1);
      int before = host.received.size();
      Future<Outcome> hung = PoolClient.create(vertx, pool)
          .outcome(JobRequest.of(PoolFixture.hang()).withTimeoutMs(200));
      HostCommand.Assign assign = awaitAssign(host, 0);

      assertThat(join(hung)).isInstanceOfSatisfying(Outcome.Interrupted.class, i -> assertThat(
          ((Interruption.WorkerStopped) i.reason()).exit()).isEqualTo(Exit.TIMEOUT));
      eventually().until(() -> host.received.size() == before + 2);
      assertThat(host.received.get(before + 1).items()).containsExactly(
          new HostCommand.Stop("h1/w-0", 1, Exit.TIMEOUT), new HostCommand.Deploy("h1/w-0", 2));

      JsonObject late = host.report(
          new HostReport.Completion("h1/w-0", assign.assignment(), "too late", null));
      assertThat(late.getInteger("stale")).isEqualTo(1);
      assertThat(counter(status(vertx, pool), "completed")).isZero();
    }

    @Test
    void P17_cancelling_a_job_running_on_a_host_sends_it_a_cancel_and_its_answer_frees_the_slot() {
      String pool = pool(60_000);
      FakeHost host = fake(pool, "h1", node);
      up(host, pool, 1, 1);
      JsonObject before = status(vertx, pool);
      Future<Outcome> running = PoolClient.create(vertx, pool)
          .outcome(JobRequest.of(PoolFixture.echo("x")).withJob("to-cancel"));
      HostCommand.Assign assign = awaitAssign(host, 0);

      assertThat(join(PoolClient.create(vertx, pool).cancel("to-cancel"))).isTrue();

      assertThat(join(running)).isEqualTo(new Outcome.Cancelled("to-cancel"));
      eventually().until(() -> !host.commands(HostCommand.Cancel.class).isEmpty());
      assertThat(host.commands(HostCommand.Cancel.class)).containsExactly(
          new HostCommand.Cancel("h1/w-0", 1, assign.assignment()));
      assertThat(slot(status(vertx, pool), "h1/w-0").getInteger("inFlight")).isEqualTo(1);
      host.report(new HostReport.Completion("h1/w-0", assign.assignment(), "late", null));
      JsonObject after = status(vertx, pool);
      assertThat(slot(after, "h1/w-0").getInteger("inFlight")).isZero();
      assertThat(counter(after, "completed")).isEqualTo(counter(before, "completed"));
    }

    @Test
    void a_result_from_a_host_that_no_answer_could_carry_is_the_jobs_failure() {
      String pool = pool(60_000);
      FakeHost host = fake(pool, "h1", node);
      up(host, pool, 1, 1);
      Future<Outcome> running = submit(pool, PoolFixture.echo("x"));
      HostCommand.Assign assign = awaitAssign(host, 0);
      io.vertx.core.json.JsonArray deep = new io.vertx.core.json.JsonArray();
      for (int i = 0; i < 1_000; i++) {
        deep = new io.vertx.core.json.JsonArray().add(deep);
      }

      host.report(new HostReport.Completion("h1/w-0", assign.assignment(), deep, null));

      assertThat(join(running)).isInstanceOfSatisfying(Outcome.Failed.class, f -> assertThat(
          f.error().message()).startsWith("RESULT_NOT_ENCODABLE: "));
      assertThat(phase(status(vertx, pool), "h1/w-0")).isEqualTo("IDLE");
    }

    @Test
    void C4_a_host_reporting_about_another_hosts_slot_changes_nothing() {
      String pool = pool(60_000);
      FakeHost h1 = fake(pool, "h1", node);
      up(h1, pool, 1, 1);
      Future<Outcome> running = submit(pool, PoolFixture.echo("x"));
      HostCommand.Assign assign = awaitAssign(h1, 0);
      FakeHost h2 = fake(pool, "h2", node);
      up(h2, pool, 1, 1);

      JsonObject answer = h2.report(
          new HostReport.Completion("h1/w-0", assign.assignment(), "forged", null),
          new HostReport.Stopped("h1/w-0", 1, Exit.CRASH, "forged"));

      assertThat(answer.getInteger("stale")).isEqualTo(2);
      assertThat(slot(status(vertx, pool), "h1/w-0").getInteger("inFlight")).isEqualTo(1);
      assertThat(running.isComplete()).isFalse();
      h1.report(new HostReport.Completion("h1/w-0", assign.assignment(), "real", null));
      assertThat(join(running)).isInstanceOfSatisfying(Outcome.Completed.class,
          c -> assertThat(c.result()).isEqualTo("real"));
    }
  }
}
