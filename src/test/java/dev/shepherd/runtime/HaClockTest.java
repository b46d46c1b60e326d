package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.hang;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.TermRunner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A highly available pool's times: its lease is measured on the leader's monotonic clock, so a
 * step of the wall clock neither makes a stale lease look fresh (a leader paused past its lease
 * lets nothing out, however far the wall clock went back meanwhile) nor a fresh one stale (A2,
 * A3); and the journal carries wall times, so a successor whose monotonic clock has another
 * origin (another JVM) recovers a waiting job due at the same instant (J3, J4 with A3). A real
 * {@link Coordinator} leads on a {@link FakeTime}, writing to a store the test holds or
 * acknowledges, which keeps the journal as JSON text as {@code HaStore} does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HaClockTest {
  static final String POOL = "ha-clock";

  private static boolean rejected(List<Outcome> answers, String job) {
    return answers.stream().anyMatch(o -> o instanceof Outcome.Rejected r && r.job().equals(job)
        && r.reason() == RejectionReason.DUPLICATE_JOB);
  }

  @Nested
  class Lease {

    @Test
    void A2_a_leader_paused_past_its_lease_lets_nothing_out_though_the_wall_clock_went_back() {
      HaTestStore store = new HaTestStore();
      try (HaTestLeader leader = new HaTestLeader(new FakeTime(), store, 1,
          new DurableLog.Recovered(DurableImage.empty(0), List.of()))) {
        leader.submit("held", hang(), 0);
        leader.awaitAccepted("held");

        store.hold();
        leader.time.advance(TermRunner.LEASE_MS);
        leader.time.stepWall(-60_000);
        leader.submit("held", hang(), 0);

        assertThat(rejected(leader.answersLeft(), "held"))
            .as("a rejection needs no record, only a fresh lease: it waits").isFalse();
        store.acknowledgeHeld();
        await().atMost(PoolFixture.STEP).until(() -> rejected(leader.answersLeft(), "held"));
      }
    }

    @Test
    void A2_a_fresh_lease_stays_fresh_when_the_wall_clock_jumps_forward() {
      HaTestStore store = new HaTestStore();
      try (HaTestLeader leader = new HaTestLeader(new FakeTime(), store, 1,
          new DurableLog.Recovered(DurableImage.empty(0), List.of()))) {
        leader.submit("held", hang(), 0);
        leader.awaitAccepted("held");

        store.hold();
        leader.time.stepWall(60_000);
        leader.time.advance(1);
        leader.submit("held", hang(), 0);

        assertThat(rejected(leader.answersLeft(), "held"))
            .as("left at once, on a lease a millisecond old, with no write").isTrue();
        store.acknowledgeHeld();
      }
    }
  }

  @Test
  void J4_a_waiting_job_is_journaled_in_wall_time_and_due_at_the_same_instant_after_takeover() {
    HaTestStore store = new HaTestStore();
    FakeTime first = new FakeTime();
    long dueWall;
    try (HaTestLeader leader = new HaTestLeader(first, store, 1,
        new DurableLog.Recovered(DurableImage.empty(0), List.of()))) {
      leader.submit("early", echo("early"), 10_000);
      leader.awaitAccepted("early");
      leader.submit("late", echo("late"), 20_000);
      leader.awaitAccepted("late");
      dueWall = leader.lookup("early").dueAt();
      assertThat(dueWall).isEqualTo(FakeTime.WALL_START + 10_000);
      leader.time.advance(4_000);
    }
    assertThat(store.batches()).flatExtracting(DurableGate.Batch::records)
        .filteredOn(DurableRecord.Accepted.class::isInstance)
        .extracting(r -> ((DurableRecord.Accepted) r).dueAt())
        .as("the accepted records of the waiting jobs, in wall time")
        .containsExactly(dueWall, FakeTime.WALL_START + 20_000);

    // Another JVM: its monotonic clock started elsewhere; its wall clock agrees with the first's.
    FakeTime second = new FakeTime(900_000_000, first.wallMs());
    try (HaTestLeader successor = new HaTestLeader(second, store, 2, store.recovered(1))) {
      JobView waiting = successor.lookup("early");
      assertThat(waiting.state()).isEqualTo(JobView.JobState.WAITING);
      assertThat(waiting.dueAt()).isEqualTo(dueWall);

      successor.time.advance(5_999);
      assertThat(successor.lookup("early").state()).isEqualTo(JobView.JobState.WAITING);
      successor.time.advance(1);
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          successor.lookup("early").state() == JobView.JobState.ANSWERED);
      assertThat(successor.lookup("late").state()).isEqualTo(JobView.JobState.WAITING);
    }
  }
}
