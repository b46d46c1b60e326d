package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link PoolClient} on a clustered Vert.x (rule A4), with two nodes in this JVM: the pool is
 * coordinated on node A, the client runs on node B. The client submits with a reply address of
 * its own on B, so the terminal outcome is a message from A to that address, not the reply to the
 * request; whichever coordinator sends it, the client's future completes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusteredPoolClientTest {
  private static final String POOL = "replies";
  private static final String CLIENT_PREFIX = "__shepherd.client.";
  private static Vertx a;
  private static Vertx b;

  /** A message one node sent: where to and what. */
  record Sent(String address, Object body) {}

  private static final List<Sent> SENT_FROM_A = new CopyOnWriteArrayList<>();
  private static final List<Sent> SENT_FROM_B = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void cluster() {
    String name = ClusterPorts.uniqueName("replies");
    int base = ClusterPorts.freeBase();
    a = ClusteredVertx.start(name, base);
    b = ClusteredVertx.start(name, base);
    await().atMost(PoolFixture.STEP.multipliedBy(6))
        .until(() -> ClusteredVertx.nodes(a).size() == 2 && ClusteredVertx.nodes(b).size() == 2);
    PoolFixture.deployReady(a, PoolFixture.demoPool(POOL, 1));
    record(a, SENT_FROM_A);
    record(b, SENT_FROM_B);
  }

  @AfterAll
  static void close() {
    ClusteredVertx.close(b);
    ClusteredVertx.close(a);
  }

  private static void record(Vertx vertx, List<Sent> sent) {
    vertx.eventBus().addOutboundInterceptor((DeliveryContext<Object> delivery) -> {
      sent.add(new Sent(delivery.message().address(), delivery.body()));
      delivery.next();
    });
  }

  private static List<Sent> to(List<Sent> sent, String address) {
    return sent.stream().filter(s -> s.address().equals(address)).toList();
  }

  @Test
  void A4_client_future_completes_from_reply_address_on_another_node() {
    PoolClient client = PoolClient.create(b, POOL);
    try {
      Object result = join(client.submit(JobRequest.of(echo("from b")).withJob("b1")));

      assertThat(((JsonObject) result).getString("echo")).isEqualTo("from b");
      JsonObject submit = (JsonObject) to(SENT_FROM_B, "shepherd." + POOL + ".submit").stream()
          .filter(s -> "b1".equals(((JsonObject) s.body()).getString("job")))
          .findFirst().orElseThrow().body();
      String replyTo = submit.getString("replyTo");
      assertThat(replyTo).as("B's submit names B's own reply address").startsWith(CLIENT_PREFIX);
      assertThat(to(SENT_FROM_A, replyTo)).as("A sent the outcome to that address")
          .singleElement().satisfies(outcome -> assertThat(((JsonObject) outcome.body()).getMap())
              .containsEntry("type", "completed").containsEntry("job", "b1"));
    } finally {
      join(client.close());
    }
  }

  @Test
  void A4_outcome_sent_from_a_successor_completes_a_future_the_first_coordinator_admitted() {
    // A stand-in for a coordinator on A that admits the job and then dies holding it.
    List<JsonObject> admitted = new CopyOnWriteArrayList<>();
    MessageConsumer<JsonObject> first = a.eventBus().consumer("moving.submit", message -> {
      admitted.add(message.body());
      message.reply(new JsonObject().put("type", "accepted")
          .put("job", message.body().getString("job")));
    });
    join(first.completion());
    PoolClient client = PoolClient.create(b, "moving", "moving", 30_000);
    try {
      Future<Outcome> outcome = client.outcome(JobRequest.of(echo("x")).withJob("m1"));
      await().atMost(PoolFixture.STEP).until(() -> admitted.size() == 1);
      join(first.unregister());

      // Its successor answers from the job's durable record, which keeps the replyTo.
      a.eventBus().send(admitted.get(0).getString("replyTo"), new JsonObject()
          .put("type", "completed").put("job", "m1").put("result", "after failover")
          .put("worker", "w-1").put("attempts", 2));

      assertThat(join(outcome)).isEqualTo(
          new Outcome.Completed("m1", "after failover", "w-1", 2));
    } finally {
      join(client.close());
    }
  }

  @Test
  void a_client_in_the_coordinators_vertx_still_hands_jobs_straight_over() {
    PoolClient client = PoolClient.create(a, POOL);
    try {
      Object result = join(client.submit(JobRequest.of(echo("from a")).withJob("a1")));

      assertThat(((JsonObject) result).getString("echo")).isEqualTo("from a");
      assertThat(to(SENT_FROM_A, "shepherd." + POOL + ".submit")).isEmpty();
    } finally {
      join(client.close());
    }
  }
}
