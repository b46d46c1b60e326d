package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.hang;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.status;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.testworkers.ThreadReportWorker;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM of Java 21+ by {@link VirtualThreadTest}: deploys pools whose workers use the
 * VIRTUAL_THREAD threading model, runs a few jobs (an echo, concurrent blocking sleeps, a throw, a
 * crash, a hang past its timeout), stops the pools, and prints one {@code CHECK} line per check
 * and a final {@code VERDICT OK} or {@code VERDICT FAIL}; the exit status is 0 only for OK.
 */
public final class VirtualThreadMain {
  private boolean failed;

  private VirtualThreadMain() {}

  public static void main(String[] args) {
    VirtualThreadMain verdict = new VirtualThreadMain();
    verdict.runChecks();
    System.out.println(verdict.failed ? "VERDICT FAIL" : "VERDICT OK");
    System.out.flush();
    Runtime.getRuntime().halt(verdict.failed ? 1 : 0);
  }

  private void runChecks() {
    Vertx vertx = Vertx.vertx();
    try {
      JsonObject demo = demoPool("vt", 2).put("jobTimeoutMs", 300);
      worker(demo).put("threading", "VIRTUAL_THREAD");
      String demoDeployment = deployReady(vertx, demo);
      JsonObject report = demoPool("where", 1);
      worker(report).put("threading", "VIRTUAL_THREAD")
          .put("class", ThreadReportWorker.class.getName());
      String reportDeployment = deployReady(vertx, report);

      check("echo completes", () -> assertThat(run(vertx, "vt", JobRequest.of(echo("vt"))
          .withJob("e"))).isEqualTo(new Outcome.Completed("e", new JsonObject()
              .put("worker", "w-0").put("incarnation", 1).put("echo", "vt"), "w-0", 1)));
      check("handlers run on virtual threads", () -> assertThat(run(vertx, "where", echo(0)))
          .isInstanceOfSatisfying(Outcome.Completed.class, c -> assertThat(c.result())
              .isEqualTo(new JsonObject().put("threadingModel", "VIRTUAL_THREAD")
                  .put("virtual", true))));
      check("blocking sleeps run side by side", () -> {
        long start = System.nanoTime();
        PoolClient client = PoolClient.create(vertx, "vt");
        Future<Object> a = client.submit(JobRequest.of(sleep(250)).withJob("a"));
        Future<Object> b = client.submit(JobRequest.of(sleep(250)).withJob("b"));
        join(Future.all(a, b));
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
            .isGreaterThanOrEqualTo(250);
        assertThat(((JsonObject) a.result()).getString("worker"))
            .isNotEqualTo(((JsonObject) b.result()).getString("worker"));
      });
      check("a thrown exception fails only its job (J1)", () -> {
        assertThat(run(vertx, "vt", JobRequest.of(new JsonObject().put("throw", "vt kaput"))
            .withJob("t"))).isInstanceOfSatisfying(Outcome.Failed.class, f -> assertThat(
                f.error()).isEqualTo(new JobError(500, "vt kaput", "java.lang.RuntimeException")));
        assertThat(counter(status(vertx, "vt"), "restarts")).isZero();
      });
      check("a crash interrupts the job and replaces the slot", () -> {
        assertThat(run(vertx, "vt", JobRequest.of(crash()).withJob("c")))
            .isInstanceOfSatisfying(Outcome.Interrupted.class, i -> assertThat(i.reason())
                .isInstanceOfSatisfying(Interruption.WorkerStopped.class,
                    w -> assertThat(w.exit()).isEqualTo(Exit.CRASH)));
        awaitStatus(vertx, "vt", idleAt("w-0", 2));
      });
      check("a hang past the job timeout stops the slot with TIMEOUT", () ->
          assertThat(run(vertx, "vt", JobRequest.of(hang()).withJob("h")))
              .isInstanceOfSatisfying(Outcome.Interrupted.class, i -> assertThat(
                  ((Interruption.WorkerStopped) i.reason()).exit()).isEqualTo(Exit.TIMEOUT)));
      check("the pools stop gracefully", () -> {
        join(vertx.undeploy(demoDeployment));
        join(vertx.undeploy(reportDeployment));
        assertThat(vertx.deploymentIDs()).isEmpty();
      });
    } catch (Throwable t) {
      failed = true;
      System.out.println("CHECK setup FAIL " + t);
    } finally {
      vertx.close();
    }
  }

  private void check(String name, Runnable check) {
    try {
      check.run();
      System.out.println("CHECK " + name + " ok");
    } catch (Throwable t) {
      failed = true;
      System.out.println("CHECK " + name + " FAIL " + t.toString().replace('\n', ' '));
    }
  }
}
