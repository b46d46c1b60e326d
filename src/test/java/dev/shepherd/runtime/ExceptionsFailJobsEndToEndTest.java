package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.fail;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.slots;
import static dev.shepherd.runtime.PoolFixture.status;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.testworkers.ThrowingWorker;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * J1 end to end, with real incarnations in every threading model this JVM runs (VIRTUAL_THREAD is
 * proven in {@link VirtualThreadTest}'s child JVM): an exception thrown by {@code handle}, and a
 * future failed with any throwable, fail the job with the exception's type while the same
 * incarnation keeps serving and nothing is charged; an {@code Error}, an exception reaching the
 * context outside a job's future and {@link WorkerContext#crash} crash the incarnation; {@code
 * worker.onException: CRASH} reads a throw as a crash again.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExceptionsFailJobsEndToEndTest {
  private static final String POOL = "j1";

  /**
   * A pool of one slot in {@code threading}; {@code WORKER_SIDE_BY_SIDE} is a WORKER slot of
   * capacity 2, whose assignments run on the worker pool rather than in order on its context.
   */
  private static JsonObject pool(String threading, String workerClass) {
    JsonObject config = demoPool(POOL, 1);
    boolean sideBySide = threading.equals("WORKER_SIDE_BY_SIDE");
    worker(config).put("threading", sideBySide ? "WORKER" : threading)
        .put("maxConcurrency", sideBySide ? 2 : 1);
    if (workerClass != null) {
      worker(config).put("class", workerClass);
    }
    return config;
  }

  private static JsonObject raise(String kind, String message) {
    return new JsonObject().put("raise", kind).put("message", message);
  }

  private static JsonObject throwing(String message) {
    return new JsonObject().put("throw", message);
  }

  private static Consumer<Outcome> crashedWith(String cause) {
    return outcome -> assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
        assertThat(i.reason()).isInstanceOfSatisfying(Interruption.WorkerStopped.class, w -> {
          assertThat(w.exit()).isEqualTo(Exit.CRASH);
          assertThat(w.cause()).contains(cause);
        }));
  }

  /** The pool after a job ended its job alone: no restart, the first incarnation still there. */
  private static void assertNothingCharged(Vertx vertx) {
    JsonObject status = status(vertx, POOL);
    assertThat(counter(status, "restarts")).isZero();
    assertThat(slot(status, "w-0").getInteger("incarnation")).isEqualTo(1);
    assertThat(status.getJsonObject("budget").getInteger("restartsInWindow")).isZero();
  }

  @Nested
  class ExceptionsFailJobs {

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER", "WORKER_SIDE_BY_SIDE"})
    void J1_a_RuntimeException_thrown_by_handle_fails_the_job_with_its_type_and_the_same_incarnation_serves_on(
        String threading, Vertx vertx) {
      deployReady(vertx, pool(threading, null));

      Outcome thrown = run(vertx, POOL, JobRequest.of(throwing("kaput")).withJob("t"));
      Outcome next = run(vertx, POOL, JobRequest.of(echo(1)).withJob("next"));

      assertThat(thrown).isEqualTo(new Outcome.Failed("t",
          new JobError(500, "kaput", "java.lang.RuntimeException"), "w-0", 1));
      assertThat(next).isEqualTo(new Outcome.Completed("next", new JsonObject()
          .put("worker", "w-0").put("incarnation", 1).put("echo", 1), "w-0", 1));
      assertNothingCharged(vertx);
      assertThat(counter(status(vertx, POOL), "failed")).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER", "WORKER_SIDE_BY_SIDE"})
    void J1_a_checked_exception_thrown_by_handle_fails_the_job_with_its_type(String threading,
        Vertx vertx) {
      deployReady(vertx, pool(threading, ThrowingWorker.class.getName()));

      Outcome thrown = run(vertx, POOL, JobRequest.of(raise("checked", "disk gone")).withJob("c"));
      Outcome unchecked = run(vertx, POOL, JobRequest.of(raise("runtime", "bad arg")).withJob("u"));
      Outcome next = run(vertx, POOL, JobRequest.of(echo(1)).withJob("next"));

      assertThat(thrown).isEqualTo(new Outcome.Failed("c",
          new JobError(500, "disk gone", "java.io.IOException"), "w-0", 1));
      assertThat(unchecked).isEqualTo(new Outcome.Failed("u",
          new JobError(500, "bad arg", "java.lang.IllegalArgumentException"), "w-0", 1));
      assertThat(next).isEqualTo(new Outcome.Completed("next",
          new JsonObject().put("worker", "w-0").put("incarnation", 1), "w-0", 1));
      assertNothingCharged(vertx);
    }

    @Test
    void J1_a_future_failed_with_an_Error_fails_the_job_and_a_ReplyException_keeps_its_code(
        Vertx vertx) {
      deployReady(vertx, pool("WORKER", ThrowingWorker.class.getName()));

      Outcome error = run(vertx, POOL, JobRequest.of(raise("failedError", "odd")).withJob("e"));
      Outcome reply = run(vertx, POOL, JobRequest.of(raise("reply", "teapot")).withJob("r"));

      assertThat(error).isEqualTo(new Outcome.Failed("e",
          new JobError(500, "odd", "java.lang.AssertionError"), "w-0", 1));
      assertThat(reply).isEqualTo(new Outcome.Failed("r",
          new JobError(418, "teapot", "io.vertx.core.eventbus.ReplyException"), "w-0", 1));
      assertNothingCharged(vertx);
    }

    @Test
    void J1_a_future_failed_with_a_bare_message_fails_the_job_without_a_type(Vertx vertx) {
      deployReady(vertx, pool("WORKER", null));

      Outcome outcome = run(vertx, POOL, JobRequest.of(fail("plain")).withJob("f"));

      assertThat(outcome).isEqualTo(new Outcome.Failed("f", new JobError(500, "plain"), "w-0", 1));
    }

    @Test
    void J1_a_throw_after_a_timer_sleep_on_an_event_loop_still_fails_only_its_job(Vertx vertx) {
      deployReady(vertx, pool("EVENT_LOOP", null));

      Outcome outcome = run(vertx, POOL,
          JobRequest.of(throwing("late").put("sleepMs", 20)).withJob("s"));

      assertThat(outcome).isEqualTo(new Outcome.Failed("s",
          new JobError(500, "late", "java.lang.RuntimeException"), "w-0", 1));
      assertNothingCharged(vertx);
    }

    @Test
    void J1_over_the_bus_a_thrown_exception_is_answered_failed_with_error_type(Vertx vertx) {
      deployReady(vertx, pool("WORKER", null));

      JsonObject answer = request(vertx, Addresses.forPool(POOL).submit(),
          new JsonObject().put("job", "b").put("payload", throwing("over the bus")));

      assertThat(answer).isEqualTo(new JsonObject().put("type", "failed").put("job", "b")
          .put("error", new JsonObject().put("code", 500).put("message", "over the bus")
              .put("type", "java.lang.RuntimeException"))
          .put("worker", "w-0").put("attempts", 1));
    }

    @Test
    void J1_a_completion_over_the_bus_with_error_type_answers_failed_with_that_type(
        Vertx vertx) {
      deployReady(vertx, pool("WORKER", null));
      Future<Outcome> job = PoolClient.create(vertx, POOL)
          .outcome(JobRequest.of(new JsonObject().put("sleepMs", 300)).withJob("remote"));
      JsonObject held = awaitStatus(vertx, POOL, running("w-0", "remote"));
      long token = slot(held, "w-0").getJsonArray("assignments").getJsonObject(0)
          .getLong("assignment");

      request(vertx, Addresses.forPool(POOL).completed(), new JsonObject().put("worker", "w-0")
          .put("assignment", token).put("error", new JsonObject().put("code", 503)
              .put("message", "downstream").put("type", "com.example.DownstreamException")));

      assertThat(join(job)).isEqualTo(new Outcome.Failed("remote",
          new JobError(503, "downstream", "com.example.DownstreamException"), "w-0", 1));
    }
  }

  @Nested
  class CrashesStopTheIncarnation {

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER", "WORKER_SIDE_BY_SIDE"})
    void J1_an_Error_thrown_by_handle_crashes_the_incarnation_and_the_slot_restarts(
        String threading, Vertx vertx) {
      deployReady(vertx, pool(threading, ThrowingWorker.class.getName()));

      Outcome outcome = run(vertx, POOL, JobRequest.of(raise("error", "broken state")).withJob("e"));

      crashedWith("java.lang.AssertionError: broken state").accept(outcome);
      JsonObject status = awaitStatus(vertx, POOL, idleAt("w-0", 2));
      assertThat(counter(status, "restarts")).isEqualTo(1);
      assertThat(run(vertx, POOL, JobRequest.of(echo(1)).withJob("next")))
          .isEqualTo(new Outcome.Completed("next",
              new JsonObject().put("worker", "w-0").put("incarnation", 2), "w-0", 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
    void J1_an_exception_thrown_on_the_context_while_a_job_runs_but_outside_its_future_crashes(
        String threading, Vertx vertx) {
      deployReady(vertx, pool(threading, ThrowingWorker.class.getName()));

      Outcome outcome = run(vertx, POOL, JobRequest.of(raise("timer", "timer threw")).withJob("t"));

      crashedWith("timer threw").accept(outcome);
      assertThat(counter(awaitStatus(vertx, POOL, idleAt("w-0", 2)), "restarts")).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
    void J1_an_exception_reaching_the_context_between_jobs_crashes_the_incarnation(
        String threading, Vertx vertx) {
      deployReady(vertx, pool(threading, ThrowingWorker.class.getName()));
      assertThat(run(vertx, POOL, JobRequest.of(echo(1)).withJob("before")))
          .isInstanceOf(Outcome.Completed.class);

      vertx.eventBus().send(ThrowingWorker.pokeAddress("w-0"), "poke");

      JsonObject status = awaitStatus(vertx, POOL, idleAt("w-0", 2));
      assertThat(counter(status, "restarts")).isEqualTo(1);
      assertThat(counter(status, "interrupted")).as("no job was running").isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER", "WORKER_SIDE_BY_SIDE"})
    void J1_the_explicit_crash_of_the_demo_worker_crashes_the_incarnation(String threading,
        Vertx vertx) {
      deployReady(vertx, pool(threading, null));

      Outcome outcome = run(vertx, POOL, JobRequest.of(crash()).withJob("c"));

      crashedWith("crash requested by job c").accept(outcome);
      assertThat(counter(awaitStatus(vertx, POOL, idleAt("w-0", 2)), "restarts")).isEqualTo(1);
    }

    @Test
    void J1_WorkerContext_crash_reports_its_first_cause_and_discards_what_the_job_returns(
        Vertx vertx) {
      deployReady(vertx, pool("WORKER", ThrowingWorker.class.getName()));

      Outcome outcome = run(vertx, POOL, JobRequest.of(raise("crashTwice", "first")).withJob("c"));

      crashedWith("java.lang.IllegalStateException: first").accept(outcome);
      assertThat(((Interruption.WorkerStopped) ((Outcome.Interrupted) outcome).reason()).cause())
          .doesNotContain("second");
      JsonObject status = awaitStatus(vertx, POOL, idleAt("w-0", 2));
      assertThat(counter(status, "completed")).isZero();
      assertThat(counter(status, "staleCompletions")).as("the discarded answer is never sent")
          .isZero();
    }
  }

  @Nested
  class OnExceptionCrash {

    private JsonObject crashingPool(String threading) {
      JsonObject config = pool(threading, null);
      worker(config).put("onException", "CRASH");
      return config;
    }

    @ParameterizedTest
    @ValueSource(strings = {"EVENT_LOOP", "WORKER", "WORKER_SIDE_BY_SIDE"})
    void J1_with_onException_CRASH_a_thrown_exception_crashes_the_incarnation(String threading,
        Vertx vertx) {
      deployReady(vertx, crashingPool(threading));

      Outcome outcome = run(vertx, POOL, JobRequest.of(throwing("corrupt")).withJob("t"));

      crashedWith("java.lang.RuntimeException: corrupt").accept(outcome);
      assertThat(counter(awaitStatus(vertx, POOL, idleAt("w-0", 2)), "restarts")).isEqualTo(1);
    }

    @Test
    void J1_with_onException_CRASH_a_failed_future_still_only_fails_its_job(Vertx vertx) {
      deployReady(vertx, crashingPool("WORKER"));

      Outcome outcome = run(vertx, POOL, JobRequest.of(fail("soft")).withJob("f"));

      assertThat(outcome).isEqualTo(new Outcome.Failed("f", new JobError(500, "soft"), "w-0", 1));
      assertNothingCharged(vertx);
    }
  }

  @Nested
  class UnderLoad {

    @Test
    void J1_two_percent_throwing_jobs_over_1000_fail_alone_and_nothing_restarts(Vertx vertx) {
      JsonObject config = demoPool(POOL, 4).put("backlogCapacity", 1_000);
      deployReady(vertx, config);
      PoolClient client = PoolClient.create(vertx, POOL);
      List<Future<Outcome>> outcomes = new ArrayList<>();

      for (int i = 0; i < 1_000; i++) {
        JsonObject payload = i % 50 == 7 ? throwing("thrower " + i) : echo(i);
        outcomes.add(client.outcome(JobRequest.of(payload).withJob("j" + i)));
      }
      join(Future.join(new ArrayList<>(outcomes)));

      int failed = 0;
      for (int i = 0; i < 1_000; i++) {
        Outcome outcome = outcomes.get(i).result();
        if (i % 50 == 7) {
          failed++;
          int n = i;
          assertThat(outcome).isInstanceOfSatisfying(Outcome.Failed.class, f -> assertThat(
              f.error()).isEqualTo(new JobError(500, "thrower " + n, "java.lang.RuntimeException")));
        } else {
          assertThat(outcome).as("job %d", i).isInstanceOf(Outcome.Completed.class);
        }
      }
      JsonObject status = status(vertx, POOL);
      assertThat(failed).isEqualTo(20);
      assertThat(counter(status, "failed")).isEqualTo(20);
      assertThat(counter(status, "completed")).isEqualTo(980);
      assertThat(counter(status, "restarts")).isZero();
      assertThat(slots(status)).allSatisfy(s ->
          assertThat(((JsonObject) s).getInteger("incarnation")).isEqualTo(1));
    }
  }
}
