package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Counters;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.ha.DurableLog;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * T3 (docs/rules.md) across a failover of a highly available pool: the new leader's counters go
 * on from the totals of the old leader's last write, so they still add up (every accepted job
 * completed, failed, interrupted, cancelled or still held), instead of starting from zero. Real
 * {@link dev.shepherd.runtime.coordinator.Coordinator}s lead on {@link FakeTime}s, writing to an
 * {@link HaTestStore} that keeps the journal as JSON text.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HaCountersFailoverTest {
  /** On the event loop, so the old leader's long jobs end with it rather than after them. */
  private static final JsonObject POOL = demoPool("ha-counters", 2);

  static {
    POOL.getJsonObject("worker").put("threading", "EVENT_LOOP");
  }

  private static Counters counters(HaTestLeader leader) {
    return leader.on(() -> leader.coordinator.snapshot().counters());
  }

  private static long answered(Counters c) {
    return c.completed() + c.failed() + c.interrupted() + c.cancelled();
  }

  private static long terminal(HaTestLeader leader) {
    return leader.answersLeft().stream().filter(Outcome::terminal).count();
  }

  @Test
  void T3_the_new_leaders_counters_continue_the_old_ones_and_add_up() {
    HaTestStore store = new HaTestStore();
    FakeTime first = new FakeTime();
    Counters before;
    try (HaTestLeader leader = new HaTestLeader(first, store, 1,
        new DurableLog.Recovered(DurableImage.empty(0), List.of()), POOL)) {
      for (int i = 0; i < 5; i++) {
        leader.submit("echo-" + i, echo(i), 0);
      }
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10))
          .until(() -> terminal(leader) == 5);
      leader.submit("long-0", sleep(30_000), 0);
      leader.submit("long-1", sleep(30_000), 0);
      leader.awaitAccepted("long-0");
      leader.awaitAccepted("long-1");
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          leader.lookup("long-0").state() == JobView.JobState.RUNNING
              && leader.lookup("long-1").state() == JobView.JobState.RUNNING);
      before = counters(leader);
      assertThat(before.accepted()).isEqualTo(7);
      assertThat(before.completed()).isEqualTo(5);
      leader.time.advance(1_000);
    }

    FakeTime second = new FakeTime(700_000_000, first.wallMs());
    try (HaTestLeader successor = new HaTestLeader(second, store, 2, store.recovered(1), POOL)) {
      Counters after = counters(successor);
      assertThat(after.accepted()).as("not from zero").isEqualTo(before.accepted());
      assertThat(after.completed()).isEqualTo(before.completed());
      // The pool answers FAIL: the two running jobs are answered interrupted (NODE_LOST).
      assertThat(after.interrupted()).isEqualTo(before.interrupted() + 2);
      assertThat(answered(after) + successor.on(() -> successor.coordinator.pool().unanswered()))
          .isEqualTo(after.accepted());

      successor.submit("echo-after", echo("after"), 0);
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10))
          .until(() -> counters(successor).completed() == before.completed() + 1);
      Counters later = counters(successor);
      assertThat(later.accepted()).isEqualTo(before.accepted() + 1);
      assertThat(answered(later)).isEqualTo(later.accepted());
    }
  }
}
