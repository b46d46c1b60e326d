package dev.shepherd.app;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.hang;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cooperative cancellation end to end (P17): a running demo job that sleeps sees its cancel
 * ({@code Job.isCancelled()} on a WORKER thread, {@code Job.cancelled()} on an event loop) and
 * ends early, whichever way the cancel came (HTTP, the bus, {@link PoolClient}): its incarnation
 * is not restarted, no stale completion is counted, and the slot takes the next job long before
 * the sleep would have ended. A cancelled job that ignores the cancel still meets its timeout,
 * which the cancel does not change.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CooperativeCancelTest {
  /** Far longer than any test may take: a sleep that ends at all has ended early. */
  private static final long SLEEP_MS = 10 * 60_000;

  static Stream<Arguments> waysAndThreads() {
    return Stream.of("HTTP", "bus", "PoolClient").flatMap(way ->
        Stream.of("WORKER", "EVENT_LOOP").map(threading -> Arguments.of(way, threading)));
  }

  private static JsonObject pool(String threading) {
    JsonObject config = demoPool("naps", 1).put("jobTimeoutMs", 2 * SLEEP_MS);
    worker(config).put("threading", threading);
    return config;
  }

  private static boolean cancel(AppFixture app, String way, String job) {
    switch (way) {
      case "HTTP" -> {
        HttpResponse<Buffer> r = app.call(HttpMethod.DELETE, "/api/pools/naps/jobs/" + job, null);
        assertThat(r.statusCode()).isEqualTo(200);
        return r.bodyAsJsonObject().getBoolean("cancelled");
      }
      case "bus" -> {
        return request(app.vertx, Addresses.forPool("naps").cancel(),
            new JsonObject().put("job", job)).getBoolean("cancelled");
      }
      case "PoolClient" -> {
        return join(PoolClient.create(app.vertx, "naps").cancel(job));
      }
      default -> throw new IllegalArgumentException(way);
    }
  }

  private static List<JsonObject> events(Vertx vertx) {
    List<JsonObject> events = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer(Addresses.forPool("naps").events(),
        m -> events.add(m.body())).completion());
    return events;
  }

  @ParameterizedTest(name = "cancel over {0}, {1} threading")
  @MethodSource("waysAndThreads")
  void P17_a_cancelled_sleep_ends_early_and_its_slot_takes_the_next_job_without_a_restart(
      String way, String threading, Vertx vertx) {
    AppFixture app = AppFixture.start(vertx, pool(threading));
    List<JsonObject> events = events(vertx);
    PoolClient naps = PoolClient.create(vertx, "naps");
    Future<Outcome> nap = naps.outcome(JobRequest.of(sleep(SLEEP_MS)).withJob("nap"));
    awaitStatus(vertx, "naps", running("w-0", "nap"));

    assertThat(cancel(app, way, "nap")).isTrue();

    assertThat(join(nap)).isEqualTo(new Outcome.Cancelled("nap"));
    Outcome next = join(naps.outcome(JobRequest.of(echo("after")).withJob("next")));
    assertThat(next).isInstanceOfSatisfying(Outcome.Completed.class, c ->
        assertThat(c.result()).isEqualTo(new JsonObject().put("worker", "w-0")
            .put("incarnation", 1).put("echo", "after")));
    JsonObject after = awaitStatus(vertx, "naps", idleAt("w-0", 1));
    assertThat(slot(after, "w-0").getInteger("restarts")).isZero();
    assertThat(counter(after, "restarts")).isZero();
    assertThat(counter(after, "staleCompletions")).isZero();
    assertThat(counter(after, "cancelled")).isEqualTo(1);
    assertThat(counter(after, "failed")).as("the sleep's own answer is discarded").isZero();
    assertThat(counter(after, "completed")).isEqualTo(1);
    assertThat(events).noneMatch(e -> "restart".equals(e.getString("type")));
  }

  static Stream<String> threads() {
    return Stream.of("WORKER", "EVENT_LOOP");
  }

  @ParameterizedTest(name = "{0} threading")
  @MethodSource("threads")
  void P14_a_cancelled_job_that_runs_on_still_meets_its_unchanged_timeout(String threading,
      Vertx vertx) {
    AppFixture app = AppFixture.start(vertx, pool(threading));
    List<JsonObject> events = events(vertx);
    PoolClient naps = PoolClient.create(vertx, "naps");
    Future<Outcome> stuck = naps.outcome(JobRequest.of(hang()).withJob("stuck")
        .withTimeoutMs(400));
    awaitStatus(vertx, "naps", running("w-0", "stuck"));

    assertThat(cancel(app, "PoolClient", "stuck")).isTrue();
    assertThat(join(stuck)).isEqualTo(new Outcome.Cancelled("stuck"));

    JsonObject after = awaitStatus(vertx, "naps", idleAt("w-0", 2));
    await().atMost(STEP).until(() -> events.stream()
        .anyMatch(e -> "restart".equals(e.getString("type"))));
    JsonObject restart = events.stream().filter(e -> "restart".equals(e.getString("type")))
        .findFirst().orElseThrow();
    assertThat(restart.getString("exit")).isEqualTo("TIMEOUT");
    assertThat(restart.getString("cause"))
        .isEqualTo("job 'stuck' ran past its timeout of 400 ms");
    assertThat(counter(after, "restarts")).isEqualTo(1);
    assertThat(counter(after, "cancelled")).isEqualTo(1);
    assertThat(counter(after, "interrupted")).as("answered once: cancelled").isZero();
    assertThat(counter(after, "staleCompletions")).isZero();
  }
}
