package dev.shepherd.runtime;

import static dev.shepherd.runtime.JobsFixture.deployReady;
import static dev.shepherd.runtime.JobsFixture.quick;
import static dev.shepherd.runtime.JobsFixture.retryingPool;
import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.refused;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.Retention;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.JobWaiters;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.Responder;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Job lookup and waiting later, end to end (J6), through {@link PoolClient} handed straight to
 * the coordinator ({@code local}) and over the bus ({@code bus}), and through the raw {@code
 * <prefix>.job} address: a job is found QUEUED with its position, WAITING with its due time,
 * RUNNING with its slot and attempt, ANSWERED with its outcome until the ring forgets it; a
 * {@code wait=false} submitter collects the outcome later; waiters are bounded and always end.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JobLookupEndToEndTest {
  private static final String POOL = "look";

  private static PoolClient client(Vertx vertx, String via) {
    return via.equals("local") ? JobsFixture.local(vertx, POOL) : JobsFixture.overBus(vertx, POOL);
  }

  private static void admit(PoolClient client, String job, JsonObject payload) {
    assertThat(join(client.admit(JobRequest.of(payload).withJob(job))))
        .isEqualTo(new Outcome.Accepted(job));
  }

  private static JobView stateOf(PoolClient client, String job, JobView.JobState state) {
    await().atMost(STEP).until(() -> join(client.lookup(job)).state() == state);
    return join(client.lookup(job));
  }

  /** How many waiters the pool's coordinator holds, read on its context. */
  private static int waiters(Vertx vertx) {
    Coordinator coordinator = LocalPools.find(vertx, POOL);
    Promise<Integer> size = Promise.promise();
    coordinator.execute(() -> size.complete(coordinator.waiters().size()));
    return join(size.future());
  }

  private static String errorName(Throwable failure) {
    assertThat(failure).isInstanceOf(PoolErrorException.class);
    return ((PoolErrorException) failure).name();
  }

  @Nested
  class States {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_a_running_job_shows_its_slot_and_queued_ones_their_position(String via,
        Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1), quick());
      PoolClient client = client(vertx, via);
      admit(client, "run-1", sleep(3_000).put("echo", 1));
      stateOf(client, "run-1", JobView.JobState.RUNNING);
      admit(client, "q-1", echo(1));
      admit(client, "q-2", echo(2));

      JobView running = join(client.lookup("run-1"));
      JobView first = join(client.lookup("q-1"));
      JobView second = join(client.lookup("q-2"));

      assertThat(running).isEqualTo(new JobView("run-1", JobView.JobState.RUNNING, null, null,
          null, "w-0", 1, null, null, null));
      assertThat(first).isEqualTo(new JobView("q-1", JobView.JobState.QUEUED, null, 0, null,
          null, 0, null, null, null));
      assertThat(second.state()).isEqualTo(JobView.JobState.QUEUED);
      assertThat(second.position()).isEqualTo(1);
      join(client.cancel("run-1"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_a_delayed_job_shows_its_due_time(String via, Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1), quick());
      PoolClient client = client(vertx, via);
      Coordinator coordinator = LocalPools.find(vertx, POOL);
      long[] submittedAt = new long[1];
      // Until submit bodies carry "delayMs" (J4), the core's event says it.
      coordinator.execute(() -> {
        submittedAt[0] = coordinator.now();
        coordinator.apply(new PoolEvent.Submit("later", echo(1), "k1", (Responder) o -> { },
            0, 0, 60_000, null, submittedAt[0]));
      });

      JobView view = stateOf(client, "later", JobView.JobState.WAITING);

      assertThat(view.dueAt()).isEqualTo(submittedAt[0] + 60_000);
      assertThat(view.key()).isEqualTo("k1");
      assertThat(view.position()).isNull();
      assertThat(view.worker()).isNull();
      assertThat(join(client.cancel("later"))).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_a_suspect_waiting_out_its_retry_delay_shows_its_due_time(String via, Vertx vertx) {
      deployReady(vertx, retryingPool(POOL, 1),
          quick().withRetryBackoff(new Backoff(60_000, 1.0, 60_000, 0)));
      PoolClient client = client(vertx, via);
      long before = System.currentTimeMillis();
      admit(client, "suspect", crash());

      JobView view = stateOf(client, "suspect", JobView.JobState.WAITING);

      assertThat(view.dueAt()).isBetween(before + 60_000, System.currentTimeMillis() + 60_000);
      assertThat(view.attempts()).isEqualTo(1);
      assertThat(join(client.cancel("suspect"))).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_an_answered_job_is_remembered_until_the_ring_forgets_it(String via, Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1),
          quick().withRecentOutcomes(new Retention(2, 1L << 20)));
      PoolClient client = client(vertx, via);
      List<Outcome> outcomes = new ArrayList<>();
      for (String job : List.of("a-1", "a-2", "a-3")) {
        outcomes.add(join(client.outcome(JobRequest.of(echo(job)).withJob(job))));
      }

      JobView last = join(client.lookup("a-3"));

      assertThat(last.state()).isEqualTo(JobView.JobState.ANSWERED);
      assertThat(last.outcome()).isEqualTo(outcomes.get(2));
      assertThat(last.worker()).isEqualTo("w-0");
      assertThat(last.attempts()).isEqualTo(1);
      assertThat(last.at()).isPositive();
      assertThat(join(client.lookup("a-2")).state()).isEqualTo(JobView.JobState.ANSWERED);
      assertThat(errorName(failure(client.lookup("a-1")))).isEqualTo("UNKNOWN_JOB");
      assertThat(errorName(failure(client.lookup("never-seen")))).isEqualTo("UNKNOWN_JOB");
      assertThat(errorName(failure(client.await("a-1", 1_000)))).isEqualTo("UNKNOWN_JOB");
    }

    @Test
    void J6_the_bus_answers_a_lookup_with_the_fields_that_apply(Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1), quick());
      PoolClient client = JobsFixture.local(vertx, POOL);
      admit(client, "run-1", sleep(3_000));
      stateOf(client, "run-1", JobView.JobState.RUNNING);
      admit(client, "q-1", echo(1));
      Addresses a = Addresses.forPool(POOL);

      JsonObject running = request(vertx, a.job(), new JsonObject().put("job", "run-1"));
      JsonObject queued = request(vertx, a.job(), new JsonObject().put("job", "q-1")
          .put("wait", false));
      ReplyException unknown = refused(vertx, a.job(), new JsonObject().put("job", "nope"));

      assertThat(running).isEqualTo(new JsonObject().put("job", "run-1").put("state", "RUNNING")
          .put("worker", "w-0").put("attempts", 1));
      assertThat(queued).isEqualTo(new JsonObject().put("job", "q-1").put("state", "QUEUED")
          .put("position", 0).put("attempts", 0));
      assertThat(unknown.failureCode()).isEqualTo(404);
      assertThat(unknown.getMessage()).startsWith("UNKNOWN_JOB: ").contains("'nope'");
      join(client.cancel("run-1"));
    }
  }

  @Nested
  class Waiting {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_a_submitter_that_did_not_wait_collects_the_outcome_later(String via, Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1), quick());
      PoolClient client = client(vertx, via);
      admit(client, "later", sleep(300).put("echo", "done"));

      Outcome outcome = join(client.await("later"));
      Outcome again = join(client.await("later", 1));

      assertThat(outcome).isInstanceOfSatisfying(Outcome.Completed.class, c -> {
        assertThat(c.job()).isEqualTo("later");
        assertThat(((JsonObject) c.result()).getString("echo")).isEqualTo("done");
      });
      assertThat(again).as("an answered job's outcome comes at once").isEqualTo(outcome);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_a_wait_that_ends_first_fails_with_where_the_job_is(String via, Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1), quick());
      PoolClient client = client(vertx, via);
      admit(client, "slow", sleep(5_000));
      stateOf(client, "slow", JobView.JobState.RUNNING);

      Throwable failure = failure(client.await("slow", 100));

      assertThat(failure).isInstanceOfSatisfying(JobWaitTimeoutException.class, e -> {
        assertThat(e.view().state()).isEqualTo(JobView.JobState.RUNNING);
        assertThat(e.view().worker()).isEqualTo("w-0");
      });
      assertThat(failure(client.await("slow", 0))).isInstanceOf(BadRequest.class)
          .hasMessageStartingWith("timeoutMs");
      join(client.cancel("slow"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_a_waiter_gets_the_outcome_even_when_the_ring_keeps_nothing(String via,
        Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1),
          quick().withRecentOutcomes(new Retention(0, 1L << 20)));
      PoolClient client = client(vertx, via);
      admit(client, "fleeting", sleep(300));
      stateOf(client, "fleeting", JobView.JobState.RUNNING);

      Outcome outcome = join(client.await("fleeting"));

      assertThat(outcome).isInstanceOf(Outcome.Completed.class);
      assertThat(errorName(failure(client.lookup("fleeting")))).isEqualTo("UNKNOWN_JOB");
    }

    @Test
    void J6_the_bus_answers_a_wait_with_a_submits_outcome_body_or_the_view(Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1), quick());
      Addresses a = Addresses.forPool(POOL);
      JsonObject submitted = request(vertx, a.submit(), new JsonObject().put("job", "direct")
          .put("payload", echo(1)));
      admit(JobsFixture.local(vertx, POOL), "slow", sleep(5_000));

      JsonObject outcome = request(vertx, a.job(), new JsonObject().put("job", "direct")
          .put("wait", true));
      JsonObject view = request(vertx, a.job(), new JsonObject().put("job", "slow")
          .put("wait", true).put("timeoutMs", 100));

      assertThat(outcome).isEqualTo(submitted);
      assertThat(view.getString("state")).isIn("QUEUED", "RUNNING");
      assertThat(view.getBoolean("waited")).isTrue();
      join(JobsFixture.local(vertx, POOL).cancel("slow"));
    }

    @Test
    void J6_waiters_of_one_job_are_bounded_and_all_end_with_its_outcome(Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1), quick());
      PoolClient client = JobsFixture.local(vertx, POOL);
      admit(client, "popular", sleep(10_000));
      stateOf(client, "popular", JobView.JobState.RUNNING);
      Addresses a = Addresses.forPool(POOL);
      JsonObject wait = new JsonObject().put("job", "popular").put("wait", true);
      List<Future<Message<Object>>> waiting = new ArrayList<>();
      for (int i = 0; i < JobWaiters.MAX_PER_JOB; i++) {
        waiting.add(vertx.eventBus().request(a.job(), wait,
            new DeliveryOptions().setSendTimeout(STEP.toMillis())));
      }
      await().atMost(STEP).until(() -> waiters(vertx) == JobWaiters.MAX_PER_JOB);

      ReplyException refused = refused(vertx, a.job(), wait);
      Throwable fromClient = failure(client.await("popular"));
      assertThat(join(client.cancel("popular"))).isTrue();

      assertThat(refused.failureCode()).isEqualTo(429);
      assertThat(refused.getMessage()).startsWith("TOO_MANY_WAITERS: ")
          .contains(String.valueOf(JobWaiters.MAX_PER_JOB));
      assertThat(errorName(fromClient)).isEqualTo("TOO_MANY_WAITERS");
      for (Future<Message<Object>> w : waiting) {
        assertThat(((JsonObject) join(w).body()).getString("type")).isEqualTo("cancelled");
      }
      assertThat(join(client.await("popular", 1))).isEqualTo(new Outcome.Cancelled("popular"));
      assertThat(waiters(vertx)).isZero();
    }

    @Test
    void J6_a_waiter_ends_when_the_pool_stops(Vertx vertx) {
      String deployment = deployReady(vertx, demoPool(POOL, 1).put("drainTimeoutMs", 100),
          quick());
      PoolClient client = JobsFixture.overBus(vertx, POOL);
      admit(client, "held", new JsonObject().put("hang", true));
      stateOf(client, "held", JobView.JobState.RUNNING);
      Future<Outcome> waiting = client.await("held");
      await().atMost(STEP).until(() -> waiters(vertx) == 1);

      join(vertx.undeploy(deployment));

      assertThat(join(waiting)).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
          assertThat(i.reason()).isInstanceOf(Interruption.PoolStopped.class));
    }
  }
}
