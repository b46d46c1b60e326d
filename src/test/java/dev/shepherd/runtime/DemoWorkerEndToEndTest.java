package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deploy;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.exit;
import static dev.shepherd.runtime.PoolFixture.fail;
import static dev.shepherd.runtime.PoolFixture.hang;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.seedRules;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.status;
import static dev.shepherd.runtime.PoolFixture.supervision;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.core.Retirement;
import dev.shepherd.testworkers.FlakyWorker;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every behaviour of the demo worker, end to end through a real {@link PoolVerticle} with real
 * incarnations, on both the EVENT_LOOP and the WORKER threading model: what the submitter is told,
 * and what happens to the slot (P8, P9, P13, P14, S1).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DemoWorkerEndToEndTest {

  private static JsonObject pool(String threading, int instances) {
    JsonObject config = demoPool("demo", instances);
    worker(config).put("threading", threading);
    return config;
  }

  private static JsonObject result(String worker, int incarnation, Object echo) {
    return new JsonObject().put("worker", worker).put("incarnation", incarnation).put("echo", echo);
  }

  @Nested
  class Completing {

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
    void P8_echo_completes_with_slot_incarnation_and_echo(String threading, Vertx vertx) {
      deploy(vertx, pool(threading, 1));

      Outcome outcome = run(vertx, "demo", JobRequest.of(echo("hi")).withJob("j1"));

      assertThat(outcome).isEqualTo(new Outcome.Completed("j1", result("w-0", 1, "hi"), "w-0", 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
    void P8_sleep_completes_after_at_least_the_sleep(String threading, Vertx vertx) {
      deployReady(vertx, pool(threading, 1));
      long start = System.nanoTime();

      Outcome outcome = run(vertx, "demo", JobRequest.of(sleep(200).put("echo", 7)).withJob("s"));

      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(200);
      assertThat(outcome).isEqualTo(new Outcome.Completed("s", result("w-0", 1, 7), "w-0", 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
    void P8_spin_completes(String threading, Vertx vertx) {
      deploy(vertx, pool(threading, 1));

      Outcome outcome = run(vertx, "demo",
          JobRequest.of(new JsonObject().put("spinMs", 50)).withJob("spin"));

      assertThat(outcome).isEqualTo(new Outcome.Completed("spin", result("w-0", 1, null), "w-0", 1));
    }

    @Test
    void P8_a_payload_that_is_not_an_object_is_echoed(Vertx vertx) {
      deploy(vertx, pool("WORKER", 1));

      Outcome outcome = run(vertx, "demo", JobRequest.of(42).withJob("n"));

      assertThat(outcome).isEqualTo(new Outcome.Completed("n", result("w-0", 1, 42), "w-0", 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
    void P8_fail_answers_failed_and_the_worker_stays_healthy(String threading, Vertx vertx) {
      deployReady(vertx, pool(threading, 1));

      Outcome outcome = run(vertx, "demo", JobRequest.of(fail("boom")).withJob("f"));
      Outcome next = run(vertx, "demo", JobRequest.of(echo(1)).withJob("after"));

      assertThat(outcome).isEqualTo(new Outcome.Failed("f", new JobError(500, "boom"), "w-0", 1));
      assertThat(next).isEqualTo(new Outcome.Completed("after", result("w-0", 1, 1), "w-0", 1));
      JsonObject status = status(vertx, "demo");
      assertThat(slot(status, "w-0").getInteger("restarts")).isZero();
      assertThat(counter(status, "failed")).isEqualTo(1);
      assertThat(counter(status, "completed")).isEqualTo(1);
    }
  }

  @Nested
  class Crashing {

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
    void P9_fail_policy_answers_a_crash_interrupted_with_the_payload_and_replaces_the_slot(
        String threading, Vertx vertx) {
      deployReady(vertx, pool(threading, 1));
      JsonObject payload = crash().put("sleepMs", 50);

      Outcome outcome = run(vertx, "demo", JobRequest.of(payload).withJob("c"));

      assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i -> {
        assertThat(i.job()).isEqualTo("c");
        assertThat(i.payload()).isEqualTo(payload);
        assertThat(i.attempts()).isEqualTo(1);
        assertThat(i.reason()).isInstanceOfSatisfying(Interruption.WorkerStopped.class, w -> {
          assertThat(w.worker()).isEqualTo("w-0");
          assertThat(w.exit()).isEqualTo(Exit.CRASH);
          assertThat(w.cause()).contains("crash requested by job c");
        });
      });
      JsonObject status = awaitStatus(vertx, "demo", idleAt("w-0", 2));
      assertThat(slot(status, "w-0").getInteger("restarts")).isEqualTo(1);
      assertThat(counter(status, "restarts")).isEqualTo(1);
      assertThat(run(vertx, "demo", JobRequest.of(echo("again")).withJob("n")))
          .isEqualTo(new Outcome.Completed("n", result("w-0", 2, "again"), "w-0", 1));
    }

    @Test
    void P9_retry_crash_runs_job_on_another_worker(Vertx vertx) {
      JsonObject config = seedRules(pool("WORKER", 2)).put("interruption", "RETRY");
      worker(config).put("class", FlakyWorker.class.getName());
      deployReady(vertx, config);

      Outcome outcome = run(vertx, "demo",
          JobRequest.of(new JsonObject().put("crashAttempts", 1)).withJob("r"));

      // The first attempt crashed w-0; w-0 was installing its replacement, so w-1 ran it.
      assertThat(outcome).isEqualTo(new Outcome.Completed("r",
          new JsonObject().put("worker", "w-1").put("incarnation", 1).put("attempt", 2), "w-1", 2));
      JsonObject status = awaitStatus(vertx, "demo", idleAt("w-0", 2));
      assertThat(counter(status, "retried")).isEqualTo(1);
      assertThat(counter(status, "interrupted")).isZero();
    }

    @Test
    void P9_retry_puts_the_interrupted_job_first_in_line(Vertx vertx) {
      JsonObject config = seedRules(pool("WORKER", 1)).put("interruption", "RETRY");
      worker(config).put("class", FlakyWorker.class.getName());
      deployReady(vertx, config);
      PoolClient client = PoolClient.create(vertx, "demo");
      List<String> order = new CopyOnWriteArrayList<>();

      var first = client.submit(JobRequest.of(new JsonObject().put("crashAttempts", 1)
          .put("delayMs", 200)).withJob("first")).onSuccess(r -> order.add("first"));
      var second = client.submit(JobRequest.of(new JsonObject()).withJob("second"))
          .onSuccess(r -> order.add("second"));
      var third = client.submit(JobRequest.of(new JsonObject()).withJob("third"))
          .onSuccess(r -> order.add("third"));
      PoolFixture.join(io.vertx.core.Future.all(first, second, third));

      assertThat(order).containsExactly("first", "second", "third");
      assertThat(((JsonObject) first.result()).getInteger("attempt")).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
    void P13_retry_answers_a_job_that_always_crashes_attempts_exhausted(String threading,
        Vertx vertx) {
      JsonObject config = seedRules(pool(threading, 2)).put("interruption", "RETRY")
          .put("maxAttempts", 3);
      deployReady(vertx, config);

      Outcome outcome = run(vertx, "demo", JobRequest.of(crash()).withJob("poison"));

      assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i -> {
        assertThat(i.attempts()).isEqualTo(3);
        assertThat(i.payload()).isEqualTo(crash());
        assertThat(i.reason()).isInstanceOfSatisfying(Interruption.AttemptsExhausted.class, a -> {
          assertThat(a.attempts()).isEqualTo(3);
          assertThat(a.last()).isInstanceOfSatisfying(Interruption.WorkerStopped.class,
              w -> assertThat(w.exit()).isEqualTo(Exit.CRASH));
        });
      });
      JsonObject status = status(vertx, "demo");
      assertThat(counter(status, "retried")).isEqualTo(2);
      assertThat(counter(status, "restarts")).isEqualTo(3);
    }
  }

  @Nested
  class Hanging {

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
    void P14_a_hung_job_past_the_pool_timeout_stops_the_slot_with_exit_TIMEOUT(String threading,
        Vertx vertx) {
      deployReady(vertx, pool(threading, 1).put("jobTimeoutMs", 300));

      Outcome outcome = run(vertx, "demo", JobRequest.of(hang()).withJob("h"));

      assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i -> {
        assertThat(i.payload()).isEqualTo(hang());
        assertThat(i.reason()).isInstanceOfSatisfying(Interruption.WorkerStopped.class, w -> {
          assertThat(w.worker()).isEqualTo("w-0");
          assertThat(w.exit()).isEqualTo(Exit.TIMEOUT);
          assertThat(w.cause()).contains("300 ms");
        });
      });
      awaitStatus(vertx, "demo", idleAt("w-0", 2));
      assertThat(run(vertx, "demo", JobRequest.of(echo(1)).withJob("n")))
          .isEqualTo(new Outcome.Completed("n", result("w-0", 2, 1), "w-0", 1));
    }

    @Test
    void P14_a_submit_timeout_overrides_the_pool_timeout(Vertx vertx) {
      deployReady(vertx, pool("WORKER", 1).put("jobTimeoutMs", 10_000));

      Outcome outcome = run(vertx, "demo", JobRequest.of(hang()).withJob("h").withTimeoutMs(200));

      assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
          assertThat(i.reason()).isInstanceOfSatisfying(Interruption.WorkerStopped.class, w -> {
            assertThat(w.exit()).isEqualTo(Exit.TIMEOUT);
            assertThat(w.cause()).contains("200 ms");
          }));
    }

    @Test
    void P14_a_blocked_worker_is_replaced_at_the_timeout_and_its_late_completion_is_counted_stale(
        Vertx vertx) {
      deployReady(vertx, pool("WORKER", 1).put("jobTimeoutMs", 200));

      Outcome outcome = run(vertx, "demo", JobRequest.of(sleep(800)).withJob("slow"));

      assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
          assertThat(((Interruption.WorkerStopped) i.reason()).exit()).isEqualTo(Exit.TIMEOUT));
      JsonObject status = awaitStatus(vertx, "demo",
          s -> counter(s, "staleCompletions") == 1 && idleAt("w-0", 2).test(s));
      assertThat(counter(status, "completed")).isZero();
      assertThat(counter(status, "interrupted")).isEqualTo(1);
    }
  }

  @Nested
  class Exiting {

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
    void S1_permanent_replaces_a_slot_whose_worker_exited_normally(String threading, Vertx vertx) {
      JsonObject config = pool(threading, 1);
      supervision(config).put("policy", "PERMANENT");
      deployReady(vertx, config);

      Outcome outcome = run(vertx, "demo", JobRequest.of(exit()).withJob("x"));

      assertThat(outcome).isEqualTo(new Outcome.Completed("x", result("w-0", 1, null), "w-0", 1));
      JsonObject status = awaitStatus(vertx, "demo", idleAt("w-0", 2));
      assertThat(slot(status, "w-0").getInteger("restarts")).isEqualTo(1);
      assertThat(run(vertx, "demo", JobRequest.of(echo(2)).withJob("y")))
          .isEqualTo(new Outcome.Completed("y", result("w-0", 2, 2), "w-0", 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"TRANSIENT", "TEMPORARY"})
    void S1_transient_and_temporary_retire_a_slot_whose_worker_exited_normally(String policy,
        Vertx vertx) {
      JsonObject config = pool("WORKER", 1);
      supervision(config).put("policy", policy);
      deployReady(vertx, config);

      Outcome outcome = run(vertx, "demo", JobRequest.of(exit()).withJob("x"));

      assertThat(outcome).isEqualTo(new Outcome.Completed("x", result("w-0", 1, null), "w-0", 1));
      JsonObject status = awaitStatus(vertx, "demo", PoolFixture.phaseIs("w-0", "RETIRED"));
      assertThat(slot(status, "w-0").getString("retirement"))
          .isEqualTo(Retirement.REPLACEMENT_UNAVAILABLE.name());
      assertThat(slot(status, "w-0").getInteger("restarts")).isZero();
      assertThat(run(vertx, "demo", JobRequest.of(echo(2)).withJob("later")))
          .isInstanceOfSatisfying(Outcome.Rejected.class, r ->
              assertThat(r.reason()).isEqualTo(RejectionReason.NO_RECOVERABLE_WORKERS));
    }

    @Test
    void S1_transient_replaces_a_slot_that_crashed(Vertx vertx) {
      JsonObject config = pool("WORKER", 1);
      supervision(config).put("policy", "TRANSIENT");
      deployReady(vertx, config);

      run(vertx, "demo", JobRequest.of(crash()).withJob("c"));

      awaitStatus(vertx, "demo", idleAt("w-0", 2));
    }

    @Test
    void S1_temporary_retires_a_slot_that_crashed(Vertx vertx) {
      JsonObject config = pool("WORKER", 2);
      supervision(config).put("policy", "TEMPORARY");
      deployReady(vertx, config);

      Outcome outcome = run(vertx, "demo", JobRequest.of(crash()).withJob("c"));

      assertThat(((Outcome.Interrupted) outcome).reason())
          .isInstanceOf(Interruption.WorkerStopped.class);
      JsonObject status = awaitStatus(vertx, "demo", PoolFixture.phaseIs("w-0", "RETIRED"));
      assertThat(PoolFixture.phase(status, "w-1")).isEqualTo("IDLE");
      assertThat(run(vertx, "demo", JobRequest.of(echo(3)).withJob("n")))
          .isEqualTo(new Outcome.Completed("n", result("w-1", 1, 3), "w-1", 1));
    }
  }
}
