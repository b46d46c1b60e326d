package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.addresses;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobProgress;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.testworkers.CheckpointWorker;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * T2 (docs/rules.md) end to end: a handler's progress reaches the events address, a {@code
 * replyTo} submitter (before its outcome), a {@link PoolClient} callback and lookup; a retried
 * attempt gets the checkpoint; {@code progressTimeoutMs} turns a silent attempt into a hang while
 * a reporting one runs past it; malformed reports are refused and report nothing.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProgressEndToEndTest {
  private static final String POOL = "progress";

  private static JsonObject stepped(long sleepMs, int steps) {
    return new JsonObject().put("sleepMs", sleepMs).put("progress", steps);
  }

  @Test
  void T2_reports_reach_the_events_address_the_client_callback_and_come_before_the_answer(
      Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1));
    List<JsonObject> events = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer(addresses(POOL).events(), m -> {
      if ("progress".equals(m.body().getString("type"))) {
        events.add(m.body());
      }
    }).completion());
    List<JsonObject> heard = new CopyOnWriteArrayList<>();
    PoolClient client = PoolClient.create(vertx, POOL);
    Object result = join(client.submit(JobRequest.of(stepped(200, 4)).withJob("j1"),
        Object.class, heard::add));
    assertThat(result).isNotNull();
    assertThat(heard).isNotEmpty();
    assertThat(heard.get(heard.size() - 1)).isEqualTo(new JsonObject().put("step", 4).put("of", 4));
    await().atMost(STEP).until(() -> events.stream()
        .anyMatch(e -> e.getJsonObject("progress").getInteger("step") == 4));
    JsonObject last = events.get(events.size() - 1);
    assertThat(last.getString("job")).isEqualTo("j1");
    assertThat(last.getString("worker")).isEqualTo("w-0");
    assertThat(last.getInteger("attempt")).isEqualTo(1);
    assertThat(last.getString("pool")).isEqualTo(POOL);
  }

  @Test
  void T2_a_replyTo_submitter_hears_progress_messages_then_its_outcome(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1));
    List<JsonObject> received = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer("test.progress.reply",
        m -> received.add(m.body())).completion());
    JsonObject admission = PoolFixture.request(vertx, addresses(POOL).submit(), new JsonObject()
        .put("job", "j2").put("payload", stepped(150, 3)).put("replyTo", "test.progress.reply"));
    assertThat(admission.getString("type")).isEqualTo("accepted");
    await().atMost(STEP).until(() -> received.stream()
        .anyMatch(m -> "completed".equals(m.getString("type"))));
    JsonObject outcome = received.get(received.size() - 1);
    assertThat(outcome.getString("type")).isEqualTo("completed");
    List<JsonObject> progress = received.subList(0, received.size() - 1);
    assertThat(progress).isNotEmpty().allSatisfy(m -> {
      assertThat(m.getString("type")).isEqualTo("progress");
      assertThat(m.getString("job")).isEqualTo("j2");
      assertThat(m.getInteger("attempt")).isEqualTo(1);
    });
    assertThat(progress.get(progress.size() - 1).getJsonObject("progress").getInteger("step"))
        .isEqualTo(3);
  }

  @Test
  void T2_lookup_returns_the_last_progress_of_a_running_job(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1));
    PoolClient client = PoolClient.create(vertx, POOL);
    join(client.admit(JobRequest.of(stepped(3_000, 3)).withJob("j3")));
    await().atMost(STEP).until(() -> {
      JobView view = join(client.lookup("j3"));
      return view.state() == JobView.JobState.RUNNING && view.progress() != null;
    });
    JsonObject json = PoolFixture.request(vertx, addresses(POOL).job(),
        new JsonObject().put("job", "j3"));
    assertThat(json.getJsonObject("progress").getInteger("of")).isEqualTo(3);
    join(client.cancel("j3"));
  }

  @Test
  void T2_a_retried_attempt_receives_the_checkpoint(Vertx vertx) {
    JsonObject config = demoPool(POOL, 1).put("interruption", "RETRY").put("maxAttempts", 3)
        .put("poisonAfter", 0);
    config.getJsonObject("worker").put("class", CheckpointWorker.class.getName());
    deployReady(vertx, config);
    Object result = join(PoolClient.create(vertx, POOL).submit(JobRequest.of(new JsonObject())));
    assertThat(result).isEqualTo(new JsonObject()
        .put("resumedFrom", new JsonObject().put("done", "first half")).put("attempt", 2));
  }

  @Test
  void T2_progressTimeoutMs_turns_a_silent_attempt_into_a_hang(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1).put("progressTimeoutMs", 300));
    Outcome silent = PoolFixture.run(vertx, POOL, PoolFixture.hang());
    assertThat(silent).isInstanceOf(Outcome.Interrupted.class);
    Interruption why = ((Outcome.Interrupted) silent).reason();
    assertThat(why).isInstanceOf(Interruption.WorkerStopped.class);
    assertThat(((Interruption.WorkerStopped) why).exit()).isEqualTo(Exit.TIMEOUT);
    assertThat(((Interruption.WorkerStopped) why).cause()).contains("reported no progress");
  }

  @Test
  void T2_a_submit_s_own_progressTimeoutMs_overrides_the_pool_s_and_is_checked(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1));
    JsonObject outcome = PoolFixture.request(vertx, addresses(POOL).submit(), new JsonObject()
        .put("payload", PoolFixture.hang()).put("progressTimeoutMs", 200));
    assertThat(outcome.getString("type")).isEqualTo("interrupted");
    assertThat(outcome.getJsonObject("reason").getString("exit")).isEqualTo("TIMEOUT");
    for (Object bad : List.of(0, -1, "100", 1.5, Long.MAX_VALUE)) {
      assertThat(PoolFixture.refused(vertx, addresses(POOL).submit(), new JsonObject()
          .put("payload", 1).put("progressTimeoutMs", bad)).getMessage())
          .contains("progressTimeoutMs");
    }
  }

  @Test
  void T2_a_reporting_attempt_runs_past_its_progress_timeout(Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 1).put("progressTimeoutMs", 600));
    // 1.5 s in 15 steps of 100 ms: never silent for 600 ms.
    Outcome reporting = PoolFixture.run(vertx, POOL, stepped(1_500, 15));
    assertThat(reporting).isInstanceOf(Outcome.Completed.class);
  }

  @Test
  void T2_a_negative_progressTimeoutMs_fails_the_deployment_naming_the_field(Vertx vertx) {
    Throwable failure = PoolFixture.failure(vertx.deployVerticle(new PoolVerticle(),
        new io.vertx.core.DeploymentOptions().setConfig(
            demoPool(POOL, 1).put("progressTimeoutMs", -5))));
    assertThat(failure).hasMessageContaining("progressTimeoutMs");
  }

  @Test
  void T2_malformed_reports_are_refused_and_report_nothing() {
    Job job = new Job("j", new JsonObject(), 1, null, "w-0", 1, 1);
    assertThatThrownBy(() -> job.progress(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("progress");
    String big = "x".repeat((int) JobProgress.MAX_BYTES);
    assertThatThrownBy(() -> job.progress(new JsonObject().put("big", big)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("progress")
        .hasMessageContaining(Long.toString(JobProgress.MAX_BYTES));
    assertThatThrownBy(() -> job.progress(new JsonObject().put("odd", new Object())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("progress");
    assertThat(job.checkpoint()).isNull();
  }
}
