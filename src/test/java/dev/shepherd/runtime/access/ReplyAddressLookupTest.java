package dev.shepherd.runtime.access;

import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Outcome;
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
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A submit whose outcome never reached its reply address (A4: the submitter's member was cut off
 * from the cluster while the pool answered) asks the pool once at its deadline where the job is
 * (J6), and an outcome the pool sent answers it; anything else ends it with the timeout as before.
 * A stand-in coordinator accepts each submit and never sends the outcome; its {@code .job}
 * consumer plays the lookup.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReplyAddressLookupTest {
  private static final Addresses POOL = new Addresses("lost");
  private ReplyAddress replies;

  @AfterEach
  void close() {
    if (replies != null) {
      join(replies.close());
    }
  }

  /** Submits {@code job} through a reply address whose submits wait 300 ms. */
  private Future<Outcome> submit(Vertx vertx, String job) {
    if (replies == null) {
      replies = new ReplyAddress(vertx, "lost", 300, 5_000);
    }
    Promise<Outcome> promise = Promise.promise();
    replies.submit(POOL, new Requests.Submit(job, new JsonObject().put("n", 1), null, null, 0), 0,
        promise::complete, promise::fail);
    return promise.future();
  }

  /** A coordinator that accepts every submit and whose outcomes are lost on their way. */
  private static void acceptsAndLosesTheOutcome(Vertx vertx) {
    join(vertx.eventBus().<JsonObject>consumer(POOL.submit(), message -> message.reply(
        new JsonObject().put("type", "accepted").put("job", message.body().getString("job"))))
        .completion());
  }

  /** The pool's lookups, each answered by {@code answer}; returns the job ids asked for. */
  private static List<String> lookups(Vertx vertx, Consumer<Message<JsonObject>> answer) {
    List<String> asked = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer(POOL.job(), message -> {
      asked.add(message.body().getString("job"));
      answer.accept(message);
    }).completion());
    return asked;
  }

  private static void assertTimedOut(Future<Outcome> pending) {
    assertThat(failure(pending)).isInstanceOfSatisfying(ReplyException.class,
        e -> assertThat(e.failureType()).isEqualTo(ReplyFailure.TIMEOUT));
  }

  @Test
  void A4_an_outcome_lost_on_its_way_is_found_by_the_lookup_at_the_deadline(Vertx vertx) {
    acceptsAndLosesTheOutcome(vertx);
    List<String> asked = lookups(vertx, message -> message.reply(new JsonObject()
        .put("job", "lost-answer").put("state", "ANSWERED")
        .put("outcome", new JsonObject().put("type", "completed").put("job", "lost-answer")
            .put("result", "ran").put("worker", "w-1").put("attempts", 1))));

    Outcome outcome = join(submit(vertx, "lost-answer"));

    assertThat(outcome).isEqualTo(new Outcome.Completed("lost-answer", "ran", "w-1", 1));
    assertThat(asked).containsExactly("lost-answer");
    assertThat(replies.waiting()).isZero();
  }

  @Test
  void A4_a_job_still_running_at_the_deadline_times_out_as_before(Vertx vertx) {
    acceptsAndLosesTheOutcome(vertx);
    List<String> asked = lookups(vertx, message -> message.reply(new JsonObject()
        .put("job", "slow").put("state", "RUNNING").put("slot", "w-0")));

    assertTimedOut(submit(vertx, "slow"));
    assertThat(asked).containsExactly("slow");
  }

  @Test
  void J6_a_lookup_that_fails_or_answers_nonsense_ends_the_submit_with_the_timeout(Vertx vertx) {
    acceptsAndLosesTheOutcome(vertx);
    lookups(vertx, message -> {
      switch (message.body().getString("job")) {
        case "unknown" -> message.fail(404, "UNKNOWN_JOB");
        case "no-outcome" -> message.reply(new JsonObject().put("state", "ANSWERED"));
        case "bad-outcome" -> message.reply(new JsonObject().put("state", "ANSWERED")
            .put("outcome", new JsonObject().put("type", "exploded")));
        case "admission" -> message.reply(new JsonObject().put("state", "ANSWERED")
            .put("outcome", new JsonObject().put("type", "accepted").put("job", "admission")));
        case "not-json" -> message.reply("ANSWERED");
        default -> { } // no answer: the lookup's own timeout
      }
    });

    for (String job : new String[] {"unknown", "no-outcome", "bad-outcome", "admission",
        "not-json", "silent"}) {
      assertTimedOut(submit(vertx, job));
    }
    assertThat(replies.waiting()).isZero();
  }

  @Test
  void with_no_pool_to_ask_the_submit_times_out_as_before(Vertx vertx) {
    acceptsAndLosesTheOutcome(vertx);

    assertTimedOut(submit(vertx, "nobody-to-ask"));
  }

  @Test
  void an_outcome_that_arrives_during_the_lookup_answers_the_submit_once(Vertx vertx) {
    List<Message<JsonObject>> submits = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer(POOL.submit(), message -> {
      submits.add(message);
      message.reply(new JsonObject().put("type", "accepted").put("job", "late"));
    }).completion());
    JsonObject completed = new JsonObject().put("type", "completed").put("job", "late")
        .put("result", "once").put("worker", "w-0").put("attempts", 1);
    // The lookup finds the job answered, and the outcome itself arrives before its reply.
    lookups(vertx, message -> {
      vertx.eventBus().send(submits.get(0).body().getString("replyTo"), completed);
      vertx.setTimer(50, id -> message.reply(new JsonObject().put("state", "ANSWERED")
          .put("outcome", completed)));
    });
    List<Outcome> heard = new CopyOnWriteArrayList<>();
    Promise<Outcome> first = Promise.promise();
    replies = new ReplyAddress(vertx, "lost", 300, 5_000);
    replies.submit(POOL, new Requests.Submit("late", new JsonObject(), null, null, 0), 0,
        outcome -> {
          heard.add(outcome);
          first.tryComplete(outcome);
        }, first::tryFail);

    assertThat(join(first.future())).isEqualTo(new Outcome.Completed("late", "once", "w-0", 1));
    join(Future.future(p -> vertx.setTimer(300, id -> p.complete())));
    assertThat(heard).hasSize(1);
  }
}
