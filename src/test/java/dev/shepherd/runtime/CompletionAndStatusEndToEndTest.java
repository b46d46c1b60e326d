package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.refused;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Completions reported over the bus ({@code .completed}, the remote-slot transport) against real
 * local slots (P8): live, stale, duplicate, after a replacement; and the status snapshot's fields
 * as section 7 lists them.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CompletionAndStatusEndToEndTest {

  private static Future<Outcome> submit(Vertx vertx, String pool, String job, JsonObject payload) {
    return PoolClient.create(vertx, pool).outcome(JobRequest.of(payload).withJob(job));
  }

  private static long token(JsonObject status, String worker) {
    JsonArray assignments = slot(status, worker).getJsonArray("assignments");
    assertThat(assignments).hasSize(1);
    return assignments.getJsonObject(0).getLong("assignment");
  }

  private static JsonObject completion(String worker, long assignment, Object result) {
    return new JsonObject().put("worker", worker).put("assignment", assignment)
        .put("result", result);
  }

  @Nested
  class Completions {

    @Test
    void P8_a_completion_for_a_slot_holding_nothing_is_refused_COMPLETION_FOR_UNAVAILABLE_WORKER(
        Vertx vertx) {
      deployReady(vertx, demoPool("idle", 1));

      ReplyException refusal = refused(vertx, Addresses.forPool("idle").completed(),
          completion("w-0", 12345, "ghost"));

      assertThat(refusal.failureCode()).isEqualTo(409);
      assertThat(refusal.getMessage()).startsWith("COMPLETION_FOR_UNAVAILABLE_WORKER:");
      assertThat(counter(status(vertx, "idle"), "staleCompletions")).isEqualTo(1);
    }

    @Test
    void P8_a_completion_with_the_wrong_token_is_refused_STALE_COMPLETION_and_changes_nothing(
        Vertx vertx) {
      deployReady(vertx, demoPool("stale", 1));
      Future<Outcome> job = submit(vertx, "stale", "j", sleep(300).put("echo", "real"));
      long live = token(awaitStatus(vertx, "stale", running("w-0", "j")), "w-0");

      ReplyException refusal = refused(vertx, Addresses.forPool("stale").completed(),
          completion("w-0", live + 1000, "forged"));

      assertThat(refusal.failureCode()).isEqualTo(409);
      assertThat(refusal.getMessage()).startsWith("STALE_COMPLETION:")
          .contains(String.valueOf(live)).contains(String.valueOf(live + 1000));
      assertThat(join(job)).isInstanceOfSatisfying(Outcome.Completed.class,
          c -> assertThat(((JsonObject) c.result()).getString("echo")).isEqualTo("real"));
      JsonObject status = status(vertx, "stale");
      assertThat(counter(status, "staleCompletions")).isEqualTo(1);
      assertThat(counter(status, "completed")).isEqualTo(1);
    }

    @Test
    void P8_a_completion_with_an_old_token_after_a_replacement_is_refused_and_counted(
        Vertx vertx) {
      deployReady(vertx, demoPool("old", 1));
      Future<Outcome> doomed = submit(vertx, "old", "doomed", sleep(200).put("crash", true));
      long old = token(awaitStatus(vertx, "old", running("w-0", "doomed")), "w-0");
      assertThat(join(doomed)).isInstanceOf(Outcome.Interrupted.class);
      awaitStatus(vertx, "old", idleAt("w-0", 2));

      ReplyException whileIdle = refused(vertx, Addresses.forPool("old").completed(),
          completion("w-0", old, "late"));
      Future<Outcome> next = submit(vertx, "old", "next", sleep(300));
      long current = token(awaitStatus(vertx, "old", running("w-0", "next")), "w-0");
      ReplyException whileBusy = refused(vertx, Addresses.forPool("old").completed(),
          completion("w-0", old, "late again"));

      assertThat(whileIdle.failureCode()).isEqualTo(409);
      assertThat(whileIdle.getMessage()).startsWith("COMPLETION_FOR_UNAVAILABLE_WORKER");
      assertThat(whileBusy.failureCode()).isEqualTo(409);
      assertThat(whileBusy.getMessage()).startsWith("STALE_COMPLETION");
      assertThat(current).isGreaterThan(old);
      assertThat(join(next)).isInstanceOf(Outcome.Completed.class);
      JsonObject status = status(vertx, "old");
      assertThat(counter(status, "staleCompletions")).isEqualTo(2);
      assertThat(counter(status, "interrupted")).isEqualTo(1);
      assertThat(counter(status, "completed")).isEqualTo(1);
    }

    @Test
    void P8_the_live_token_over_the_bus_answers_the_submitter_once_and_the_worker_result_is_stale(
        Vertx vertx) {
      deployReady(vertx, demoPool("remote", 1));
      Future<Outcome> job = submit(vertx, "remote", "j", sleep(300));
      long live = token(awaitStatus(vertx, "remote", running("w-0", "j")), "w-0");

      JsonObject ok = request(vertx, Addresses.forPool("remote").completed(),
          completion("w-0", live, new JsonObject().put("from", "bus")));
      ReplyException duplicate = refused(vertx, Addresses.forPool("remote").completed(),
          completion("w-0", live, new JsonObject().put("from", "bus again")));

      assertThat(ok).isEqualTo(new JsonObject());
      assertThat(duplicate.failureCode()).isEqualTo(409);
      assertThat(join(job)).isEqualTo(
          new Outcome.Completed("j", new JsonObject().put("from", "bus"), "w-0", 1));
      // The incarnation's own answer arrives later and is counted, never delivered.
      JsonObject status = awaitStatus(vertx, "remote", s -> counter(s, "staleCompletions") == 2);
      assertThat(counter(status, "completed")).isEqualTo(1);
    }

    @Test
    void P8_an_error_completion_answers_failed_with_its_code_and_message(Vertx vertx) {
      deployReady(vertx, demoPool("err", 1));
      Future<Outcome> job = submit(vertx, "err", "j", sleep(300));
      long live = token(awaitStatus(vertx, "err", running("w-0", "j")), "w-0");

      request(vertx, Addresses.forPool("err").completed(), new JsonObject().put("worker", "w-0")
          .put("assignment", live)
          .put("error", new JsonObject().put("code", 418).put("message", "teapot")));

      assertThat(join(job)).isEqualTo(new Outcome.Failed("j", new JobError(418, "teapot"), "w-0", 1));
    }

    @Test
    void P8_a_completion_for_an_unknown_worker_is_refused_UNKNOWN_WORKER(Vertx vertx) {
      deployReady(vertx, demoPool("who", 1));

      ReplyException refusal = refused(vertx, Addresses.forPool("who").completed(),
          completion("w-7", 1, "x"));

      assertThat(refusal.failureCode()).isEqualTo(409);
      assertThat(refusal.getMessage()).startsWith("UNKNOWN_WORKER").contains("w-7");
    }
  }

  @Nested
  class Status {

    @Test
    void status_snapshot_has_every_field_tests_rely_on(Vertx vertx) {
      deployReady(vertx, demoPool("snap", 2).put("backlogCapacity", 7));
      run(vertx, "snap", echo(1));
      run(vertx, "snap", PoolFixture.fail("no"));
      Future<Outcome> busy = submit(vertx, "snap", "busy", sleep(500));

      JsonObject status = awaitStatus(vertx, "snap", running("w-0", "busy"));

      assertThat(status.fieldNames())
          .contains("name", "state", "backlog", "slots", "counters", "budget", "hosts");
      assertThat(status.getString("name")).isEqualTo("snap");
      assertThat(status.getString("state")).isEqualTo("RUNNING");
      assertThat(status.getJsonObject("backlog"))
          .isEqualTo(new JsonObject().put("length", 0).put("capacity", 7).put("waiting", 0)
              .putNull("nextDue"));
      assertThat(status.getJsonArray("slots")).hasSize(2);
      JsonObject assigned = slot(status, "w-0");
      assertThat(assigned.fieldNames()).containsExactlyInAnyOrder("id", "phase", "capacity",
          "inFlight", "assignments", "incarnation", "restarts", "retirement", "backoffUntil",
          "host");
      assertThat(assigned.getString("phase")).isEqualTo("ASSIGNED");
      assertThat(assigned.getInteger("capacity")).isEqualTo(1);
      assertThat(assigned.getInteger("inFlight")).isEqualTo(1);
      assertThat(assigned.getJsonArray("assignments")).hasSize(1);
      JsonObject assignment = assigned.getJsonArray("assignments").getJsonObject(0);
      assertThat(assignment.fieldNames()).containsExactlyInAnyOrder("assignment", "job");
      assertThat(assignment.getString("job")).isEqualTo("busy");
      assertThat(assignment.getValue("assignment")).isInstanceOf(Number.class);
      assertThat(assigned.getInteger("incarnation")).isEqualTo(1);
      assertThat(assigned.getInteger("restarts")).isZero();
      assertThat(assigned.getValue("retirement")).isNull();
      assertThat(assigned.getValue("backoffUntil")).isNull();
      JsonObject idle = slot(status, "w-1");
      assertThat(idle.getString("phase")).isEqualTo("IDLE");
      assertThat(idle.getInteger("inFlight")).isZero();
      assertThat(idle.getJsonArray("assignments")).isEmpty();
      JsonObject counters = status.getJsonObject("counters");
      assertThat(counters.fieldNames()).contains("accepted", "rejected", "completed", "failed",
          "interrupted", "cancelled", "retried", "restarts", "staleCompletions");
      assertThat(counters.getLong("accepted")).isEqualTo(3);
      assertThat(counters.getLong("completed")).isEqualTo(1);
      assertThat(counters.getLong("failed")).isEqualTo(1);
      JsonObject budget = status.getJsonObject("budget");
      assertThat(budget.fieldNames())
          .containsExactlyInAnyOrder("restartsInWindow", "maxRestarts", "windowMs");
      assertThat(budget.getInteger("restartsInWindow")).isZero();
      assertThat(budget.getInteger("maxRestarts")).isEqualTo(100);
      assertThat(budget.getLong("windowMs")).isEqualTo(10_000);
      join(busy);
    }

    @Test
    void status_in_JVM_and_over_the_bus_are_the_same_snapshot(Vertx vertx) {
      deployReady(vertx, demoPool("same", 2));
      run(vertx, "same", crash());
      awaitStatus(vertx, "same", idleAt("w-0", 2));

      JsonObject local = join(PoolClient.create(vertx, "same").status());
      JsonObject bus = status(vertx, "same");

      assertThat(local).isEqualTo(bus);
      assertThat(slot(bus, "w-0").getInteger("restarts")).isEqualTo(1);
      assertThat(bus.getJsonObject("budget").getInteger("restartsInWindow")).isEqualTo(1);
    }

    @Test
    void status_request_needs_no_fields(Vertx vertx) {
      deployReady(vertx, demoPool("empty", 1));

      JsonObject status = join(vertx.eventBus().<JsonObject>request(
          Addresses.forPool("empty").status(), null,
          new io.vertx.core.eventbus.DeliveryOptions().setSendTimeout(STEP.toMillis()))).body();

      assertThat(status.getString("name")).isEqualTo("empty");
    }
  }
}
