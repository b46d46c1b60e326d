package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A pool's replies to requests from another node (A4: each accepted job answered once), with two
 * nodes in this JVM: the pool on A, the requests from B. A turn's replies to B are written from a
 * worker thread, together, so the clustered bus's connection writes them in one flush ({@code
 * WireReplies}); a turn's only reply is written on the pool's event loop. A client's outcomes,
 * sent to its reply address after the admission, arrive once each.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WireRepliesAcrossNodesTest {
  private static final String POOL = "wired";
  private static final int JOBS = 400;
  private static Vertx a;
  private static Vertx b;

  /** A completed job's reply that A wrote, and whether an event loop wrote it. */
  record Written(String job, boolean onEventLoop) {}

  private static final List<Written> WRITTEN = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void cluster() {
    String name = ClusterPorts.uniqueName("wired");
    int base = ClusterPorts.freeBase();
    a = ClusteredVertx.start(name, base);
    b = ClusteredVertx.start(name, base);
    await().atMost(PoolFixture.STEP.multipliedBy(6))
        .until(() -> ClusteredVertx.nodes(a).size() == 2 && ClusteredVertx.nodes(b).size() == 2);
    JsonObject pool = PoolFixture.demoPool(POOL, 4).put("backlogCapacity", JOBS);
    pool.getJsonObject("worker").put("threading", "EVENT_LOOP").put("maxConcurrency", 16);
    PoolFixture.deployReady(a, pool);
    a.eventBus().addOutboundInterceptor((DeliveryContext<Object> delivery) -> {
      if (delivery.body() instanceof JsonObject body && "completed".equals(body.getString("type"))) {
        WRITTEN.add(new Written(body.getString("job"), Context.isOnEventLoopThread()));
      }
      delivery.next();
    });
  }

  @AfterAll
  static void close() {
    ClusteredVertx.close(b);
    ClusteredVertx.close(a);
  }

  private static Future<Message<JsonObject>> submit(String job, int echo) {
    return b.eventBus().request("shepherd." + POOL + ".submit", new JsonObject().put("job", job)
        .put("payload", new JsonObject().put("echo", echo)));
  }

  @Test
  void A4_a_client_on_another_node_gets_each_outcome_once_at_its_reply_address() {
    PoolClient client = PoolClient.create(b, POOL);
    try {
      List<Future<Object>> results = new ArrayList<>();
      for (int i = 0; i < JOBS; i++) {
        results.add(client.submit(JobRequest.of(new JsonObject().put("echo", i))
            .withJob("client-" + i)));
      }

      for (int i = 0; i < JOBS; i++) {
        assertThat(((JsonObject) join(results.get(i))).getInteger("echo")).isEqualTo(i);
      }
      assertThat(WRITTEN).filteredOn(w -> w.job().startsWith("client-"))
          .extracting(Written::job).as("each outcome sent once").doesNotHaveDuplicates()
          .hasSize(JOBS);
    } finally {
      join(client.close());
    }
  }

  @Test
  void A4_a_busy_pool_answers_each_request_from_another_node_once_from_off_its_event_loop() {
    List<Future<Message<JsonObject>>> replies = new ArrayList<>();
    for (int i = 0; i < JOBS; i++) {
      replies.add(submit("burst-" + i, i));
    }

    for (int i = 0; i < JOBS; i++) {
      JsonObject reply = join(replies.get(i)).body();
      assertThat(reply.getString("type")).isEqualTo("completed");
      assertThat(reply.getString("job")).isEqualTo("burst-" + i);
      assertThat(reply.getJsonObject("result").getInteger("echo")).isEqualTo(i);
    }
    List<Written> burst = WRITTEN.stream().filter(w -> w.job().startsWith("burst-")).toList();
    assertThat(burst).extracting(Written::job).as("each job's reply written once")
        .doesNotHaveDuplicates().hasSize(JOBS);
    assertThat(burst).as("turns that answer several jobs write from a worker thread")
        .anyMatch(w -> !w.onEventLoop());

    // One job at a time: each turn answers one, written from the pool's event loop.
    await().atMost(PoolFixture.STEP).untilAsserted(() -> {
      String job = "alone-" + System.nanoTime();
      assertThat(join(submit(job, -1)).body().getString("job")).isEqualTo(job);
      assertThat(WRITTEN).filteredOn(w -> w.job().equals(job))
          .singleElement().satisfies(w -> assertThat(w.onEventLoop()).isTrue());
    });
  }
}
