package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.hang;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.testworkers.GateWorker;
import dev.shepherd.testworkers.NeverStartsWorker;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Graceful stop (P16) of a real coordinator, by undeploying its {@link PoolVerticle} or closing
 * Vert.x: queued jobs are answered {@code interrupted(POOL_STOPPED)} at once with their payload,
 * running ones get {@code drainTimeoutMs} to finish (a {@link GateWorker}'s job runs until the
 * test lets it, so no timing decides what is still running), new submits are rejected {@code
 * SHUTTING_DOWN}, and nothing accepted goes unanswered.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GracefulStopTest {

  private static Future<Outcome> submit(Vertx vertx, String pool, String job, Object payload) {
    return PoolClient.create(vertx, pool).outcome(JobRequest.of(payload).withJob(job));
  }

  /** Where the gates of held jobs ({@link GateWorker}) are. */
  @TempDir
  Path dir;

  /** Lets the job held at {@code gate} finish. */
  private static void open(Path gate) {
    try {
      Files.createFile(gate);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void assertPoolStopped(Outcome outcome, Object payload) {
    assertThat(outcome).isInstanceOfSatisfying(Outcome.Interrupted.class, i -> {
      assertThat(i.reason()).isEqualTo(new Interruption.PoolStopped());
      assertThat(i.payload()).isEqualTo(payload);
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
  void P16_undeploy_interrupts_queued_jobs_at_once_and_lets_running_ones_finish(String threading,
      Vertx vertx) {
    // The running job runs until the test opens its gate: after the queued jobs are answered.
    JsonObject config = demoPool("stop", 1).put("drainTimeoutMs", 10_000);
    worker(config).put("threading", threading).put("class", GateWorker.class.getName());
    String deployment = deployReady(vertx, config);
    Path gate = dir.resolve("running");
    Future<Outcome> runningJob = submit(vertx, "stop", "running",
        new JsonObject().put("gate", gate.toString()));
    awaitStatus(vertx, "stop", running("w-0", "running"));
    Future<Outcome> q1 = submit(vertx, "stop", "q1", echo(1));
    Future<Outcome> q2 = submit(vertx, "stop", "q2", echo(2));
    awaitStatus(vertx, "stop", s -> s.getJsonObject("backlog").getInteger("length") == 2);

    Future<Void> undeployed = vertx.undeploy(deployment);
    Outcome first = join(q1);
    boolean runningStillRunning = !runningJob.isComplete();
    Outcome late = join(submit(vertx, "stop", "late", echo(3)));

    assertPoolStopped(first, echo(1));
    assertPoolStopped(join(q2), echo(2));
    assertThat(runningStillRunning).as("queued jobs are answered before the drain ends").isTrue();
    assertThat(late).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
      assertThat(r.reason()).isEqualTo(RejectionReason.SHUTTING_DOWN);
      assertThat(r.payload()).isEqualTo(echo(3));
    });
    open(gate);
    assertThat(join(runningJob)).isInstanceOfSatisfying(Outcome.Completed.class,
        c -> assertThat(((JsonObject) c.result()).getString("released"))
            .isEqualTo(gate.toString()));
    join(undeployed);
    assertThat(vertx.deploymentIDs()).isEmpty();
  }

  @Test
  void P16_running_jobs_past_the_drain_timeout_are_interrupted_POOL_STOPPED(Vertx vertx) {
    String deployment = deployReady(vertx, demoPool("deadline", 2).put("drainTimeoutMs", 300));
    Future<Outcome> hung = submit(vertx, "deadline", "hung", hang());
    Future<Outcome> slow = submit(vertx, "deadline", "slow", sleep(1_200));
    awaitStatus(vertx, "deadline", s -> running("w-0", "hung").test(s)
        && running("w-1", "slow").test(s));
    join(vertx.undeploy(deployment));

    // When the drain ends (exactly drainTimeoutMs of monotonic time) is WallClockStepTest's to
    // say, on fake time; here, what the jobs still running then are answered.
    assertPoolStopped(join(hung), hang());
    assertPoolStopped(join(slow), sleep(1_200));
  }

  @Test
  void P16_a_pool_whose_worker_never_finishes_starting_still_stops(Vertx vertx) {
    JsonObject config = demoPool("stuck", 1);
    worker(config).put("class", NeverStartsWorker.class.getName());
    String deployment = PoolFixture.deploy(vertx, config);
    Future<Outcome> queued = submit(vertx, "stuck", "queued", echo(1));
    awaitStatus(vertx, "stuck", s -> s.getJsonObject("counters").getLong("accepted") == 1);

    join(vertx.undeploy(deployment));

    assertPoolStopped(join(queued), echo(1));
  }

  @Test
  void P16_a_drain_timeout_of_zero_stops_at_once(Vertx vertx) {
    String deployment = deployReady(vertx, demoPool("now", 1).put("drainTimeoutMs", 0));
    Future<Outcome> hung = submit(vertx, "now", "hung", hang());
    awaitStatus(vertx, "now", running("w-0", "hung"));

    join(vertx.undeploy(deployment));

    assertPoolStopped(join(hung), hang());
  }

  @Test
  void P16_nothing_accepted_goes_unanswered_and_nothing_is_answered_twice(Vertx vertx) {
    JsonObject config = demoPool("many", 3).put("drainTimeoutMs", 400);
    String deployment = deployReady(vertx, config);
    Map<String, AtomicInteger> terminal = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> admissions = new ConcurrentHashMap<>();
    join(vertx.eventBus().<JsonObject>consumer("test.stop.outcomes", m ->
        terminal.computeIfAbsent(m.body().getString("job"), k -> new AtomicInteger())
            .incrementAndGet()).completion());
    List<Future<?>> replies = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      JsonObject payload = i % 5 == 0 ? hang() : sleep(50L * (i % 7));
      String job = "j" + i;
      replies.add(vertx.eventBus().<JsonObject>request(Addresses.forPool("many").submit(),
          new JsonObject().put("job", job).put("payload", payload)
              .put("replyTo", "test.stop.outcomes"))
          .onSuccess(m -> admissions.computeIfAbsent(m.body().getString("type"),
              k -> new AtomicInteger()).incrementAndGet()));
    }
    join(Future.all(replies));

    join(vertx.undeploy(deployment));

    assertThat(admissions.get("accepted")).hasValue(30);
    org.awaitility.Awaitility.await().atMost(STEP).until(() -> terminal.size() == 30);
    assertThat(terminal.values()).allSatisfy(count -> assertThat(count).hasValue(1));
  }

  @ParameterizedTest
  @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
  void P16_closing_vertx_stops_the_pool_gracefully(String threading, Vertx vertx) {
    JsonObject config = demoPool("closing", 1).put("drainTimeoutMs", 10_000);
    worker(config).put("threading", threading).put("class", GateWorker.class.getName());
    deployReady(vertx, config);
    Path gate = dir.resolve("closing");
    Future<Outcome> runningJob = submit(vertx, "closing", "running",
        new JsonObject().put("gate", gate.toString()));
    awaitStatus(vertx, "closing", running("w-0", "running"));
    Future<Outcome> queued = submit(vertx, "closing", "queued", echo(1));
    awaitStatus(vertx, "closing", s -> s.getJsonObject("backlog").getInteger("length") == 1);

    Future<Void> closed = vertx.close();
    Outcome queuedOutcome = join(queued);
    boolean runningStillRunning = !runningJob.isComplete();

    assertPoolStopped(queuedOutcome, echo(1));
    assertThat(runningStillRunning).as("queued jobs are answered before the drain ends").isTrue();
    open(gate);
    assertThat(join(runningJob)).isInstanceOf(Outcome.Completed.class);
    join(closed);
  }
}
