package dev.shepherd.runtime.coordinator;

import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Backoff;
import dev.shepherd.runtime.JobFailedException;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.PoolVerticle;
import dev.shepherd.runtime.access.LocalPools;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * J1 as a Java caller sees it: a {@link JobFailedException} keeps what the worker failed with.
 * In the pool's JVM its cause is the worker's own throwable (the same instance, its stack trace
 * and causes with it) and {@code type()} that throwable's class; over the bus the class name and
 * message travel and the cause is null. The pool keeps a throwable only until its job is
 * answered. The worker here fails each job with a new exception the payload describes and
 * remembers every one it made.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JobFailureCauseTest {
  private static final String POOL = "causes";

  private final List<Throwable> thrown = new CopyOnWriteArrayList<>();

  /**
   * Payload {@code "throw"}: throws an {@link IOException} (checked) with a cause; {@code
   * "fail"}: a future failed with an {@link IllegalStateException}; {@code "once"}: fails the
   * first attempt, completes the next; anything else completes.
   */
  private void deploy(Vertx vertx) {
    JsonObject config = PoolFixture.demoPool(POOL, 1);
    config.getJsonObject("worker").remove("class");
    join(vertx.deployVerticle(new PoolVerticle(() -> job -> {
      String what = String.valueOf(job.payload());
      if (what.equals("throw")) {
        IOException e = new IOException("disk full on attempt " + job.attempt(),
            new IllegalArgumentException("the root of it"));
        thrown.add(e);
        throw e;
      } else if (what.equals("fail") || (what.equals("once") && job.attempt() == 1)) {
        IllegalStateException e = new IllegalStateException("no, attempt " + job.attempt());
        thrown.add(e);
        return Future.failedFuture(e);
      }
      return Future.succeededFuture("done");
    }), new DeploymentOptions().setConfig(config)));
  }

  @Test
  void J1_in_the_pools_jvm_the_cause_is_the_exception_the_worker_threw(Vertx vertx) {
    deploy(vertx);

    Throwable error = failure(PoolClient.create(vertx, POOL)
        .submit(JobRequest.of("throw").withJob("t"), String.class));

    assertThat(error).isInstanceOfSatisfying(JobFailedException.class, e -> {
      assertThat(e.getCause()).isSameAs(thrown.get(0));
      assertThat(e.getCause().getCause()).hasMessage("the root of it");
      assertThat(e.getCause().getStackTrace()).isNotEmpty();
      assertThat(e.type()).isEqualTo(IOException.class.getName());
      assertThat(e.getMessage()).isEqualTo("job t failed on w-0: 500 disk full on attempt 1"
          + " (java.io.IOException)");
    });
  }

  @Test
  void J1_a_future_failed_with_an_exception_gives_that_exception_as_the_cause(Vertx vertx) {
    deploy(vertx);

    Throwable error = failure(PoolClient.create(vertx, POOL).submit("fail"));

    assertThat(error).isInstanceOfSatisfying(JobFailedException.class, e -> {
      assertThat(e.getCause()).isSameAs(thrown.get(0)).isInstanceOf(IllegalStateException.class);
      assertThat(e.type()).isEqualTo(IllegalStateException.class.getName());
    });
  }

  @Test
  void J1_over_the_bus_the_type_and_message_travel_and_there_is_no_cause(Vertx vertx) {
    deploy(vertx);
    PoolClient overBus = PoolClient.create(vertx, "bus-view", "shepherd." + POOL, 10_000);

    Throwable error = failure(overBus.submit(JobRequest.of("throw").withJob("b"), String.class));

    assertThat(error).isInstanceOfSatisfying(JobFailedException.class, e -> {
      assertThat(e.getCause()).isNull();
      assertThat(e.type()).isEqualTo(IOException.class.getName());
      assertThat(e.error().message()).isEqualTo("disk full on attempt 1");
      assertThat(e.getMessage()).contains("disk full on attempt 1", "(java.io.IOException)");
    });
  }

  @Test
  void J3_a_job_whose_retries_all_failed_has_the_last_attempts_exception_as_its_cause(
      Vertx vertx) {
    deploy(vertx);

    Throwable error = failure(PoolClient.create(vertx, POOL)
        .submit(JobRequest.of("throw").withRetry(2, Backoff.NONE)));

    assertThat(thrown).hasSize(2);
    assertThat(error).isInstanceOfSatisfying(JobFailedException.class,
        e -> assertThat(e.getCause()).isSameAs(thrown.get(1))
            .hasMessage("disk full on attempt 2"));
  }

  @Test
  void the_pool_keeps_no_exception_once_the_job_is_answered_whatever_the_answer(Vertx vertx) {
    deploy(vertx);
    PoolClient client = PoolClient.create(vertx, POOL);

    failure(client.submit("throw"));
    failure(client.submit("fail"));
    assertThat(join(client.submit(JobRequest.of("once").withRetry(2, Backoff.NONE))))
        .isEqualTo("done");

    assertThat(thrown).hasSize(3);
    assertThat(kept(vertx)).isZero();
  }

  /** How many throwables the pool keeps, read on its coordinator's context. */
  private static int kept(Vertx vertx) {
    Coordinator coordinator = LocalPools.find(vertx, POOL);
    Promise<Integer> size = Promise.promise();
    coordinator.execute(() -> size.complete(coordinator.causes().size()));
    return join(size.future());
  }
}
