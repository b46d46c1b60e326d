package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.testworkers.ResumingWorker;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * T2 with A3 (docs/rules.md) across a failover of a highly available pool: the running job's
 * checkpoint is journaled (a {@code checkpointed} record, as JSON text in the {@link
 * HaTestStore}), and its retry on the new leader is handed that checkpoint and resumes from it; a
 * job's own {@code progressTimeoutMs} is journaled with its admission and guards its retry there.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HaCheckpointFailoverTest {
  private static final JsonObject POOL = demoPool("ha-checkpoint", 1)
      .put("interruption", "RETRY").put("maxAttempts", 3);

  /** The pool's own progress timeout, far above the job's. */
  private static final long POOL_PROGRESS_TIMEOUT_MS = 60_000;
  private static final long OWN_PROGRESS_TIMEOUT_MS = 500;
  private static final JsonObject SILENT_POOL = demoPool("ha-silent", 1)
      .put("interruption", "RETRY").put("maxAttempts", 2)
      .put("progressTimeoutMs", POOL_PROGRESS_TIMEOUT_MS);

  static {
    POOL.getJsonObject("worker").put("class", ResumingWorker.class.getName())
        .put("threading", "EVENT_LOOP");
  }

  @Test
  void T2_a_retry_on_the_new_leader_resumes_from_the_checkpoint_the_old_one_journaled() {
    ResumingWorker.RESUMED.clear();
    HaTestStore store = new HaTestStore();
    FakeTime first = new FakeTime();
    try (HaTestLeader leader = new HaTestLeader(first, store, 1,
        new DurableLog.Recovered(DurableImage.empty(0), List.of()), POOL)) {
      leader.submit("long", new JsonObject(), 0);
      leader.awaitAccepted("long");
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() -> {
        JobView view = leader.lookup("long");
        return view.state() == JobView.JobState.RUNNING && view.progress() != null;
      });
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          store.batches().stream().flatMap(b -> b.records().stream())
              .anyMatch(r -> r instanceof DurableRecord.Checkpointed c
                  && c.job().equals("long")));
      leader.time.advance(1_000);
    }

    DurableLog.Recovered recovered = store.recovered(1);
    FakeTime second = new FakeTime(700_000_000, first.wallMs());
    try (HaTestLeader successor = new HaTestLeader(second, store, 2, recovered, POOL)) {
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10))
          .until(() -> !ResumingWorker.RESUMED.isEmpty());
      assertThat(ResumingWorker.RESUMED).containsExactly(new JsonObject()
          .put("resumedFrom", new JsonObject().put("done", "first half")).put("attempt", 2));
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          successor.on(() -> successor.coordinator.snapshot().counters().completed()) == 1);
    }
  }

  @Test
  void T2_a_jobs_own_progress_timeout_survives_a_failover() {
    HaTestStore store = new HaTestStore();
    FakeTime first = new FakeTime();
    try (HaTestLeader leader = new HaTestLeader(first, store, 1,
        new DurableLog.Recovered(DurableImage.empty(0), List.of()), SILENT_POOL)) {
      leader.on(() -> {
        leader.coordinator.submit(new Requests.Submit("silent", PoolFixture.hang(), null, null,
            0, 0, 0, null, null, Requests.Submit.DEFAULT_PRIORITY, OWN_PROGRESS_TIMEOUT_MS),
            leader.answers::add);
        return null;
      });
      leader.awaitAccepted("silent");
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          leader.lookup("silent").state() == JobView.JobState.RUNNING);
      assertThat(store.recovered(1).image().jobs())
          .extracting(DurableImage.JobImage::progressTimeoutMs)
          .containsExactly(OWN_PROGRESS_TIMEOUT_MS);
    }

    FakeTime second = new FakeTime(700_000_000, first.wallMs());
    try (HaTestLeader successor = new HaTestLeader(second, store, 2, store.recovered(1),
        SILENT_POOL)) {
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          successor.lookup("silent").state() == JobView.JobState.RUNNING);
      assertThat(successor.lookup("silent").attempts()).isEqualTo(2);
      successor.time.advance(OWN_PROGRESS_TIMEOUT_MS - 1);
      assertThat(successor.lookup("silent").state()).isEqualTo(JobView.JobState.RUNNING);
      // Its own timeout, not the pool's minute: the silent retry is hung and, its attempts
      // spent, answered.
      successor.time.advance(1);
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          successor.lookup("silent").state() != JobView.JobState.RUNNING);
      Outcome answer = successor.lookup("silent").outcome();
      assertThat(answer).isInstanceOf(Outcome.Interrupted.class);
      assertThat(((Outcome.Interrupted) answer).reason().toString()).contains("TIMEOUT");
    }
  }
}
