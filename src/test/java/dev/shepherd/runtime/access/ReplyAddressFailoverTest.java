package dev.shepherd.runtime.access;

import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.Requests;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A submitter's reply address through a failover (A4): while no coordinator consumes the pool's
 * address the submit is sent again until one does ({@link LeaderWait}), and a submit whose
 * admission never comes (it went to a coordinator that died, or to a dead node the cluster has
 * not removed yet) is sent again with the same job id, a {@code DUPLICATE_JOB} answer to that
 * meaning the first was accepted. Stand-in coordinators on the test's own addresses play the
 * leaders.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReplyAddressFailoverTest {
  private static final Addresses POOL = new Addresses("failover");
  private ReplyAddress replies;

  @AfterEach
  void close() {
    if (replies != null) {
      join(replies.close());
    }
  }

  private ReplyAddress replies(Vertx vertx, long admissionTimeoutMs) {
    replies = new ReplyAddress(vertx, "failover", 20_000, admissionTimeoutMs);
    return replies;
  }

  private static Requests.Submit submit(String job) {
    return new Requests.Submit(job, new JsonObject().put("n", 1), null, null, 0);
  }

  private static Future<Outcome> outcome(ReplyAddress replies, String job, long leaderWaitMs) {
    Promise<Outcome> promise = Promise.promise();
    replies.submit(POOL, submit(job), leaderWaitMs, promise::complete, promise::fail);
    return promise.future();
  }

  /** A stand-in coordinator: hears each submit (its number from 0) and decides what to do. */
  private static List<JsonObject> coordinator(Vertx vertx,
      BiConsumer<Integer, Message<JsonObject>> onSubmit) {
    List<JsonObject> heard = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer(POOL.submit(), message -> {
      heard.add(message.body());
      onSubmit.accept(heard.size() - 1, message);
    }).completion());
    return heard;
  }

  private static JsonObject accepted(Message<JsonObject> message) {
    return new JsonObject().put("type", "accepted").put("job", message.body().getString("job"));
  }

  private static void answer(Vertx vertx, Message<JsonObject> message, Object result) {
    vertx.eventBus().send(message.body().getString("replyTo"), new JsonObject()
        .put("type", "completed").put("job", message.body().getString("job"))
        .put("result", result).put("worker", "w-0").put("attempts", 1));
  }

  @Test
  void A4_a_submit_while_no_coordinator_consumes_the_address_is_served_by_the_next_one(
      Vertx vertx) {
    Future<Outcome> pending = outcome(replies(vertx, 5_000), "during-failover", 10_000);
    // No leader for a while; then one claims the pool and consumes its address.
    vertx.setTimer(400, id -> coordinator(vertx, (n, message) -> {
      message.reply(accepted(message));
      answer(vertx, message, "from the new leader");
    }));

    assertThat(join(pending)).isEqualTo(
        new Outcome.Completed("during-failover", "from the new leader", "w-0", 1));
  }

  @Test
  void without_a_leader_wait_or_after_it_no_coordinator_is_NO_HANDLERS(Vertx vertx) {
    ReplyAddress address = replies(vertx, 5_000);

    for (long wait : new long[] {0, 300}) {
      assertThat(failure(outcome(address, "nobody-" + wait, wait)))
          .isInstanceOfSatisfying(ReplyException.class,
              e -> assertThat(e.failureType()).isEqualTo(ReplyFailure.NO_HANDLERS));
    }
    assertThat(address.waiting()).isZero();
  }

  @Test
  void A4_a_submit_whose_admission_never_came_is_sent_again_and_the_next_leader_admits_it(
      Vertx vertx) {
    List<JsonObject> heard = coordinator(vertx, (n, message) -> {
      if (n > 0) {
        message.reply(accepted(message));
        answer(vertx, message, "second try");
      }
      // The first is swallowed: the coordinator that held it died.
    });

    Outcome outcome = join(outcome(replies(vertx, 200), "lost-once", 0));

    assertThat(outcome).isEqualTo(new Outcome.Completed("lost-once", "second try", "w-0", 1));
    assertThat(heard).hasSize(2);
    assertThat(heard.get(1)).isEqualTo(heard.get(0));
  }

  @Test
  void A4_DUPLICATE_JOB_to_a_submit_sent_again_means_the_first_was_accepted_and_it_keeps_waiting(
      Vertx vertx) throws InterruptedException {
    List<Message<JsonObject>> first = new CopyOnWriteArrayList<>();
    coordinator(vertx, (n, message) -> {
      if (n == 0) {
        first.add(message);
      } else {
        message.reply(new JsonObject().put("type", "rejected").put("job", "slow-admission")
            .put("reason", "DUPLICATE_JOB").put("message", "already queued"));
      }
    });

    Future<Outcome> pending = outcome(replies(vertx, 200), "slow-admission", 0);
    await().until(() -> !first.isEmpty());
    Thread.sleep(600);
    assertThat(pending.isComplete()).as("a DUPLICATE_JOB answer to a retry is not an outcome")
        .isFalse();
    answer(vertx, first.get(0), "the first one ran");

    assertThat(join(pending)).isEqualTo(
        new Outcome.Completed("slow-admission", "the first one ran", "w-0", 1));
  }

  @Test
  void a_DUPLICATE_JOB_answer_to_a_first_submit_is_the_outcome(Vertx vertx) {
    coordinator(vertx, (n, message) -> message.reply(new JsonObject().put("type", "rejected")
        .put("job", "twice").put("reason", "DUPLICATE_JOB").put("message", "in flight")));

    Outcome outcome = join(outcome(replies(vertx, 5_000), "twice", 0));

    assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class,
        r -> assertThat(r.reason()).isEqualTo(RejectionReason.DUPLICATE_JOB));
  }

  @Test
  void the_leader_wait_sends_nothing_twice_to_a_coordinator_that_answers(Vertx vertx) {
    List<JsonObject> heard = coordinator(vertx, (n, message) -> {
      message.reply(accepted(message));
      answer(vertx, message, n);
    });

    for (int i = 0; i < 20; i++) {
      join(outcome(replies == null ? replies(vertx, 5_000) : replies, "once-" + i, 10_000));
    }

    assertThat(heard).hasSize(20);
  }
}
