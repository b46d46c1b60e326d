package dev.shepherd.runtime.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A standby's consumers made ready while it claims a highly available pool (A3): what arrives
 * before the node serves the pool is held and reaches the coordinator first, in order, once it
 * does; when another node leads, what is held is refused {@code NO_HANDLERS}, as a request that
 * met no consumer is (a {@code PoolClient} sends it again), and the consumers are gone.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReadyConsumersTest {
  private static final String SUBMIT = "shepherd.ready.submit";
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  /** The one context the pool's verticle would register, serve and withdraw on. */
  private final Context context = vertx.getOrCreateContext();

  /** {@code task}'s result, computed on {@link #context}. */
  private <T> T on(java.util.function.Supplier<T> task) {
    Promise<T> done = Promise.promise();
    context.runOnContext(v -> done.complete(task.get()));
    return done.future().await();
  }

  private ReadyConsumers ready() {
    ReadyConsumers ready = on(() -> ReadyConsumers.register(vertx.eventBus(), "ready",
        List.of(SUBMIT)));
    ready.completion().await();
    return ready;
  }

  private int held(ReadyConsumers ready) {
    return on(ready::heldCount);
  }

  private List<Future<Message<Object>>> send(int count) {
    List<Future<Message<Object>>> replies = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      replies.add(vertx.eventBus().request(SUBMIT, new JsonObject().put("n", i)));
    }
    return replies;
  }

  @Test
  void A3_requests_held_while_standing_ready_reach_the_coordinator_in_order_once_it_serves() {
    ReadyConsumers ready = ready();
    List<Future<Message<Object>>> replies = send(3);
    await().atMost(Duration.ofSeconds(10)).until(() -> held(ready) == 3);

    List<Integer> served = new CopyOnWriteArrayList<>();
    Handler<Message<Object>> coordinator = message -> {
      served.add(((JsonObject) message.body()).getInteger("n"));
      message.reply(new JsonObject().put("type", "accepted"));
    };
    on(() -> {
      ready.serve(Map.of(SUBMIT, coordinator));
      return null;
    });
    send(1);

    await().atMost(Duration.ofSeconds(10)).until(() -> served.size() == 4);
    assertThat(served).containsExactly(0, 1, 2, 0);
    assertThat(Future.all(replies).await().<Message<Object>>list())
        .allSatisfy(reply -> assertThat(((JsonObject) reply.body()).getString("type"))
            .isEqualTo("accepted"));
    assertThat(ready.serving()).isTrue();
  }

  @Test
  void A3_what_is_held_when_another_node_leads_is_refused_no_handlers_and_the_consumers_go() {
    ReadyConsumers ready = ready();
    List<Future<Message<Object>>> replies = send(2);
    await().atMost(Duration.ofSeconds(10)).until(() -> held(ready) == 2);

    on(ready::withdraw).await();

    for (Future<Message<Object>> reply : replies) {
      Throwable failure = reply.transform(Future::succeededFuture).await().cause();
      assertThat(failure).isInstanceOf(ReplyException.class);
      assertThat(((ReplyException) failure).failureType()).isEqualTo(ReplyFailure.NO_HANDLERS);
    }
    Throwable after = send(1).get(0).transform(Future::succeededFuture).await().cause();
    assertThat(((ReplyException) after).failureType()).as("no consumer left")
        .isEqualTo(ReplyFailure.NO_HANDLERS);
    assertThat(ready.serving()).isFalse();
  }

  @Test
  void A3_beyond_what_may_be_held_a_request_is_refused_at_once() {
    ReadyConsumers ready = ready();
    List<Future<Message<Object>>> replies = send(ReadyConsumers.MAX_HELD + 1);

    Throwable refused = replies.get(ReadyConsumers.MAX_HELD).transform(Future::succeededFuture)
        .await().cause();

    assertThat(((ReplyException) refused).failureType()).isEqualTo(ReplyFailure.NO_HANDLERS);
    assertThat(held(ready)).isEqualTo(ReadyConsumers.MAX_HELD);
    assertThat(ready.holds(SUBMIT)).isTrue();
    assertThat(ready.holds("shepherd.ready.status")).isFalse();
  }
}
