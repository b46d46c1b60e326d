package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.fail;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PoolClient}, the Java API, end to end: its futures and typed exceptions, both when it
 * hands jobs straight to a coordinator in this Vert.x instance and when it speaks protocol v1
 * over the bus (a client created under another name with the pool's address prefix).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PoolClientEndToEndTest {
  private static final String POOL = "api";

  static Stream<Arguments> clients() {
    BiFunction<Vertx, String, PoolClient> inJvm = PoolClient::create;
    BiFunction<Vertx, String, PoolClient> overBus =
        (vertx, pool) -> PoolClient.create(vertx, "bus-view-of-" + pool, "shepherd." + pool, 10_000);
    return Stream.of(Arguments.of(Named.of("in-JVM", inJvm)),
        Arguments.of(Named.of("over the bus", overBus)));
  }

  private static PoolClient deploy(Vertx vertx, BiFunction<Vertx, String, PoolClient> client,
      JsonObject config) {
    deployReady(vertx, config);
    return client.apply(vertx, config.getString("name"));
  }

  @ParameterizedTest
  @MethodSource("clients")
  void submit_succeeds_with_the_worker_result(BiFunction<Vertx, String, PoolClient> client,
      Vertx vertx) {
    PoolClient jobs = deploy(vertx, client, demoPool(POOL, 1));

    Object result = join(jobs.submit(echo("hello")));

    assertThat(result).isEqualTo(new JsonObject().put("worker", "w-0").put("incarnation", 1)
        .put("echo", "hello"));
  }

  @ParameterizedTest
  @MethodSource("clients")
  void submit_fails_with_JobFailedException_when_the_worker_returned_a_failure(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = deploy(vertx, client, demoPool(POOL, 1));

    Throwable error = failure(jobs.submit(JobRequest.of(fail("broken")).withJob("f")));

    assertThat(error).isInstanceOfSatisfying(JobFailedException.class, e -> {
      assertThat(e.job()).isEqualTo("f");
      assertThat(e.worker()).isEqualTo("w-0");
      assertThat(e.error().code()).isEqualTo(500);
      assertThat(e.error().message()).isEqualTo("broken");
      assertThat(e.getMessage()).contains("broken");
    });
  }

  @ParameterizedTest
  @MethodSource("clients")
  void J1_a_handler_that_throws_fails_the_submit_with_JobFailedException_carrying_the_type(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = deploy(vertx, client, demoPool(POOL, 1));

    Throwable error = failure(jobs.submit(JobRequest.of(new JsonObject().put("throw", "kaput"))
        .withJob("t")));

    assertThat(error).isInstanceOfSatisfying(JobFailedException.class, e -> {
      assertThat(e.job()).isEqualTo("t");
      assertThat(e.worker()).isEqualTo("w-0");
      assertThat(e.code()).isEqualTo(500);
      assertThat(e.type()).isEqualTo("java.lang.RuntimeException");
      assertThat(e.error()).isEqualTo(new JobError(500, "kaput", "java.lang.RuntimeException"));
      assertThat(e.getMessage()).contains("kaput").contains("java.lang.RuntimeException");
    });
  }

  @ParameterizedTest
  @MethodSource("clients")
  void submit_fails_with_JobInterruptedException_carrying_reason_and_payload_P9(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = deploy(vertx, client, demoPool(POOL, 1));

    Throwable error = failure(jobs.submit(JobRequest.of(crash()).withJob("c")));

    assertThat(error).isInstanceOfSatisfying(JobInterruptedException.class, e -> {
      assertThat(e.job()).isEqualTo("c");
      assertThat(e.payload()).isEqualTo(crash());
      assertThat(e.attempts()).isEqualTo(1);
      assertThat(e.reason()).isInstanceOfSatisfying(Interruption.WorkerStopped.class,
          w -> assertThat(w.exit()).isEqualTo(Exit.CRASH));
    });
  }

  @ParameterizedTest
  @MethodSource("clients")
  void submit_fails_with_JobRejectedException_handing_the_payload_back_P3(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = deploy(vertx, client, demoPool(POOL, 1).put("backlogCapacity", 0));
    Future<Object> busy = jobs.submit(JobRequest.of(sleep(300)).withJob("busy"));
    awaitStatus(vertx, POOL, running("w-0", "busy"));

    Throwable error = failure(jobs.submit(JobRequest.of(echo("keep me")).withJob("r")));

    assertThat(error).isInstanceOfSatisfying(JobRejectedException.class, e -> {
      assertThat(e.job()).isEqualTo("r");
      assertThat(e.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
      assertThat(e.payload()).isEqualTo(echo("keep me"));
    });
    join(busy);
  }

  @ParameterizedTest
  @MethodSource("clients")
  void submit_fails_with_JobCancelledException_after_cancel_P17(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = deploy(vertx, client, demoPool(POOL, 1));
    Future<Object> running = jobs.submit(JobRequest.of(sleep(300)).withJob("r"));
    awaitStatus(vertx, POOL, running("w-0", "r"));

    assertThat(join(jobs.cancel("r"))).isTrue();

    assertThat(failure(running)).isInstanceOfSatisfying(JobCancelledException.class,
        e -> assertThat(e.outcome()).isEqualTo(new Outcome.Cancelled("r")));
    assertThat(join(jobs.cancel("r"))).isFalse();
  }

  @ParameterizedTest
  @MethodSource("clients")
  void outcome_and_admit_return_outcomes_as_values(BiFunction<Vertx, String, PoolClient> client,
      Vertx vertx) {
    PoolClient jobs = deploy(vertx, client, demoPool(POOL, 1));

    Outcome admission = join(jobs.admit(JobRequest.of(echo(1)).withJob("a")));
    Outcome terminal = join(jobs.outcome(JobRequest.of(fail("x")).withJob("o")));

    assertThat(admission).isEqualTo(new Outcome.Accepted("a"));
    assertThat(terminal).isInstanceOf(Outcome.Failed.class);
  }

  @ParameterizedTest
  @MethodSource("clients")
  void rebalance_refusals_fail_with_PoolErrorException_naming_the_error_P5(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = deploy(vertx, client, demoPool(POOL, 2));

    join(jobs.rebalance("k", "w-1"));
    Throwable error = failure(jobs.rebalance("k", "w-5"));

    assertThat(error).isInstanceOfSatisfying(PoolErrorException.class,
        e -> assertThat(e.name()).isEqualTo("UNKNOWN_WORKER"));
    assertThat(join(jobs.submit(JobRequest.of(echo(1)).withKey("k"))))
        .isInstanceOfSatisfying(JsonObject.class,
            r -> assertThat(r.getString("worker")).isEqualTo("w-1"));
  }

  @ParameterizedTest
  @MethodSource("clients")
  void bad_requests_fail_with_BadRequest_naming_the_field(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = deploy(vertx, client, demoPool(POOL, 1));

    assertThat(failure(jobs.submit(JobRequest.of(1).withJob(""))))
        .isInstanceOf(BadRequest.class).hasMessageStartingWith("job:");
    assertThat(failure(jobs.submit(JobRequest.of(1).withKey("k".repeat(257)))))
        .isInstanceOf(BadRequest.class).hasMessageStartingWith("key:");
    assertThat(failure(jobs.submit(JobRequest.of(1).withTimeoutMs(-5))))
        .isInstanceOf(BadRequest.class).hasMessageStartingWith("timeoutMs:");
    assertThat(PoolFixture.counter(join(jobs.status()), "accepted")).isZero();
  }
}
