package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.RequestDecoder;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * T2 (docs/rules.md) for a {@link PoolClient} whose submits wait at its reply address, as on a
 * node other than the coordinator's (forced here by {@link PoolClientOptions.Replies#REPLY_ADDRESS}
 * on a local Vert.x): the progress callback hears each report, in order, on the caller's context,
 * before the outcome and never after it; {@link JobRequest#withProgressTimeoutMs} is checked and
 * carried in the JVM and over the bus.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProgressOverBusTest {
  private static final String POOL = "progress-bus";
  private static final PoolClientOptions OVER_BUS = PoolClientOptions.defaults()
      .withReplies(PoolClientOptions.Replies.REPLY_ADDRESS).withTimeoutMs(20_000);

  private final List<PoolClient> clients = new CopyOnWriteArrayList<>();

  private PoolClient client(Vertx vertx, String pool, PoolClientOptions options) {
    PoolClient client = PoolClient.create(vertx, pool, options);
    clients.add(client);
    return client;
  }

  @AfterEach
  void closeClients() {
    clients.forEach(client -> join(client.close()));
  }

  private static JsonObject stepped(long sleepMs, int steps) {
    return new JsonObject().put("sleepMs", sleepMs).put("progress", steps);
  }

  /** A stand-in coordinator at {@code prefix} that admits every submit and records it. */
  private static List<JsonObject> standIn(Vertx vertx, String prefix) {
    List<JsonObject> submits = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer(prefix + ".submit", message -> {
      submits.add(message.body());
      message.reply(new JsonObject().put("type", "accepted")
          .put("job", message.body().getString("job")));
    }).completion());
    return submits;
  }

  private static JsonObject progress(String job, Object report) {
    return new JsonObject().put("type", "progress").put("job", job).put("worker", "w-0")
        .put("attempt", 1).put("progress", report);
  }

  private static JsonObject completed(String job, Object result) {
    return new JsonObject().put("type", "completed").put("job", job).put("result", result)
        .put("worker", "w-0").put("attempts", 1);
  }

  /** Submits on a context of its own; what the callback and the answer see, in order. */
  private static <T> Future<T> onContext(Vertx vertx, Context context,
      java.util.function.Supplier<Future<T>> submit) {
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> submit.get().onComplete(promise));
    return promise.future();
  }

  @Test
  void T2_a_client_over_the_bus_hears_each_report_in_order_on_its_context_before_the_outcome(
      Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1));
    PoolClient client = client(vertx, POOL, OVER_BUS);
    Context caller = vertx.getOrCreateContext();
    List<Object> seen = new CopyOnWriteArrayList<>();
    List<Context> contexts = new CopyOnWriteArrayList<>();

    Object result = join(onContext(vertx, caller, () -> client.submit(
        JobRequest.of(stepped(400, 4)).withJob("b1"), Object.class, report -> {
          contexts.add(Vertx.currentContext());
          seen.add(report);
        }).map(r -> {
          seen.add("answer");
          return r;
        })));

    assertThat(result).isNotNull();
    assertThat(seen).last().isEqualTo("answer");
    List<Object> reports = seen.subList(0, seen.size() - 1);
    assertThat(reports).isNotEmpty();
    List<Integer> steps = new ArrayList<>();
    reports.forEach(r -> steps.add(((JsonObject) r).getInteger("step")));
    assertThat(steps).isSorted().doesNotHaveDuplicates().last().isEqualTo(4);
    assertThat(contexts).allSatisfy(c -> assertThat(c).isSameAs(caller));
    assertThat(client.malformedOutcomes()).isZero();
  }

  @Test
  void T2_reports_come_in_the_order_sent_and_none_after_the_outcome(Vertx vertx) {
    List<JsonObject> submits = standIn(vertx, "stand-in");
    PoolClient client = client(vertx, POOL, OVER_BUS.withAddressPrefix("stand-in"));
    List<Object> seen = new CopyOnWriteArrayList<>();

    Future<Object> first = client.submit(JobRequest.of(1).withJob("k1"), Object.class,
        seen::add);
    await().until(() -> submits.size() == 1 && client.waitingOutcomes() == 1);
    String replyTo = submits.get(0).getString("replyTo");
    for (int i = 1; i <= 20; i++) {
      vertx.eventBus().send(replyTo, progress("k1", new JsonObject().put("n", i)));
    }
    vertx.eventBus().send(replyTo, progress("k1", 21));
    vertx.eventBus().send(replyTo, completed("k1", "done"));
    vertx.eventBus().send(replyTo, progress("k1", new JsonObject().put("n", 99)));
    assertThat(join(first)).isEqualTo("done");
    // A later job's answer, through the same address, comes after the late report was handled.
    Future<Object> second = client.submit(JobRequest.of(2).withJob("k2"));
    await().until(() -> submits.size() == 2);
    vertx.eventBus().send(replyTo, completed("k2", "second"));
    assertThat(join(second)).isEqualTo("second");

    List<Object> expected = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      expected.add(new JsonObject().put("n", i));
    }
    expected.add(new JsonObject().put("value", 21));
    assertThat(seen).containsExactlyElementsOf(expected);
  }

  @Test
  void T2_malformed_or_unknown_progress_messages_are_ignored_and_the_client_still_answers(
      Vertx vertx) {
    List<JsonObject> submits = standIn(vertx, "stand-in-2");
    PoolClient client = client(vertx, POOL, OVER_BUS.withAddressPrefix("stand-in-2"));
    List<Object> seen = new CopyOnWriteArrayList<>();
    Future<Object> result = client.submit(JobRequest.of(1).withJob("m1"), Object.class,
        seen::add);
    await().until(() -> submits.size() == 1 && client.waitingOutcomes() == 1);
    String replyTo = submits.get(0).getString("replyTo");
    List<JsonObject> bad = List.of(
        new JsonObject().put("type", "progress"),
        new JsonObject().put("type", "progress").put("job", 7),
        new JsonObject().put("type", "progress").putNull("job"),
        new JsonObject().put("type", "progress").put("job", new JsonObject()));
    bad.forEach(body -> vertx.eventBus().send(replyTo, body));
    vertx.eventBus().send(replyTo, progress("nobody-waits", new JsonObject().put("x", 1)));
    vertx.eventBus().send(replyTo, progress("m1", new JsonObject().put("ok", true)));
    vertx.eventBus().send(replyTo, completed("m1", "fine"));

    assertThat(join(result)).isEqualTo("fine");
    assertThat(seen).containsExactly(new JsonObject().put("ok", true));
    assertThat(client.malformedOutcomes()).isEqualTo(bad.size());
  }

  @Test
  void T2_a_submit_without_a_callback_ignores_reports_quietly(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1));
    PoolClient client = client(vertx, POOL, OVER_BUS);
    Object result = join(client.submit(JobRequest.of(stepped(200, 3)).withJob("q1")));
    assertThat(result).isNotNull();
    assertThat(client.malformedOutcomes()).isZero();
    assertThat(client.unknownOutcomes()).isZero();
  }

  @Test
  void T2_withProgressTimeoutMs_turns_a_silent_job_into_a_hang_in_the_jvm_and_over_the_bus(
      Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 2));
    for (PoolClient client : List.of(client(vertx, POOL, PoolClientOptions.defaults()),
        client(vertx, POOL, OVER_BUS))) {
      Outcome outcome = join(client.outcome(
          JobRequest.of(PoolFixture.hang()).withProgressTimeoutMs(200)));
      assertThat(outcome).isInstanceOf(Outcome.Interrupted.class);
      Interruption why = ((Outcome.Interrupted) outcome).reason();
      assertThat(why).isInstanceOf(Interruption.WorkerStopped.class);
      assertThat(((Interruption.WorkerStopped) why).exit()).isEqualTo(Exit.TIMEOUT);
      assertThat(((Interruption.WorkerStopped) why).cause()).contains("reported no progress");
    }
  }

  @Test
  void T2_withProgressTimeoutMs_is_sent_as_the_submit_s_progressTimeoutMs(Vertx vertx) {
    List<JsonObject> submits = standIn(vertx, "stand-in-3");
    PoolClient client = client(vertx, POOL, OVER_BUS.withAddressPrefix("stand-in-3"));
    client.submit(JobRequest.of(1).withJob("p1").withProgressTimeoutMs(1234));
    client.submit(JobRequest.of(1).withJob("p2"));
    await().until(() -> submits.size() == 2);
    JsonObject withTimeout = submits.stream().filter(s -> "p1".equals(s.getString("job")))
        .findFirst().orElseThrow();
    JsonObject without = submits.stream().filter(s -> "p2".equals(s.getString("job")))
        .findFirst().orElseThrow();
    assertThat(withTimeout.getLong("progressTimeoutMs")).isEqualTo(1234L);
    assertThat(without.containsKey("progressTimeoutMs")).isFalse();
  }

  @Test
  void T2_withProgressTimeoutMs_out_of_range_fails_naming_the_field_and_submits_nothing(
      Vertx vertx) {
    List<JsonObject> submits = standIn(vertx, "stand-in-4");
    PoolClient overBus = client(vertx, POOL, OVER_BUS.withAddressPrefix("stand-in-4"));
    PoolClient plain = client(vertx, POOL, PoolClientOptions.defaults()
        .withAddressPrefix("stand-in-4"));
    for (long bad : new long[] {-1, -1000, Long.MIN_VALUE, RequestDecoder.MAX_TIMEOUT_MS + 1,
        Long.MAX_VALUE}) {
      for (PoolClient client : List.of(overBus, plain)) {
        JobRequest request = JobRequest.of(1).withProgressTimeoutMs(bad);
        assertThat(request.progressTimeoutMs()).isEqualTo(bad);
        assertThatThrownBy(() -> join(client.submit(request)))
            .isInstanceOf(BadRequest.class).hasMessageContaining("progressTimeoutMs");
        assertThatThrownBy(() -> join(client.admit(request)))
            .isInstanceOf(BadRequest.class).hasMessageContaining("progressTimeoutMs");
      }
    }
    assertThat(submits).isEmpty();
    assertThat(overBus.waitingOutcomes()).isZero();
  }

  @Test
  void T2_withProgressTimeoutMs_keeps_the_other_fields_and_they_keep_it() {
    JobRequest request = JobRequest.of("x").withProgressTimeoutMs(500).withJob("j")
        .withKey("k").withTimeoutMs(9).withDelayMs(3).withGroup("g").withPriority(1)
        .withRetry(RetryOverride.attempts(2));
    assertThat(request.progressTimeoutMs()).isEqualTo(500);
    assertThat(request.job()).isEqualTo("j");
    assertThat(request.group()).isEqualTo("g");
    assertThat(request.priority()).isEqualTo(1);
    assertThat(JobRequest.of("x").progressTimeoutMs()).isZero();
  }
}
