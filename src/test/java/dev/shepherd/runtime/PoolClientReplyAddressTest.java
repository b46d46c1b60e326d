package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.runtime.access.ReplyAddress;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link PoolClient} with a reply address of its own (rule A4), on a local Vert.x with the mode
 * forced by {@link PoolClientOptions.Replies#REPLY_ADDRESS}: the reply to a submit is only the
 * admission, and the outcome comes to the client's address from whoever sends it, so it does not
 * matter which coordinator admitted the job. A stand-in "coordinator" on an address of the test's
 * own plays the one that admits and then dies.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PoolClientReplyAddressTest {
  private static final String POOL = "answers";
  private static final PoolClientOptions REPLY_ADDRESS = PoolClientOptions.defaults()
      .withReplies(PoolClientOptions.Replies.REPLY_ADDRESS).withTimeoutMs(10_000);

  private final List<PoolClient> clients = new CopyOnWriteArrayList<>();

  private PoolClient client(Vertx vertx, String pool, PoolClientOptions options) {
    PoolClient client = PoolClient.create(vertx, pool, options);
    clients.add(client);
    return client;
  }

  @AfterEach
  void closeClients() {
    clients.forEach(client -> join(client.close()));
  }

  /** Records, per address, the bodies sent from {@code vertx}. */
  private static Map<String, List<Object>> sent(Vertx vertx) {
    Map<String, List<Object>> sent = new ConcurrentHashMap<>();
    vertx.eventBus().addOutboundInterceptor((DeliveryContext<Object> delivery) -> {
      sent.computeIfAbsent(delivery.message().address(), a -> new CopyOnWriteArrayList<>())
          .add(delivery.message().body());
      delivery.next();
    });
    return sent;
  }

  /**
   * A stand-in coordinator at {@code prefix}: records each submit body and, when {@code admit},
   * answers {@code accepted}; otherwise it never answers (it died holding the request).
   */
  private static List<JsonObject> standIn(Vertx vertx, String prefix, boolean admit) {
    List<JsonObject> submits = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer(prefix + ".submit", message -> {
      submits.add(message.body());
      if (admit) {
        message.reply(new JsonObject().put("type", "accepted")
            .put("job", message.body().getString("job")));
      }
    }).completion());
    return submits;
  }

  private static JsonObject completed(String job, Object result) {
    return new JsonObject().put("type", "completed").put("job", job).put("result", result)
        .put("worker", "w-0").put("attempts", 1);
  }

  @Test
  void A4_client_future_completes_from_reply_address(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1));
    Map<String, List<Object>> sent = sent(vertx);
    PoolClient client = client(vertx, POOL, REPLY_ADDRESS);

    Object result = join(client.submit(JobRequest.of(echo("via my address")).withJob("j1")));

    assertThat(((JsonObject) result).getString("echo")).isEqualTo("via my address");
    String address = client.replyAddress();
    assertThat(address).startsWith(ReplyAddress.PREFIX);
    assertThat(sent.get("shepherd." + POOL + ".submit")).singleElement()
        .satisfies(body -> assertThat(((JsonObject) body).getString("replyTo"))
            .isEqualTo(address));
    assertThat(sent.get(address)).singleElement()
        .satisfies(body -> assertThat(((JsonObject) body).getMap())
            .containsEntry("type", "completed").containsEntry("job", "j1"));
    assertThat(client.waitingOutcomes()).isZero();
  }

  @Test
  void A4_outcome_from_another_coordinator_completes_a_future_admitted_by_the_first(
      Vertx vertx) {
    List<JsonObject> submits = standIn(vertx, "old-leader", true);
    PoolClient client = client(vertx, POOL, REPLY_ADDRESS.withAddressPrefix("old-leader"));

    Future<Object> result = client.submit(JobRequest.of(echo("x")).withJob("k1"));
    await().until(() -> submits.size() == 1 && client.waitingOutcomes() == 1);
    // The admitting coordinator is gone; its successor answers to the job's replyTo.
    vertx.eventBus().send(submits.get(0).getString("replyTo"), completed("k1", "from the new"));

    assertThat(join(result)).isEqualTo("from the new");
  }

  @Test
  void A4_outcome_completes_the_future_though_the_admission_never_came(Vertx vertx) {
    List<JsonObject> submits = standIn(vertx, "died-before-admitting", false);
    PoolClient client = client(vertx, POOL,
        REPLY_ADDRESS.withAddressPrefix("died-before-admitting"));

    Future<Outcome> outcome = client.outcome(JobRequest.of(echo("x")).withJob("k2"));
    await().until(() -> submits.size() == 1);
    vertx.eventBus().send(submits.get(0).getString("replyTo"), completed("k2", 7));

    assertThat(join(outcome)).isEqualTo(new Outcome.Completed("k2", 7, "w-0", 1));
  }

  @Test
  void A4_rejected_admission_completes_the_future_at_once(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1).put("backlogCapacity", 0));
    PoolClient client = client(vertx, POOL, REPLY_ADDRESS);
    Future<Object> busy = client.submit(JobRequest.of(sleep(8_000)).withJob("busy"));
    awaitStatus(vertx, POOL, running("w-0", "busy"));

    Throwable error = failure(client.submit(JobRequest.of(echo("keep me")).withJob("r")));

    assertThat(error).isInstanceOfSatisfying(JobRejectedException.class, e -> {
      assertThat(e.job()).isEqualTo("r");
      assertThat(e.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
      assertThat(e.payload()).isEqualTo(echo("keep me"));
    });
    assertThat(client.waitingOutcomes()).as("the running job still waits").isEqualTo(1);
    assertThat(join(client.cancel("busy"))).isTrue();
    assertThat(failure(busy)).isInstanceOf(JobCancelledException.class);
  }

  @Test
  void A4_a_job_without_id_gets_one_from_the_client(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 2));
    PoolClient client = client(vertx, POOL, REPLY_ADDRESS);

    Outcome first = join(client.outcome(JobRequest.of(echo(1))));
    Outcome second = join(client.outcome(JobRequest.of(echo(2))));

    assertThat(first).isInstanceOf(Outcome.Completed.class);
    assertThat(second).isInstanceOf(Outcome.Completed.class);
    assertThat(first.job()).isNotBlank().isNotEqualTo(second.job());
  }

  @Test
  void A4_a_job_id_the_client_already_waits_for_is_rejected_DUPLICATE_JOB(Vertx vertx) {
    List<JsonObject> submits = standIn(vertx, "slow", true);
    PoolClient client = client(vertx, POOL, REPLY_ADDRESS.withAddressPrefix("slow"));
    Future<Object> first = client.submit(JobRequest.of(echo(1)).withJob("same"));

    Throwable error = failure(client.submit(JobRequest.of(echo(2)).withJob("same")));

    assertThat(error).isInstanceOfSatisfying(JobRejectedException.class,
        e -> assertThat(e.reason()).isEqualTo(RejectionReason.DUPLICATE_JOB));
    await().until(() -> submits.size() == 1);
    vertx.eventBus().send(client.replyAddress(), completed("same", "first"));
    assertThat(join(first)).isEqualTo("first");
  }

  @Test
  void A4_an_outcome_for_a_job_the_client_does_not_wait_for_is_ignored_and_counted(
      Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1));
    PoolClient client = client(vertx, POOL, REPLY_ADDRESS);
    join(client.submit(echo("registers the address")));

    vertx.eventBus().send(client.replyAddress(), completed("nobody", 1));
    vertx.eventBus().send(client.replyAddress(), completed("nobody", 2));

    await().until(() -> client.unknownOutcomes() == 2);
    assertThat(join(client.submit(JobRequest.of(echo("still")).withJob("after"))))
        .isEqualTo(new JsonObject().put("worker", "w-0").put("incarnation", 1)
            .put("echo", "still"));
  }

  @Test
  void A4_malformed_messages_at_the_reply_address_change_nothing(Vertx vertx) {
    List<JsonObject> submits = standIn(vertx, "quiet", true);
    PoolClient client = client(vertx, POOL, REPLY_ADDRESS.withAddressPrefix("quiet"));
    Future<Object> pending = client.submit(JobRequest.of(echo(1)).withJob("p"));
    await().until(() -> submits.size() == 1);
    List<Object> garbage = List.of(
        "not json", 42, true, new JsonArray().add(1), new JsonObject(),
        Buffer.buffer("{\"type\":"), Buffer.buffer("[1,2]"),
        new JsonObject().put("type", "completed"),
        new JsonObject().put("type", "completed").put("job", 17),
        new JsonObject().put("type", "nonsense").put("job", "p"),
        new JsonObject().put("type", "accepted").put("job", "p"),
        new JsonObject().put("type", "rejected").put("job", "p").put("reason", "NOT_A_REASON"),
        new JsonObject().put("type", "rejected").put("job", "p"),
        new JsonObject().put("type", "failed").put("job", "p").put("error", "flat"),
        new JsonObject().put("type", "completed").put("job", "p").put("attempts", "one"),
        new JsonObject().put("type", "interrupted").put("job", "p"),
        new JsonObject().put("type", "interrupted").put("job", "p")
            .put("reason", new JsonObject().put("kind", "WORKER_STOPPED").put("exit", "BOOM")),
        new JsonObject().put("type", "interrupted").put("job", "p")
            .put("reason", new JsonObject().put("kind", "MARTIAN")),
        new JsonObject().put("type", new JsonObject()).put("job", "p"),
        new JsonObject().put("type", "cancelled").put("job", new JsonArray()),
        "x".repeat(10_000));
    int rounds = 50;
    for (int i = 0; i < rounds; i++) {
      for (Object body : garbage) {
        vertx.eventBus().send(client.replyAddress(), body);
      }
    }
    vertx.eventBus().send(client.replyAddress(), null, new DeliveryOptions());

    await().until(() -> client.malformedOutcomes() == rounds * garbage.size() + 1);
    assertThat(pending.isComplete()).isFalse();
    assertThat(client.unknownOutcomes()).isZero();
    vertx.eventBus().send(client.replyAddress(), completed("p", "intact"));
    assertThat(join(pending)).isEqualTo("intact");
  }

  @Test
  void A4_the_client_timeout_fails_the_future_and_forgets_the_job(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1));
    PoolClient client = client(vertx, POOL, REPLY_ADDRESS.withTimeoutMs(300));

    Throwable error = failure(client.submit(JobRequest.of(sleep(1_500)).withJob("slow")));

    assertThat(error).isInstanceOfSatisfying(ReplyException.class, e -> {
      assertThat(e.failureType()).isEqualTo(ReplyFailure.TIMEOUT);
      assertThat(e.getMessage()).contains("slow").contains("300 ms").contains(POOL);
    });
    assertThat(client.waitingOutcomes()).isZero();
    await().until(() -> client.unknownOutcomes() == 1);
  }

  @Test
  void A4_the_client_timeout_also_ends_a_submit_whose_coordinator_died_holding_it(Vertx vertx) {
    standIn(vertx, "dead", false);
    PoolClient client = client(vertx, POOL,
        REPLY_ADDRESS.withAddressPrefix("dead").withTimeoutMs(200));

    Throwable error = failure(client.submit(JobRequest.of(echo(1)).withJob("lost")));

    assertThat(error).isInstanceOfSatisfying(ReplyException.class, e -> {
      assertThat(e.failureType()).isEqualTo(ReplyFailure.TIMEOUT);
      assertThat(e.getMessage()).contains("lost").contains("200 ms");
    });
    assertThat(client.waitingOutcomes()).isZero();
  }

  @Test
  void A4_close_unregisters_the_reply_address_and_fails_waiting_submits(Vertx vertx) {
    List<JsonObject> submits = standIn(vertx, "closing", true);
    PoolClient client = client(vertx, POOL, REPLY_ADDRESS.withAddressPrefix("closing"));
    Future<Object> waiting = client.submit(JobRequest.of(echo(1)).withJob("w"));
    await().until(() -> submits.size() == 1);

    join(client.close());

    assertThat(failure(waiting)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThat(failure(vertx.eventBus().request(client.replyAddress(), completed("w", 1))))
        .isInstanceOfSatisfying(ReplyException.class,
            e -> assertThat(e.failureType()).isEqualTo(ReplyFailure.NO_HANDLERS));
    assertThat(failure(client.submit(echo(2)))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void a_client_of_a_vertx_that_is_not_clustered_keeps_request_reply(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1));
    Map<String, List<Object>> sent = sent(vertx);
    PoolClient client = client(vertx, "bus-view", PoolClientOptions.defaults()
        .withAddressPrefix("shepherd." + POOL));

    Object result = join(client.submit(echo("plain")));

    assertThat(((JsonObject) result).getString("echo")).isEqualTo("plain");
    assertThat(client.replyAddress()).isNull();
    assertThat(sent.get("shepherd." + POOL + ".submit")).singleElement()
        .satisfies(body -> assertThat(((JsonObject) body).containsKey("replyTo")).isFalse());
  }
}
