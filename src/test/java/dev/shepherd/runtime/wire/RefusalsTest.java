package dev.shepherd.runtime.wire;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolError;
import dev.shepherd.core.Retirement;
import dev.shepherd.runtime.PoolErrorException;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one refusal codec ({@link Refusals}): what an endpoint fails a request with over the real
 * event bus is what the client reads back, name, details and code, for every {@link PoolError};
 * a failure that names no refusal reads as {@link Refusals#UNNAMED} with its whole message.
 */
class RefusalsTest {
  private static Vertx vertx;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, SECONDS);
  }

  /** One of each {@link PoolError}; {@link #the_samples_cover_every_pool_error} holds it whole. */
  static List<PoolError> everyPoolError() {
    return List.of(
        new PoolError.UnknownWorker("w-1"),
        new PoolError.CompletionForUnavailableWorker("w-1", Phase.IDLE),
        new PoolError.StaleCompletion("w-1", List.of(3L, 4L), 2),
        new PoolError.WorkerStoppedWhileUnavailable("w-1", Phase.BACKING_OFF),
        new PoolError.CreationResolvedWhileUnavailable("w-1", Phase.ASSIGNED),
        new PoolError.RebalanceToRetiredWorker("w-1", Retirement.CREATION_REJECTED),
        new PoolError.StaleIncarnation("w-1", 3, 2),
        new PoolError.DuplicateWorker("w-1"),
        new PoolError.DuplicateHost("h-1", "node-a"),
        new PoolError.UnknownHost("h-1"),
        new PoolError.InvalidHostSlots("h-1", "slot 'x/w-0' is not the host's: it has: colons"),
        new PoolError.ReviveRefused("w-1", "it is IDLE"),
        new PoolError.InvalidCapacity("w-1", 0),
        new PoolError.RecoveryRefused("the pool is not fresh"),
        new PoolError.UnknownJob("j-1", "in the dead-letter set"),
        new PoolError.ResizeRefused("instances", "must be at least 1 (was 0)"),
        new PoolError.ResizeRefused(null, "the pool is DRAINING"),
        new PoolError.WorkerLeaving("w-3"));
  }

  @Test
  void the_samples_cover_every_pool_error() {
    assertThat(everyPoolError().stream().map(Object::getClass).distinct())
        .containsExactlyInAnyOrder(PoolError.class.getPermittedSubclasses());
  }

  @ParameterizedTest
  @MethodSource("everyPoolError")
  void every_pool_error_round_trips_over_the_bus(PoolError error) throws Exception {
    PoolErrorException read = Refusals.parse(failedWith(m -> Refusals.fail(m, error)));

    assertThat(read.name()).isEqualTo(error.name());
    assertThat(read.getMessage()).isEqualTo(error.name() + ": " + error.message());
    assertThat(read.code()).isEqualTo(new PoolErrorException(error).code());
  }

  @Test
  void J5_J6_an_unknown_job_keeps_its_404_and_too_many_waiters_its_429() throws Exception {
    PoolErrorException unknown = Refusals.parse(
        failedWith(m -> Refusals.fail(m, new PoolError.UnknownJob("j", "known at all"))));
    PoolErrorException waiters = Refusals.parse(failedWith(m -> Refusals.fail(m,
        new PoolErrorException(PoolErrorException.TOO_MANY_WAITERS, "100 wait already"))));

    assertThat(unknown.code()).isEqualTo(404);
    assertThat(waiters.code()).isEqualTo(429);
    assertThat(waiters.name()).isEqualTo("TOO_MANY_WAITERS");
  }

  @Test
  void H1_a_pool_that_no_longer_runs_refuses_a_host_with_503_SHUTTING_DOWN() throws Exception {
    PoolErrorException read = Refusals.parse(failedWith(m -> Refusals.fail(m,
        new PoolErrorException(PoolErrorException.SHUTTING_DOWN, "pool 'p' is DRAINING"))));

    assertThat(read.code()).isEqualTo(503);
    assertThat(read.name()).isEqualTo("SHUTTING_DOWN");
    assertThat(read.getMessage()).isEqualTo("SHUTTING_DOWN: pool 'p' is DRAINING");
  }

  @Test
  void a_bare_name_reads_as_that_name_with_no_details() {
    PoolErrorException read = Refusals.parse(reply(409, "UNKNOWN_JOB"));

    assertThat(read.name()).isEqualTo("UNKNOWN_JOB");
    assertThat(read.getMessage()).isEqualTo("UNKNOWN_JOB: ");
  }

  @Test
  void a_message_that_names_no_refusal_reads_as_unnamed_with_the_whole_message() {
    PoolErrorException prose = Refusals.parse(reply(409, "the pool said no: twice"));
    PoolErrorException lower = Refusals.parse(reply(404, "unknown_job: j"));

    assertThat(prose.name()).isEqualTo(Refusals.UNNAMED);
    assertThat(prose.getMessage()).isEqualTo("UNNAMED_REFUSAL: the pool said no: twice");
    assertThat(prose.code()).isEqualTo(409);
    assertThat(lower.name()).isEqualTo(Refusals.UNNAMED);
    assertThat(lower.code()).isEqualTo(404);
  }

  @Test
  void a_failure_without_a_message_reads_as_unnamed_saying_so() {
    assertThat(Refusals.parse(reply(409, null)).getMessage())
        .isEqualTo("UNNAMED_REFUSAL: no message");
    assertThat(Refusals.parse(reply(409, "")).getMessage())
        .isEqualTo("UNNAMED_REFUSAL: no message");
  }

  @Test
  void H1_a_host_tells_a_duplicate_host_refusal_by_its_name_and_code() {
    String text = new PoolErrorException(new PoolError.DuplicateHost("h", "n")).getMessage();

    assertThat(Refusals.named(reply(409, text), "DUPLICATE_HOST")).isTrue();
    assertThat(Refusals.named(reply(500, text), "DUPLICATE_HOST")).isFalse();
    assertThat(Refusals.named(reply(409, "DUPLICATE_HOSTS: h"), "DUPLICATE_HOST")).isFalse();
    assertThat(Refusals.named(new IllegalStateException(text), "DUPLICATE_HOST")).isFalse();
  }

  private static ReplyException reply(int code, String message) {
    return new ReplyException(ReplyFailure.RECIPIENT_FAILURE, code, message);
  }

  private static ReplyException failedWith(Consumer<io.vertx.core.eventbus.Message<Object>> fail)
      throws Exception {
    String address = "refusals." + System.nanoTime();
    vertx.eventBus().consumer(address, fail::accept).completion()
        .toCompletionStage().toCompletableFuture().get(10, SECONDS);
    try {
      vertx.eventBus().request(address, "x").toCompletionStage().toCompletableFuture()
          .get(10, SECONDS);
      throw new AssertionError("the request was answered, not refused");
    } catch (ExecutionException e) {
      return (ReplyException) e.getCause();
    }
  }
}
