package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.refused;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Protocol v1 over the event bus, end to end: admission (P3, P4, P15), rebalance (P5), cancel
 * (P17), and {@code replyTo} mode. Every body here is JSON on the wire, as a non-Java submitter
 * would send it.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BusProtocolEndToEndTest {

  private static Addresses at(String pool) {
    return Addresses.forPool(pool);
  }

  /** A bus submit whose reply (the terminal outcome, or the admission with replyTo) is pending. */
  private static Future<JsonObject> submit(Vertx vertx, String pool, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(at(pool).submit(), body,
        new DeliveryOptions().setSendTimeout(STEP.toMillis())).map(Message::body);
  }

  private static JsonObject job(String id, JsonObject payload) {
    return new JsonObject().put("job", id).put("payload", payload);
  }

  private static JsonObject keyed(String id, String key, JsonObject payload) {
    return job(id, payload).put("key", key);
  }

  /**
   * A payload that keeps its slot busy until the test cancels it ({@link #release}): what the
   * test sees next cannot depend on how fast a loaded machine runs it.
   */
  private static JsonObject hold() {
    return sleep(60_000);
  }

  /** Cancels a running {@link #hold()} job, whose sleep then ends and frees its slot. */
  private static void release(Vertx vertx, String pool, String job) {
    assertThat(request(vertx, at(pool).cancel(), new JsonObject().put("job", job))
        .getBoolean("cancelled")).isTrue();
  }

  @Nested
  class Admission {

    @Test
    void P3_a_full_backlog_rejects_BACKLOG_FULL_and_hands_the_payload_back(Vertx vertx) {
      deployReady(vertx, demoPool("p3", 1).put("backlogCapacity", 1));

      Future<JsonObject> running = submit(vertx, "p3", job("a", hold()));
      awaitStatus(vertx, "p3", running("w-0", "a"));
      Future<JsonObject> queued = submit(vertx, "p3", job("b", echo("b")));
      awaitStatus(vertx, "p3", s -> s.getJsonObject("backlog").getInteger("length") == 1);
      JsonObject rejected = request(vertx, at("p3").submit(), job("c", echo("mine")));

      assertThat(rejected.getString("type")).isEqualTo("rejected");
      assertThat(rejected.getString("job")).isEqualTo("c");
      assertThat(rejected.getString("reason")).isEqualTo("BACKLOG_FULL");
      assertThat(rejected.getJsonObject("payload")).isEqualTo(echo("mine"));
      assertThat(rejected.getString("message")).isNotBlank();
      release(vertx, "p3", "a");
      assertThat(join(running).getString("type")).isEqualTo("cancelled");
      assertThat(join(queued).getString("type")).isEqualTo("completed");
      JsonObject status = status(vertx, "p3");
      assertThat(counter(status, "rejected")).isEqualTo(1);
      assertThat(counter(status, "accepted")).isEqualTo(2);
      assertThat(status.getJsonObject("backlog")).isEqualTo(new JsonObject().put("length", 0)
          .put("capacity", 1).put("waiting", 0).putNull("nextDue"));
    }

    @Test
    void P3_a_zero_backlog_accepts_only_what_a_free_slot_takes_at_once(Vertx vertx) {
      deployReady(vertx, demoPool("zero", 1).put("backlogCapacity", 0));

      Future<JsonObject> running = submit(vertx, "zero", job("a", hold()));
      awaitStatus(vertx, "zero", running("w-0", "a"));
      JsonObject rejected = request(vertx, at("zero").submit(), job("b", echo(1)));

      assertThat(rejected.getString("reason")).isEqualTo("BACKLOG_FULL");
      release(vertx, "zero", "a");
      assertThat(join(running).getString("type")).isEqualTo("cancelled");
      awaitStatus(vertx, "zero", idleAt("w-0", 1));
      assertThat(request(vertx, at("zero").submit(), job("c", echo(1))).getString("type"))
          .isEqualTo("completed");
    }

    @Test
    void P15_a_duplicate_of_an_unanswered_job_is_rejected_and_the_id_is_free_again_after(
        Vertx vertx) {
      deployReady(vertx, demoPool("p15", 2));

      Future<JsonObject> first = submit(vertx, "p15", job("d", hold()));
      awaitStatus(vertx, "p15", s -> counter(s, "accepted") == 1);
      JsonObject duplicate = request(vertx, at("p15").submit(), job("d", echo("again")));

      assertThat(duplicate.getString("type")).isEqualTo("rejected");
      assertThat(duplicate.getString("reason")).isEqualTo("DUPLICATE_JOB");
      assertThat(duplicate.getJsonObject("payload")).isEqualTo(echo("again"));
      release(vertx, "p15", "d");
      assertThat(join(first).getString("type")).isEqualTo("cancelled");
      assertThat(request(vertx, at("p15").submit(), job("d", echo("reuse"))).getString("type"))
          .isEqualTo("completed");
    }

    @Test
    void P15_a_submit_without_an_id_gets_a_generated_one(Vertx vertx) {
      deployReady(vertx, demoPool("gen", 1));

      JsonObject one = request(vertx, at("gen").submit(), new JsonObject().put("payload", 1));
      JsonObject two = request(vertx, at("gen").submit(), new JsonObject().put("payload", 2));

      assertThat(one.getString("job")).isNotBlank();
      assertThat(two.getString("job")).isNotBlank().isNotEqualTo(one.getString("job"));
    }

    @Test
    void P3_null_for_optional_fields_means_absent(Vertx vertx) {
      deployReady(vertx, demoPool("nulls", 1));

      JsonObject outcome = request(vertx, at("nulls").submit(), new JsonObject()
          .put("job", null).put("payload", echo(5)).put("key", null).put("replyTo", null)
          .put("timeoutMs", null));

      assertThat(outcome.getString("type")).isEqualTo("completed");
      assertThat(outcome.getJsonObject("result").getInteger("echo")).isEqualTo(5);
    }
  }

  @Nested
  class Affinity {

    @Test
    void P4_every_job_of_a_key_runs_on_the_slot_its_first_admission_bound(Vertx vertx) {
      deployReady(vertx, demoPool("p4", 3));

      for (String key : new String[] {"alice", "bob", "carol", "dave"}) {
        String first = request(vertx, at("p4").submit(), keyed(key + "-0", key, echo(0)))
            .getString("worker");
        for (int i = 1; i < 4; i++) {
          JsonObject outcome = request(vertx, at("p4").submit(), keyed(key + "-" + i, key, echo(i)));
          assertThat(outcome.getString("worker")).as("job %s-%d", key, i).isEqualTo(first);
        }
      }
    }

    @Test
    void P5_rebalance_moves_later_jobs_and_accepted_jobs_keep_their_target(Vertx vertx) {
      deployReady(vertx, demoPool("p5", 2));
      assertThat(request(vertx, at("p5").rebalance(),
          new JsonObject().put("key", "k").put("worker", "w-0")))
          .isEqualTo(new JsonObject().put("key", "k").put("worker", "w-0"));

      Future<JsonObject> k1 = submit(vertx, "p5", keyed("k1", "k", hold()));
      awaitStatus(vertx, "p5", running("w-0", "k1"));
      Future<JsonObject> k2 = submit(vertx, "p5", keyed("k2", "k", echo(2)));
      awaitStatus(vertx, "p5", s -> s.getJsonObject("backlog").getInteger("length") == 1);
      request(vertx, at("p5").rebalance(), new JsonObject().put("key", "k").put("worker", "w-1"));
      JsonObject k3 = request(vertx, at("p5").submit(), keyed("k3", "k", echo(3)));

      assertThat(k3.getString("worker")).isEqualTo("w-1");
      assertThat(k2.isComplete()).as("k2 waits for w-0, the target it was admitted with").isFalse();
      release(vertx, "p5", "k1");
      assertThat(join(k1).getString("type")).isEqualTo("cancelled");
      assertThat(join(k2).getString("worker")).isEqualTo("w-0");
    }

    @Test
    void P5_rebalance_to_an_unknown_worker_is_refused_409_UNKNOWN_WORKER(Vertx vertx) {
      deployReady(vertx, demoPool("unknown", 1));

      ReplyException refusal = refused(vertx, at("unknown").rebalance(),
          new JsonObject().put("key", "k").put("worker", "w-9"));

      assertThat(refusal.failureCode()).isEqualTo(409);
      assertThat(refusal.getMessage()).startsWith("UNKNOWN_WORKER").contains("w-9");
    }
  }

  @Nested
  class Cancel {

    @Test
    void P17_cancel_removes_a_queued_job_and_answers_it_cancelled(Vertx vertx) {
      deployReady(vertx, demoPool("cq", 1));
      Future<JsonObject> busy = submit(vertx, "cq", job("busy", hold()));
      awaitStatus(vertx, "cq", running("w-0", "busy"));
      Future<JsonObject> queued = submit(vertx, "cq", job("q", echo(1)));
      awaitStatus(vertx, "cq", s -> s.getJsonObject("backlog").getInteger("length") == 1);

      JsonObject reply = request(vertx, at("cq").cancel(), new JsonObject().put("job", "q"));

      assertThat(reply).isEqualTo(new JsonObject().put("job", "q").put("cancelled", true));
      assertThat(join(queued)).isEqualTo(new JsonObject().put("type", "cancelled").put("job", "q"));
      assertThat(status(vertx, "cq").getJsonObject("backlog").getInteger("length")).isZero();
      release(vertx, "cq", "busy");
      assertThat(join(busy).getString("type")).isEqualTo("cancelled");
    }

    @Test
    void P17_cancel_answers_a_running_job_at_once_and_its_slot_frees_only_on_completion(
        Vertx vertx) {
      deployReady(vertx, demoPool("cr", 1));
      // A spin does not look for the cancel (a sleep would end early, freeing the slot at once).
      Future<JsonObject> running = submit(vertx, "cr", job("r",
          new JsonObject().put("spinMs", 600)));
      awaitStatus(vertx, "cr", running("w-0", "r"));

      JsonObject reply = request(vertx, at("cr").cancel(), new JsonObject().put("job", "r"));
      JsonObject answered = join(running);
      JsonObject whileRunning = status(vertx, "cr");
      Future<JsonObject> next = submit(vertx, "cr", job("next", echo(1)));

      assertThat(reply.getBoolean("cancelled")).isTrue();
      assertThat(answered).isEqualTo(new JsonObject().put("type", "cancelled").put("job", "r"));
      assertThat(slot(whileRunning, "w-0").getInteger("inFlight")).isEqualTo(1);
      assertThat(join(next).getString("type")).isEqualTo("completed");
      JsonObject after = status(vertx, "cr");
      assertThat(counter(after, "cancelled")).isEqualTo(1);
      assertThat(counter(after, "completed")).isEqualTo(1);
      assertThat(counter(after, "staleCompletions")).isZero();
    }

    @Test
    void P17_cancel_of_an_unknown_or_finished_job_answers_false(Vertx vertx) {
      deployReady(vertx, demoPool("cf", 1));
      request(vertx, at("cf").submit(), job("done", echo(1)));

      assertThat(request(vertx, at("cf").cancel(), new JsonObject().put("job", "done")))
          .isEqualTo(new JsonObject().put("job", "done").put("cancelled", false));
      assertThat(request(vertx, at("cf").cancel(), new JsonObject().put("job", "nope")))
          .isEqualTo(new JsonObject().put("job", "nope").put("cancelled", false));
      assertThat(counter(status(vertx, "cf"), "cancelled")).isZero();
    }
  }

  @Nested
  class ReplyTo {

    @Test
    void replyTo_mode_replies_the_admission_then_sends_the_terminal_outcome_there(Vertx vertx)
        throws InterruptedException {
      deployReady(vertx, demoPool("rt", 1).put("backlogCapacity", 0));
      LinkedBlockingQueue<JsonObject> inbox = new LinkedBlockingQueue<>();
      MessageConsumer<JsonObject> consumer =
          vertx.eventBus().consumer("test.outcomes", m -> inbox.add(m.body()));
      join(consumer.completion());

      JsonObject admission = request(vertx, at("rt").submit(),
          job("r1", sleep(200).put("echo", "x")).put("replyTo", "test.outcomes"));
      JsonObject rejection = request(vertx, at("rt").submit(),
          job("r2", echo("no room")).put("replyTo", "test.outcomes"));
      JsonObject terminal = inbox.poll(STEP.toMillis(), TimeUnit.MILLISECONDS);
      request(vertx, at("rt").submit(), job("r3", echo(3)).put("replyTo", "test.outcomes"));
      JsonObject next = inbox.poll(STEP.toMillis(), TimeUnit.MILLISECONDS);

      assertThat(admission).isEqualTo(new JsonObject().put("type", "accepted").put("job", "r1"));
      assertThat(rejection.getString("type")).isEqualTo("rejected");
      assertThat(rejection.getString("reason")).isEqualTo("BACKLOG_FULL");
      assertThat(terminal).isNotNull();
      assertThat(terminal.getString("type")).isEqualTo("completed");
      assertThat(terminal.getString("job")).isEqualTo("r1");
      assertThat(terminal.getJsonObject("result").getString("echo")).isEqualTo("x");
      assertThat(terminal.getInteger("attempts")).isEqualTo(1);
      // The rejection was the only answer r2 got: the next message is r3's.
      assertThat(next).isNotNull();
      assertThat(next.getString("job")).isEqualTo("r3");
      assertThat(inbox).isEmpty();
    }
  }
}
