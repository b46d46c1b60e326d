package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.fail;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobSettings;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.payload.JsonValues;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.PoolProbe;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a highly available pool keeps of section 10 across a failover (J5, J6, J3 with A3): three
 * clustered Vert.x instances in this JVM list one HA pool; the leader's Hazelcast member is
 * terminated (no goodbye to the cluster, as with {@code kill -9}); the new leader still holds
 * the dead-letter set, finds a recently answered job by lookup, and a job waiting for its retry
 * delay waits on until the same due time.
 *
 * <p>In one JVM rather than across JVMs: the job rules are set in code ({@link
 * PoolProbe#withJobs}), and lookups are read from the coordinator itself; a Hazelcast member
 * that terminates is what the others see of a killed process (its connections close).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HaDeadLetterFailoverTest {
  private static final String POOL = "ha-dead";
  /**
   * Suspects retried after 100 ms and poisoned at their second stop; a failure is retried once,
   * two minutes later, so a job that failed once is still waiting when the leader dies.
   */
  private static final JobSettings JOBS = JobSettings.DEFAULT
      .withPoisonAfter(2)
      .withRetryBackoff(new Backoff(100, 1.0, 100, 0.0))
      .withRetryFailures(new FailureRetry(2, new Backoff(120_000, 1.0, 120_000, 0.0)));

  private final List<Vertx> nodes = new ArrayList<>();
  private Vertx killed;

  @AfterEach
  void close() {
    for (Vertx node : nodes) {
      if (node != killed) {
        ClusteredVertx.close(node);
      }
    }
    if (killed != null) {
      // Its Hazelcast is gone; Vert.x may not close cleanly, and need not.
      killed.close().toCompletionStage().toCompletableFuture().completeOnTimeout(null, 10,
          TimeUnit.SECONDS).exceptionally(e -> null).join();
    }
  }

  @Test
  void J5_J6_A3_after_the_leader_is_killed_the_new_leader_keeps_the_dead_letters_and_finds_answered_and_waiting_jobs() {
    String name = ClusterPorts.uniqueName("ha-dead");
    int base = ClusterPorts.freeBase();
    for (int i = 0; i < 3; i++) {
      nodes.add(ClusteredVertx.start(name, base));
    }
    await().atMost(Duration.ofSeconds(60))
        .until(() -> nodes.stream().allMatch(n -> ClusteredVertx.nodes(n).size() == 3));
    JsonObject config = PoolFixture.demoPool(POOL, 2)
        .put("ha", new JsonObject().put("enabled", true))
        .put("interruption", "RETRY").put("maxAttempts", 5);
    for (Vertx node : nodes) {
      join(node.deployVerticle(PoolProbe.withJobs(JOBS),
          new DeploymentOptions().setConfig(config)));
    }
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
        .until(() -> nodes.stream().filter(n -> PoolProbe.coordinates(n, POOL)).count() == 1);
    Vertx leader = nodes.stream().filter(n -> PoolProbe.coordinates(n, POOL)).findFirst()
        .orElseThrow();
    long term = PoolProbe.term(leader, POOL);
    Vertx submitter = nodes.stream().filter(n -> n != leader).findFirst().orElseThrow();
    PoolClient client = PoolClient.create(submitter, POOL);

    Future<Outcome> good = client.outcome(JobRequest.of(echo("kept")).withJob("good"));
    Future<Outcome> poison = client.outcome(JobRequest.of(crash()).withJob("poison"));
    client.outcome(JobRequest.of(fail("not yet")).withJob("flaky"));
    assertThat(join(good)).isInstanceOf(Outcome.Completed.class);
    assertThat(join(poison)).isInstanceOfSatisfying(Outcome.Interrupted.class,
        i -> assertThat(i.reason()).isInstanceOf(Interruption.Poison.class));
    await().atMost(PoolFixture.STEP).until(() -> PoolProbe.query(leader, POOL,
        pool -> pool.lookup("flaky")).state() == JobView.JobState.WAITING);
    Long dueAt = PoolProbe.query(leader, POOL, pool -> pool.lookup("flaky").dueAt());

    kill(leader);
    List<Vertx> survivors = nodes.stream().filter(n -> n != leader).toList();
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> survivors.stream().anyMatch(n -> PoolProbe.term(n, POOL) > term));
    Vertx successor = survivors.stream().filter(n -> PoolProbe.term(n, POOL) > term)
        .findFirst().orElseThrow();

    // J5: the dead-letter set, with what a replay needs and what an operator reads.
    List<String> kept = PoolProbe.query(successor, POOL,
        pool -> pool.deadLetters(0, 10).stream().map(DeadLetter::job).toList());
    assertThat(kept).containsExactly("poison");
    DeadLetter dead = PoolProbe.query(successor, POOL, pool -> pool.deadLetter("poison"));
    assertThat(dead.reason()).isEqualTo("POISON");
    assertThat(dead.attempts()).hasSize(2)
        .allSatisfy(a -> assertThat(a.ended()).isEqualTo("CRASH"));
    assertThat(JsonValues.toJson(dead.payload())).isEqualTo(crash());
    // J6: the answered job is found with its outcome.
    JobView answered = PoolProbe.query(successor, POOL, pool -> pool.lookup("good"));
    assertThat(answered.state()).isEqualTo(JobView.JobState.ANSWERED);
    assertThat(answered.outcome()).isInstanceOfSatisfying(Outcome.Completed.class,
        c -> assertThat(((JsonObject) c.result()).getString("echo")).isEqualTo("kept"));
    // J3: the job waiting for its retry waits on, until the same time.
    JobView waiting = PoolProbe.query(successor, POOL, pool -> pool.lookup("flaky"));
    assertThat(waiting.state()).isEqualTo(JobView.JobState.WAITING);
    assertThat(waiting.dueAt()).isEqualTo(dueAt);
    // And the status any node shows counts the dead letters.
    // (A status request may still reach the dead node's consumer for a moment: asked again.)
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> PoolFixture
        .status(submitter, POOL).getInteger("deadLetters") == 1);
    client.close();
  }

  /** Terminates {@code node}'s Hazelcast member at once, as a kill -9 of its process would. */
  private void kill(Vertx node) {
    killed = node;
    ((HazelcastClusterManager) ((VertxInternal) node).clusterManager()).getHazelcastInstance()
        .getLifecycleService().terminate();
  }
}
