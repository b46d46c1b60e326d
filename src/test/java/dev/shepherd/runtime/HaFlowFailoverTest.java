package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.JobView;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.RateLimit;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.wire.Requests;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * F5 and F1 (docs/rules.md) across a failover of a highly available pool: a new leader that
 * recovers the journal keeps the pool paused since the same wall time, and keeps an operator's
 * group settings and group pause, so it runs nothing the old leader held back; a resume then runs
 * the jobs. Real {@link dev.shepherd.runtime.coordinator.Coordinator}s lead on {@link FakeTime}s,
 * writing to an {@link HaTestStore} that keeps the journal as JSON text.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HaFlowFailoverTest {
  private static final JsonObject POOL = demoPool("ha-flow", 2);

  private static void submit(HaTestLeader leader, String job, String group) {
    leader.on(() -> {
      leader.coordinator.submit(new Requests.Submit(job, echo(job), null, null, 10_000, 0, 0,
          null, group, Requests.Submit.DEFAULT_PRIORITY), leader.answers::add);
      return null;
    });
  }

  private static PoolSnapshot snapshot(HaTestLeader leader) {
    return leader.on(() -> leader.coordinator.snapshot());
  }

  @Test
  void F5_F1_a_new_leader_keeps_the_pause_and_the_groups_limits() {
    HaTestStore store = new HaTestStore();
    FakeTime first = new FakeTime();
    long pausedSince;
    try (HaTestLeader leader = new HaTestLeader(first, store, 1,
        new DurableLog.Recovered(DurableImage.empty(0), List.of()), POOL)) {
      join(leader.on(() -> leader.coordinator.flow().setGroup("tenant",
          new GroupSettings(1, 50, 3, new RateLimit(4, 1000), true))));
      join(leader.on(() -> leader.coordinator.flow().pause(null)));
      submit(leader, "held", null);
      submit(leader, "tenant-job", "tenant");
      leader.awaitAccepted("held");
      leader.awaitAccepted("tenant-job");
      pausedSince = snapshot(leader).pausedSince();
      assertThat(pausedSince).isEqualTo(FakeTime.WALL_START);
      leader.time.advance(3_000);
    }

    FakeTime second = new FakeTime(700_000_000, first.wallMs());
    try (HaTestLeader successor = new HaTestLeader(second, store, 2, store.recovered(1), POOL)) {
      PoolSnapshot s = snapshot(successor);
      assertThat(s.paused()).isTrue();
      assertThat(s.pausedSince()).as("the same instant, in wall time").isEqualTo(pausedSince);
      PoolSnapshot.GroupStatus tenant = successor.on(() -> successor.coordinator.pool()
          .group("tenant"));
      assertThat(tenant.concurrency()).isEqualTo(1);
      assertThat(tenant.queueCapacity()).isEqualTo(50);
      assertThat(tenant.weight()).isEqualTo(3);
      assertThat(tenant.rateLimit()).isEqualTo(new RateLimit(4, 1000));
      assertThat(tenant.paused()).isTrue();
      assertThat(successor.lookup("held").state()).isEqualTo(JobView.JobState.QUEUED);

      join(successor.on(() -> successor.coordinator.flow().resume(null)));
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          successor.lookup("held").state() == JobView.JobState.ANSWERED);
      assertThat(successor.lookup("tenant-job").state()).as("its group is still paused")
          .isEqualTo(JobView.JobState.QUEUED);
      join(successor.on(() -> successor.coordinator.flow().resume("tenant")));
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          successor.lookup("tenant-job").state() == JobView.JobState.ANSWERED);

      join(successor.on(() -> successor.coordinator.flow().setGroup("tenant",
          new GroupSettings(null, null, 5, null, null))));
      PoolSnapshot.GroupStatus changed = successor.on(() -> successor.coordinator.pool()
          .group("tenant"));
      assertThat(changed.weight()).isEqualTo(5);
      assertThat(changed.concurrency()).as("a partial change keeps what the old leader set")
          .isEqualTo(1);
      assertThat(changed.queueCapacity()).isEqualTo(50);
      assertThat(changed.rateLimit()).isEqualTo(new RateLimit(4, 1000));
      assertThat(changed.paused()).as("a change does not repeat an earlier pause").isFalse();
    }
  }
}
