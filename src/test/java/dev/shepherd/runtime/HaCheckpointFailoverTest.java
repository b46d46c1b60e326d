package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.JobView;
import dev.shepherd.core.ha.DurableLog;
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
 * HaTestStore}), and its retry on the new leader is handed that checkpoint and resumes from it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HaCheckpointFailoverTest {
  private static final JsonObject POOL = demoPool("ha-checkpoint", 1)
      .put("interruption", "RETRY").put("maxAttempts", 3);

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
}
