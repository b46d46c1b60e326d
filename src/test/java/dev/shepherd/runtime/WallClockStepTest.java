package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.fail;
import static dev.shepherd.runtime.PoolFixture.hang;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.phase;
import static dev.shepherd.runtime.PoolFixture.phaseIs;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.status;
import static dev.shepherd.runtime.PoolFixture.supervision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A step of the wall clock (an NTP correction, a resumed virtual machine), back or forward by 60
 * s, moves none of a pool's deadlines: each falls due after exactly its time on the monotonic
 * clock, not a millisecond before, and not 60 s late. A real pool on a {@link FakeTime}: the test
 * steps the wall clock, then lets time pass one millisecond short of the deadline (the job, slot
 * or pool is still where it was) and the last millisecond (it moved on). Times shown to people
 * move with the wall clock: the same instant, as the wall clock now names it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WallClockStepTest {
  private static final String POOL = "clock";

  private Vertx vertx;
  private FakeTime time;
  private PoolClient client;
  private String deployment;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    time = FakeTime.install(vertx);
    client = PoolClient.create(vertx, POOL);
  }

  /** Stops the pool, letting fake time pass until its drain is over, then Vert.x. */
  @AfterEach
  void stop() {
    if (deployment != null && vertx.deploymentIDs().contains(deployment)) {
      Future<Void> undeployed = vertx.undeploy(deployment);
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(20)).until(() -> {
        if (!undeployed.isComplete()) {
          time.advance(500);
        }
        return undeployed.isComplete();
      });
    }
    join(client.close());
    join(vertx.close());
  }

  private void deploy(JsonObject config) {
    deployment = PoolFixture.deployReady(vertx, config);
  }

  private JobView.JobState state(String job) {
    return join(client.lookup(job)).state();
  }

  private JobView awaitState(String job, JobView.JobState state) {
    JobView[] view = new JobView[1];
    await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() -> {
      view[0] = join(client.lookup(job));
      return view[0].state() == state;
    });
    return view[0];
  }

  @ParameterizedTest(name = "wall clock stepped by {0} ms")
  @ValueSource(longs = {-60_000, 60_000})
  void P14_a_job_times_out_after_its_timeoutMs_of_monotonic_time(long step) {
    deploy(demoPool(POOL, 1).put("jobTimeoutMs", 2_000));
    Future<Outcome> stuck = client.outcome(JobRequest.of(hang()).withJob("stuck"));
    awaitStatus(vertx, POOL, running("w-0", "stuck"));

    time.stepWall(step);
    time.advance(1_999);
    assertThat(state("stuck")).isEqualTo(JobView.JobState.RUNNING);
    time.advance(1);

    assertThat(join(stuck)).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
        assertThat(i.reason()).isEqualTo(new Interruption.WorkerStopped("w-0", Exit.TIMEOUT,
            "job 'stuck' ran past its timeout of 2000 ms")));
  }

  @ParameterizedTest(name = "wall clock stepped by {0} ms")
  @ValueSource(longs = {-60_000, 60_000})
  void S5_a_slot_backs_off_for_its_delay_of_monotonic_time_and_shows_its_end_in_wall_time(
      long step) {
    JsonObject config = demoPool(POOL, 1);
    supervision(config).put("restartBackoff",
        new JsonObject().put("initialMs", 1_000).put("maxMs", 1_000).put("jitter", 0.0));
    deploy(config);
    join(client.outcome(JobRequest.of(PoolFixture.crash())));
    JsonObject backingOff = awaitStatus(vertx, POOL, phaseIs("w-0", "BACKING_OFF"));
    long shown = slot(backingOff, "w-0").getLong("backoffUntil");
    assertThat(shown).as("the end, as the wall clock names it").isEqualTo(time.wallMs() + 1_000);

    time.stepWall(step);
    assertThat(slot(status(vertx, POOL), "w-0").getLong("backoffUntil"))
        .as("the same instant, named by the stepped wall clock").isEqualTo(shown + step);
    time.advance(999);
    assertThat(phase(status(vertx, POOL), "w-0")).isEqualTo("BACKING_OFF");
    time.advance(1);

    assertThat(phase(status(vertx, POOL), "w-0")).isNotEqualTo("BACKING_OFF");
    awaitStatus(vertx, POOL, idleAt("w-0", 2));
  }

  @ParameterizedTest(name = "wall clock stepped by {0} ms")
  @ValueSource(longs = {-60_000, 60_000})
  void J3_a_failed_job_waits_its_retry_delay_of_monotonic_time(long step) {
    deploy(demoPool(POOL, 1).put("retryFailures", new JsonObject().put("maxAttempts", 2)
        .put("backoff", new JsonObject().put("initialMs", 1_000).put("maxMs", 1_000)
            .put("jitter", 0.0))));
    Future<Outcome> flaky = client.outcome(JobRequest.of(fail("not yet")).withJob("flaky"));
    JobView waiting = awaitState("flaky", JobView.JobState.WAITING);
    assertThat(waiting.dueAt()).isEqualTo(time.wallMs() + 1_000);

    time.stepWall(step);
    time.advance(999);
    assertThat(state("flaky")).isEqualTo(JobView.JobState.WAITING);
    time.advance(1);

    assertThat(join(flaky)).isInstanceOfSatisfying(Outcome.Failed.class,
        f -> assertThat(f.attempts()).isEqualTo(2));
  }

  @ParameterizedTest(name = "wall clock stepped by {0} ms")
  @ValueSource(longs = {-60_000, 60_000})
  void J4_a_delayed_submit_runs_after_its_delayMs_of_monotonic_time(long step) {
    deploy(demoPool(POOL, 1));
    Future<Outcome> later = client.outcome(JobRequest.of(echo("later")).withJob("later")
        .withDelayMs(5_000));
    JobView waiting = awaitState("later", JobView.JobState.WAITING);
    assertThat(waiting.dueAt()).isEqualTo(time.wallMs() + 5_000);

    time.stepWall(step);
    time.advance(4_999);
    assertThat(state("later")).isEqualTo(JobView.JobState.WAITING);
    time.advance(1);

    assertThat(join(later)).isInstanceOf(Outcome.Completed.class);
  }

  @ParameterizedTest(name = "wall clock stepped by {0} ms")
  @ValueSource(longs = {-60_000, 60_000})
  void P16_running_jobs_get_drainTimeoutMs_of_monotonic_time_to_finish(long step) {
    deploy(demoPool(POOL, 1).put("drainTimeoutMs", 3_000));
    Future<Outcome> stuck = client.outcome(JobRequest.of(hang()).withJob("stuck"));
    awaitStatus(vertx, POOL, running("w-0", "stuck"));
    Future<Void> undeployed = vertx.undeploy(deployment);
    awaitStatus(vertx, POOL, s -> "DRAINING".equals(s.getString("state")));
    assertThat(join(client.outcome(JobRequest.of(echo("late")))))
        .isInstanceOfSatisfying(Outcome.Rejected.class,
            r -> assertThat(r.reason()).isEqualTo(RejectionReason.SHUTTING_DOWN));

    time.stepWall(step);
    time.advance(2_999);
    assertThat(state("stuck")).isEqualTo(JobView.JobState.RUNNING);
    time.advance(1);

    assertThat(join(stuck)).isInstanceOf(Outcome.Interrupted.class);
    join(undeployed);
  }
}
