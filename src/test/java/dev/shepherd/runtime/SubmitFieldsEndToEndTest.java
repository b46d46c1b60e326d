package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.addresses;
import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.fail;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.refused;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.ConfigException;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Section 10's submit fields end to end, over the bus and through {@link PoolClient}, in-JVM and
 * over the bus: a delayed submit (J4) is accepted at once, waits inside the bound and runs no
 * earlier than its delay; a submit's {@code retry} (J3) retries its failures field by field over
 * the pool's {@code retryFailures}; bad values are refused naming the field (400) and change
 * nothing. Order, not wall time, shows a delay: with one slot, a job submitted after a delayed
 * one and before its due time runs first.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SubmitFieldsEndToEndTest {
  /** Longer than any pause between two submits sent one after the other. */
  private static final long DELAY_MS = 1_000;

  private static JsonObject onePool(String name) {
    return demoPool(name, 1);
  }

  private static Future<JsonObject> busSubmit(Vertx vertx, String pool, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(addresses(pool).submit(), body,
        new DeliveryOptions().setSendTimeout(STEP.toMillis())).map(Message::body);
  }

  @Nested
  class DelayedSubmit {

    @Test
    void J4_a_delayed_job_runs_after_an_undelayed_one_submitted_after_it(Vertx vertx) {
      deployReady(vertx, onePool("later"));
      PoolClient client = PoolClient.create(vertx, "later");
      List<String> order = new CopyOnWriteArrayList<>();

      Future<Object> late = client.submit(JobRequest.of(echo("late")).withJob("late")
          .withDelayMs(DELAY_MS)).onSuccess(r -> order.add("late"));
      Future<Object> early = client.submit(JobRequest.of(echo("early")).withJob("early"))
          .onSuccess(r -> order.add("early"));
      join(Future.all(late, early));

      assertThat(order).containsExactly("early", "late");
      JsonObject status = status(vertx, "later");
      assertThat(counter(status, "accepted")).isEqualTo(2);
      assertThat(counter(status, "completed")).isEqualTo(2);
    }

    @Test
    void J4_over_the_bus_a_delayed_job_runs_after_one_submitted_after_it(Vertx vertx) {
      deployReady(vertx, onePool("busdelay"));
      List<String> order = new CopyOnWriteArrayList<>();

      Future<JsonObject> late = busSubmit(vertx, "busdelay", new JsonObject().put("job", "late")
          .put("payload", echo(1)).put("delayMs", DELAY_MS))
          .onSuccess(r -> order.add(r.getString("job")));
      Future<JsonObject> early = busSubmit(vertx, "busdelay", new JsonObject().put("job", "early")
          .put("payload", echo(2))).onSuccess(r -> order.add(r.getString("job")));
      join(Future.all(late, early));

      assertThat(late.result().getString("type")).isEqualTo("completed");
      assertThat(late.result().getInteger("attempts")).isEqualTo(1);
      assertThat(order).containsExactly("early", "late");
    }

    @Test
    void J4_a_delayed_job_is_accepted_at_once_waits_in_the_bound_and_can_be_cancelled(
        Vertx vertx) {
      deployReady(vertx, onePool("bound").put("backlogCapacity", 1));
      PoolClient client = PoolClient.create(vertx, "bound");

      Outcome admission = join(client.admit(JobRequest.of(echo(1)).withJob("w")
          .withDelayMs(600_000)));

      assertThat(admission).isEqualTo(new Outcome.Accepted("w"));
      JsonObject waiting = awaitStatus(vertx, "bound",
          s -> s.getJsonObject("backlog").getInteger("waiting") == 1);
      assertThat(waiting.getJsonObject("backlog").getLong("nextDue")).isNotNull();
      assertThat(join(client.admit(JobRequest.of(echo(2)).withJob("w2").withDelayMs(1))))
          .as("the waiting job holds the backlog's one place")
          .isInstanceOfSatisfying(Outcome.Rejected.class,
              r -> assertThat(r.reason()).isEqualTo(RejectionReason.BACKLOG_FULL));
      assertThat(join(client.cancel("w"))).isTrue();
      JsonObject after = status(vertx, "bound");
      assertThat(after.getJsonObject("backlog").getInteger("waiting")).isZero();
      assertThat(counter(after, "cancelled")).isEqualTo(1);
    }

    @Test
    void J4_a_delay_beyond_maxDelayMs_is_refused_by_the_pool_in_JVM_and_over_the_bus(
        Vertx vertx) {
      deployReady(vertx, onePool("limit").put("maxDelayMs", 1_000));
      JsonObject before = status(vertx, "limit");
      PoolClient local = PoolClient.create(vertx, "limit");
      PoolClient overBus = PoolClient.create(vertx, "limit", PoolClientOptions.defaults()
          .withReplies(PoolClientOptions.Replies.REPLY_ADDRESS));

      for (PoolClient client : List.of(local, overBus)) {
        assertThat(failure(client.submit(JobRequest.of(echo(1)).withDelayMs(1_001))))
            .isInstanceOf(BadRequest.class)
            .hasMessageStartingWith("delayMs: must be at most 1000");
      }
      assertThat(failure(local.admit(JobRequest.of(echo(1)).withDelayMs(1_001))))
          .isInstanceOf(BadRequest.class).hasMessageContaining("maxDelayMs");
      ReplyException bus = refused(vertx, addresses("limit").submit(),
          new JsonObject().put("payload", 1).put("delayMs", 1_001));
      assertThat(bus.failureCode()).isEqualTo(400);
      assertThat(bus.getMessage()).startsWith("delayMs:").contains("1000");
      assertThat(status(vertx, "limit")).isEqualTo(before);
      assertThat(join(local.submit(JobRequest.of(echo(3)).withDelayMs(1_000))))
          .as("the limit itself is allowed").isNotNull();
      join(overBus.close());
    }

    @Test
    void J4_a_negative_delay_is_refused_by_the_client(Vertx vertx) {
      deployReady(vertx, onePool("neg"));
      PoolClient client = PoolClient.create(vertx, "neg");

      assertThat(failure(client.submit(JobRequest.of(echo(1)).withDelayMs(-1))))
          .isInstanceOf(BadRequest.class).hasMessageStartingWith("delayMs:");
      assertThat(counter(status(vertx, "neg"), "accepted")).isZero();
    }
  }

  @Nested
  class FailureRetries {

    private static final Backoff NO_WAIT = Backoff.NONE;

    @Test
    void J3_a_submit_retries_its_failures_as_its_retry_says(Vertx vertx) {
      deployReady(vertx, onePool("again"));
      PoolClient client = PoolClient.create(vertx, "again");

      Outcome retried = join(client.outcome(JobRequest.of(fail("no")).withJob("r")
          .withRetry(3, NO_WAIT)));
      Outcome once = join(client.outcome(JobRequest.of(fail("no")).withJob("o")));

      assertThat(retried).isInstanceOfSatisfying(Outcome.Failed.class,
          f -> assertThat(f.attempts()).isEqualTo(3));
      assertThat(once).as("the pool answers failures at once by default")
          .isInstanceOfSatisfying(Outcome.Failed.class,
              f -> assertThat(f.attempts()).isEqualTo(1));
    }

    @Test
    void J3_an_override_replaces_the_pools_retryFailures_field_by_field(Vertx vertx) {
      deployReady(vertx, onePool("fields").put("retryFailures", new JsonObject()
          .put("maxAttempts", 2).put("backoff", new JsonObject().put("initialMs", 0))));
      PoolClient client = PoolClient.create(vertx, "fields");

      assertThat(attempts(client, JobRequest.of(fail("x")))).as("the pool's").isEqualTo(2);
      assertThat(attempts(client, JobRequest.of(fail("x")).withRetry(RetryOverride.attempts(1))))
          .as("its own attempts").isEqualTo(1);
      assertThat(attempts(client, JobRequest.of(fail("x")).withRetry(RetryOverride.attempts(4))))
          .as("its own attempts, the pool's backoff").isEqualTo(4);
      assertThat(attempts(client, JobRequest.of(fail("x")).withRetry(0, NO_WAIT)))
          .as("its own backoff, the pool's attempts").isEqualTo(2);
    }

    @Test
    void J3_over_the_bus_a_submits_retry_is_honoured(Vertx vertx) {
      deployReady(vertx, onePool("busretry"));

      JsonObject answer = join(busSubmit(vertx, "busretry", new JsonObject()
          .put("payload", fail("down")).put("retry", new JsonObject().put("maxAttempts", 3)
              .put("backoff", new JsonObject().put("initialMs", 0)))));

      assertThat(answer.getString("type")).isEqualTo("failed");
      assertThat(answer.getInteger("attempts")).isEqualTo(3);
    }

    @Test
    void J3_a_retry_through_the_clients_reply_address_is_honoured(Vertx vertx) {
      deployReady(vertx, onePool("replyretry"));
      PoolClient client = PoolClient.create(vertx, "replyretry", PoolClientOptions.defaults()
          .withReplies(PoolClientOptions.Replies.REPLY_ADDRESS));

      assertThat(attempts(client, JobRequest.of(fail("x")).withRetry(2, NO_WAIT)))
          .isEqualTo(2);
      join(client.close());
    }

    @Test
    void J3_bad_retries_are_refused_naming_the_field(Vertx vertx) {
      deployReady(vertx, onePool("badretry"));
      PoolClient client = PoolClient.create(vertx, "badretry");

      assertThat(failure(client.submit(JobRequest.of(echo(1))
          .withRetry(new RetryOverride(-1, null)))))
          .isInstanceOf(BadRequest.class).hasMessageStartingWith("retry.maxAttempts:");
      assertThat(failure(client.submit(JobRequest.of(echo(1))
          .withRetry(new RetryOverride(2_000_000, null)))))
          .isInstanceOf(BadRequest.class).hasMessageStartingWith("retry.maxAttempts:");
      assertThatThrownBy(() -> new Backoff(100, 0.5, 1_000, 0.0))
          .as("a backoff checks itself when it is made")
          .isInstanceOf(ConfigException.class).hasMessageContaining("multiplier");
      assertThat(counter(status(vertx, "badretry"), "accepted")).isZero();
    }

    private int attempts(PoolClient client, JobRequest request) {
      Outcome outcome = join(client.outcome(request));
      assertThat(outcome).isInstanceOf(Outcome.Failed.class);
      return ((Outcome.Failed) outcome).attempts();
    }
  }
}
