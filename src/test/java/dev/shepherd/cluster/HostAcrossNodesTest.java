package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.cluster.hosts.HostMessages;
import dev.shepherd.cluster.hosts.HostReport;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker host node started through the docker entrypoint with the shipped host role
 * ({@code conf/cluster-host.json}), against a stand-in coordinator that is a member of the same
 * cluster in the test's JVM: the protocol across two JVMs, and the launcher's exit when the id is
 * refused (H1).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HostAcrossNodesTest {
  @RegisterExtension
  final ClusterNodes nodes = new ClusterNodes();

  private static ConditionFactory eventually() {
    return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50));
  }

  @Test
  void H1_a_host_node_registers_across_the_cluster_runs_what_it_is_sent_and_leaves()
      throws Exception {
    Vertx member = nodes.joinAsMember();
    FakePool pool = new FakePool(member, "shepherd.jobs");
    ClusterNode host = nodes.start("h1", ClusterNodes.shippedConf("cluster-host.json"));

    host.awaitLine("host h1: registered with pool jobs", Duration.ofSeconds(90));
    assertThat(pool.registrations).last().satisfies(r -> {
      assertThat(r.host()).as("the id defaults to the machine's name").isEqualTo("h1");
      assertThat(r.node()).isNotEqualTo("local");
      assertThat(r.slots()).containsExactly(new HostMessages.SlotOffer("h1/w-0", 2),
          new HostMessages.SlotOffer("h1/w-1", 2));
    });
    pool.send("h1", 0, new HostCommand.Deploy("h1/w-0", 1), new HostCommand.Deploy("h1/w-1", 1));
    eventually().until(() -> pool.reports(HostReport.Created.class).size() == 2);
    int batchesBefore = pool.batches.size();
    List<HostCommand> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      jobs.add(new HostCommand.Assign("h1/w-" + (i % 2), 1, 100 + i, "j" + i,
          new JsonObject().put("echo", i), 1, null));
    }
    pool.send("h1", 0, jobs.toArray(HostCommand[]::new));
    eventually().until(() -> pool.reports(HostReport.Completion.class).size() == 4);
    eventually().until(() -> pool.heartbeats.size() >= 2);

    assertThat(pool.reports(HostReport.Completion.class)).allSatisfy(c ->
        assertThat(((JsonObject) c.result()).getString("worker")).isEqualTo(c.worker()));
    assertThat(pool.batches.size() - batchesBefore).isLessThanOrEqualTo(4);
    host.terminate();
    assertThat(host.waitFor(Duration.ofSeconds(30))).isZero();
    assertThat(pool.deregistrations).containsExactly(new HostMessages.Deregister("h1"));
  }

  @Test
  void a_paused_host_sends_nothing_until_resumed_and_a_killed_one_is_gone() throws Exception {
    Vertx member = nodes.joinAsMember();
    FakePool pool = new FakePool(member, "shepherd.jobs");
    ClusterNode host = nodes.start("h1", ClusterNodes.shippedConf("cluster-host.json"));
    host.awaitLine("host h1: registered with pool jobs", Duration.ofSeconds(90));
    eventually().until(() -> pool.heartbeats.size() >= 2);

    host.pause();
    Thread.sleep(1_500);
    int whilePaused = pool.heartbeats.size();
    Thread.sleep(2_000);
    assertThat(pool.heartbeats).as("a stopped JVM sends nothing").hasSize(whilePaused);

    host.resume();
    eventually().until(() -> pool.heartbeats.size() > whilePaused);
    host.kill();
    assertThat(host.isAlive()).isFalse();
    assertThat(pool.deregistrations).as("kill -9 leaves no time to deregister").isEmpty();
  }

  @Test
  void H1_a_second_live_host_with_the_same_id_is_refused_and_its_node_exits_naming_the_field() {
    Vertx member = nodes.joinAsMember();
    FakePool pool = new FakePool(member, "shepherd.jobs");
    pool.refuseAsDuplicate = true;

    ClusterNode host = nodes.start("h1", ClusterNodes.shippedConf("cluster-host.json"));
    int status = host.waitFor(Duration.ofSeconds(120));

    assertThat(status).as(host.output()).isEqualTo(3);
    List<String> errors = host.stderr().lines().filter(line -> !line.isBlank()).toList();
    assertThat(errors).singleElement().asString()
        .startsWith("shepherd: refused by the cluster: hosts[0].id: ")
        .contains("\"h1\"").contains("DUPLICATE_HOST");
  }
}
