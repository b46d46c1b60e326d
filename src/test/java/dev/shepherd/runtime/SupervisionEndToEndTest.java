package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deploy;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.phase;
import static dev.shepherd.runtime.PoolFixture.phaseIs;
import static dev.shepherd.runtime.PoolFixture.refused;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.status;
import static dev.shepherd.runtime.PoolFixture.supervision;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.core.Retirement;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.testworkers.FlakyWorker;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Supervision seen from outside, with real incarnations: the restart budget and both reactions
 * to exceeding it (S2, S4) with retirement (P10, P11), the strategies' sibling replacement (S3),
 * failed deployments (P2), and restart backoff (S5).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SupervisionEndToEndTest {

  private static Future<Outcome> submit(Vertx vertx, String pool, String job, JsonObject payload) {
    return PoolClient.create(vertx, pool).outcome(JobRequest.of(payload).withJob(job));
  }

  private static Consumer<Outcome> interruptedBy(Class<? extends Interruption> kind) {
    return o -> assertThat(o).isInstanceOfSatisfying(Outcome.Interrupted.class,
        i -> assertThat(i.reason()).isInstanceOf(kind));
  }

  private static void assertWorkerStopped(Outcome outcome, String worker, Exit exit) {
    assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
        assertThat(i.reason()).isInstanceOfSatisfying(Interruption.WorkerStopped.class, w -> {
          assertThat(w.worker()).isEqualTo(worker);
          assertThat(w.exit()).isEqualTo(exit);
        }));
  }

  @Nested
  class Budget {

    @Test
    void S2_S4_P11_retire_worker_retires_the_last_slot_and_later_submits_are_rejected(
        Vertx vertx) {
      JsonObject config = demoPool("budget", 1);
      supervision(config).put("maxRestarts", 1).put("onBudgetExceeded", "RETIRE_WORKER");
      deployReady(vertx, config);

      Outcome first = run(vertx, "budget", crash());
      awaitStatus(vertx, "budget", idleAt("w-0", 2));
      Future<Outcome> second = submit(vertx, "budget", "second", sleep(300).put("crash", true));
      awaitStatus(vertx, "budget", running("w-0", "second"));
      Future<Outcome> queuedA = submit(vertx, "budget", "queuedA", echo("a"));
      Future<Outcome> queuedB = submit(vertx, "budget", "queuedB", echo("b"));

      assertWorkerStopped(first, "w-0", Exit.CRASH);
      assertWorkerStopped(join(second), "w-0", Exit.CRASH);
      assertThat(join(queuedA)).satisfies(interruptedBy(Interruption.NoRecoverableWorkers.class));
      assertThat(join(queuedB)).satisfies(interruptedBy(Interruption.NoRecoverableWorkers.class));
      assertThat(run(vertx, "budget", echo("late"))).isInstanceOfSatisfying(Outcome.Rejected.class,
          r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.NO_RECOVERABLE_WORKERS);
            assertThat(r.payload()).isEqualTo(echo("late"));
          });
      assertThat(run(vertx, "budget", JobRequest.of(echo("k")).withKey("any-key")))
          .isInstanceOfSatisfying(Outcome.Rejected.class,
              r -> assertThat(r.reason()).isEqualTo(RejectionReason.NO_RECOVERABLE_WORKERS));
      JsonObject status = status(vertx, "budget");
      assertThat(slot(status, "w-0").getString("phase")).isEqualTo("RETIRED");
      assertThat(slot(status, "w-0").getString("retirement"))
          .isEqualTo(Retirement.REPLACEMENT_UNAVAILABLE.name());
      assertThat(status.getString("state")).isEqualTo("RUNNING");
      assertThat(status.getJsonObject("budget").getInteger("restartsInWindow")).isEqualTo(1);
      assertThat(status.getJsonObject("budget").getInteger("maxRestarts")).isEqualTo(1);
      assertThat(counter(status, "budgetRefusals")).isEqualTo(1);
      assertThat(counter(status, "rejected")).isEqualTo(2);
    }

    @Test
    void S4_P10_retiring_one_slot_interrupts_jobs_queued_for_it_and_keeps_the_others_running(
        Vertx vertx) {
      JsonObject config = demoPool("affinity", 2);
      supervision(config).put("maxRestarts", 0);
      deployReady(vertx, config);
      PoolClient client = PoolClient.create(vertx, "affinity");
      join(client.rebalance("k", "w-0"));

      Future<Outcome> crashing = client.outcome(JobRequest.of(sleep(300).put("crash", true))
          .withJob("crashing").withKey("k"));
      awaitStatus(vertx, "affinity", running("w-0", "crashing"));
      Future<Outcome> targeted = client.outcome(JobRequest.of(echo(1)).withJob("t").withKey("k"));

      assertWorkerStopped(join(crashing), "w-0", Exit.CRASH);
      assertThat(join(targeted)).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
          assertThat(i.reason()).isEqualTo(
              new Interruption.AffinityRetired("w-0", Retirement.REPLACEMENT_UNAVAILABLE)));
      assertThat(run(vertx, "affinity", JobRequest.of(echo(2)).withKey("k")))
          .isInstanceOfSatisfying(Outcome.Rejected.class,
              r -> assertThat(r.reason()).isEqualTo(RejectionReason.AFFINITY_UNAVAILABLE));
      assertThat(run(vertx, "affinity", echo(3))).isInstanceOfSatisfying(Outcome.Completed.class,
          c -> assertThat(c.worker()).isEqualTo("w-1"));
      ReplyException refusal = refused(vertx, Addresses.forPool("affinity").rebalance(),
          new JsonObject().put("key", "k").put("worker", "w-0"));
      assertThat(refusal.failureCode()).isEqualTo(409);
      assertThat(refusal.getMessage()).startsWith("REBALANCE_TO_RETIRED_WORKER");
    }

    @Test
    void S4_stop_pool_stops_without_drain_and_later_submits_are_rejected_shutting_down(
        Vertx vertx) {
      JsonObject config = demoPool("stopper", 2);
      supervision(config).put("maxRestarts", 0).put("onBudgetExceeded", "STOP_POOL");
      deployReady(vertx, config);

      Future<Outcome> sibling = submit(vertx, "stopper", "sibling", sleep(2_000));
      awaitStatus(vertx, "stopper", running("w-0", "sibling"));
      Future<Outcome> crashing = submit(vertx, "stopper", "crashing", sleep(200).put("crash", true));
      awaitStatus(vertx, "stopper", running("w-1", "crashing"));
      Future<Outcome> queued = submit(vertx, "stopper", "queued", echo(1));

      assertThat(join(crashing)).isInstanceOf(Outcome.Interrupted.class);
      assertThat(join(sibling)).satisfies(interruptedBy(Interruption.PoolStopped.class));
      assertThat(join(queued)).satisfies(interruptedBy(Interruption.PoolStopped.class));
      assertThat(run(vertx, "stopper", echo(2))).isInstanceOfSatisfying(Outcome.Rejected.class,
          r -> assertThat(r.reason()).isEqualTo(RejectionReason.SHUTTING_DOWN));
      JsonObject status = status(vertx, "stopper");
      assertThat(status.getString("state")).isEqualTo("STOPPED");
      assertThat(counter(status, "budgetRefusals")).isEqualTo(1);
      assertThat(counter(status, "accepted"))
          .isEqualTo(counter(status, "interrupted") + counter(status, "completed"));
    }

    @Test
    void S2_a_restart_window_forgets_old_replacements(Vertx vertx) {
      JsonObject config = demoPool("window", 1);
      supervision(config).put("maxRestarts", 1).put("restartWindowMs", 300);
      deployReady(vertx, config);

      run(vertx, "window", crash());
      awaitStatus(vertx, "window", idleAt("w-0", 2));
      awaitStatus(vertx, "window",
          s -> s.getJsonObject("budget").getInteger("restartsInWindow") == 0);
      run(vertx, "window", crash());

      JsonObject status = awaitStatus(vertx, "window", idleAt("w-0", 3));
      assertThat(counter(status, "budgetRefusals")).isZero();
      assertThat(slot(status, "w-0").getInteger("restarts")).isEqualTo(2);
    }
  }

  @Nested
  class Strategies {

    private JsonObject threeSlots(String name, String strategy) {
      JsonObject config = demoPool(name, 3);
      supervision(config).put("strategy", strategy);
      return config;
    }

    @Test
    void S3_one_for_all_replaces_every_live_slot_and_interrupts_siblings_with_SIBLING_RESTART(
        Vertx vertx) {
      deployReady(vertx, threeSlots("all", "ONE_FOR_ALL"));

      Future<Outcome> a = submit(vertx, "all", "a", sleep(1_500));
      Future<Outcome> b = submit(vertx, "all", "b", sleep(1_500));
      awaitStatus(vertx, "all", s -> running("w-0", "a").test(s) && running("w-1", "b").test(s));
      Outcome c = run(vertx, "all", JobRequest.of(sleep(100).put("crash", true)).withJob("c"));

      assertWorkerStopped(c, "w-2", Exit.CRASH);
      assertWorkerStopped(join(a), "w-0", Exit.SIBLING_RESTART);
      assertWorkerStopped(join(b), "w-1", Exit.SIBLING_RESTART);
      JsonObject status = awaitStatus(vertx, "all",
          s -> idleAt("w-0", 2).test(s) && idleAt("w-1", 2).test(s) && idleAt("w-2", 2).test(s));
      assertThat(counter(status, "restarts")).isEqualTo(3);
      assertThat(status.getJsonObject("budget").getInteger("restartsInWindow")).isEqualTo(3);
      for (String id : new String[] {"w-0", "w-1", "w-2"}) {
        assertThat(slot(status, id).getInteger("restarts")).isEqualTo(1);
      }
    }

    @Test
    void S3_rest_for_one_replaces_the_stopped_slot_and_those_started_after_it(Vertx vertx) {
      deployReady(vertx, threeSlots("rest", "REST_FOR_ONE"));

      Future<Outcome> a = submit(vertx, "rest", "a", sleep(800));
      Future<Outcome> b = submit(vertx, "rest", "b", sleep(300).put("crash", true));
      Future<Outcome> c = submit(vertx, "rest", "c", sleep(1_500));
      awaitStatus(vertx, "rest", running("w-2", "c"));

      assertWorkerStopped(join(b), "w-1", Exit.CRASH);
      assertWorkerStopped(join(c), "w-2", Exit.SIBLING_RESTART);
      assertThat(join(a)).isInstanceOfSatisfying(Outcome.Completed.class, done -> {
        assertThat(done.worker()).isEqualTo("w-0");
        assertThat(((JsonObject) done.result()).getInteger("incarnation")).isEqualTo(1);
      });
      JsonObject status = awaitStatus(vertx, "rest",
          s -> idleAt("w-1", 2).test(s) && idleAt("w-2", 2).test(s));
      assertThat(slot(status, "w-0").getInteger("restarts")).isZero();
      assertThat(slot(status, "w-0").getInteger("incarnation")).isEqualTo(1);
      assertThat(counter(status, "restarts")).isEqualTo(2);
    }

    @Test
    void S3_siblings_under_retry_run_their_jobs_again_after_the_restart(Vertx vertx) {
      JsonObject config = threeSlots("again", "ONE_FOR_ALL").put("interruption", "RETRY");
      worker(config).put("class", FlakyWorker.class.getName());
      deployReady(vertx, config);

      Future<Outcome> a = submit(vertx, "again", "a", new JsonObject().put("delayMs", 800));
      awaitStatus(vertx, "again", running("w-0", "a"));
      Outcome crashedOnce = run(vertx, "again", JobRequest.of(new JsonObject()
          .put("crashAttempts", 1).put("delayMs", 100)).withJob("c"));

      assertThat(join(a)).isInstanceOfSatisfying(Outcome.Completed.class, done -> {
        assertThat(done.attempts()).isEqualTo(2);
        assertThat(((JsonObject) done.result()).getInteger("incarnation")).isEqualTo(2);
      });
      assertThat(crashedOnce).isInstanceOfSatisfying(Outcome.Completed.class,
          done -> assertThat(done.attempts()).isEqualTo(2));
      JsonObject status = status(vertx, "again");
      assertThat(counter(status, "retried")).isEqualTo(2);
      assertThat(counter(status, "restarts")).isEqualTo(3);
    }
  }

  @Nested
  class FailedDeployment {

    @Test
    void P2_a_worker_that_never_starts_retires_every_slot_creation_rejected(Vertx vertx) {
      JsonObject config = demoPool("never", 2);
      worker(config).put("config", new JsonObject().put("failStart", "always"));
      deploy(vertx, config);

      JsonObject status = awaitStatus(vertx, "never",
          s -> phaseIs("w-0", "RETIRED").test(s) && phaseIs("w-1", "RETIRED").test(s));

      assertThat(slot(status, "w-0").getString("retirement"))
          .isEqualTo(Retirement.CREATION_REJECTED.name());
      assertThat(slot(status, "w-1").getString("retirement"))
          .isEqualTo(Retirement.CREATION_REJECTED.name());
      assertThat(counter(status, "restarts")).isZero();
      assertThat(run(vertx, "never", echo(1))).isInstanceOfSatisfying(Outcome.Rejected.class,
          r -> assertThat(r.reason()).isEqualTo(RejectionReason.NO_RECOVERABLE_WORKERS));
    }

    @Test
    void P2_jobs_accepted_before_every_creation_failed_are_answered_no_recoverable_workers(
        Vertx vertx) {
      JsonObject config = demoPool("early", 1);
      worker(config).put("config", new JsonObject().put("failStart", "always"));
      deploy(vertx, config);

      Outcome outcome = run(vertx, "early", echo(1));

      // Either the job was queued before the creation failed, or it arrived after.
      if (outcome instanceof Outcome.Interrupted interrupted) {
        assertThat(interrupted.reason()).isEqualTo(new Interruption.NoRecoverableWorkers());
      } else {
        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class,
            r -> assertThat(r.reason()).isEqualTo(RejectionReason.NO_RECOVERABLE_WORKERS));
      }
    }

    @Test
    void P2_a_replacement_that_fails_to_start_retires_the_slot_after_the_first_worked(
        Vertx vertx) {
      JsonObject config = demoPool("replace", 1).put("interruption", "RETRY");
      worker(config).put("config", new JsonObject().put("failStart", "replacements"));
      deployReady(vertx, config);

      Outcome first = run(vertx, "replace", JobRequest.of(echo("first")).withJob("first"));
      Outcome crashed = run(vertx, "replace", JobRequest.of(crash()).withJob("c"));

      assertThat(first).isInstanceOfSatisfying(Outcome.Completed.class,
          c -> assertThat(((JsonObject) c.result()).getInteger("incarnation")).isEqualTo(1));
      // RETRY queued the crashed job again; when the replacement was rejected it kept the
      // interruption it already carried (P11).
      assertWorkerStopped(crashed, "w-0", Exit.CRASH);
      JsonObject status = awaitStatus(vertx, "replace", phaseIs("w-0", "RETIRED"));
      assertThat(slot(status, "w-0").getString("retirement"))
          .isEqualTo(Retirement.CREATION_REJECTED.name());
      assertThat(slot(status, "w-0").getInteger("incarnation")).isEqualTo(2);
      assertThat(run(vertx, "replace", echo(1))).isInstanceOfSatisfying(Outcome.Rejected.class,
          r -> assertThat(r.reason()).isEqualTo(RejectionReason.NO_RECOVERABLE_WORKERS));
    }
  }

  @Nested
  class Backoff {

    @Test
    void S5_a_slot_waits_out_its_backoff_in_phase_BACKING_OFF_then_is_replaced(Vertx vertx) {
      JsonObject config = demoPool("backoff", 1);
      supervision(config).put("restartBackoff",
          new JsonObject().put("initialMs", 400).put("maxMs", 400).put("jitter", 0.0));
      deployReady(vertx, config);
      long before = System.currentTimeMillis();

      run(vertx, "backoff", crash());
      JsonObject backingOff = status(vertx, "backoff");

      assertThat(phase(backingOff, "w-0")).isEqualTo("BACKING_OFF");
      assertThat(slot(backingOff, "w-0").getLong("backoffUntil"))
          .isBetween(before + 400, System.currentTimeMillis() + 400);
      Outcome queued = run(vertx, "backoff", echo("waited"));
      assertThat(queued).isInstanceOfSatisfying(Outcome.Completed.class,
          c -> assertThat(((JsonObject) c.result()).getInteger("incarnation")).isEqualTo(2));
      JsonObject after = status(vertx, "backoff");
      assertThat(slot(after, "w-0").getValue("backoffUntil")).isNull();
      assertThat(slot(after, "w-0").getInteger("restarts")).isEqualTo(1);
    }
  }
}
