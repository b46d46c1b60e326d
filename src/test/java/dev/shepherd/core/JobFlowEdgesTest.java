package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Edges of the job path the other rule tests pass by: a keyed job queued for a slot that is free
 * but may not start it (paused, held), a rate-limited answer in a drain, a cancel that frees the
 * jobs behind a suspect, and a replay refused by a pause. Each step is checked against {@link
 * PoolInvariants} by the fixture (a free slot with queued jobs of its own is marked so).
 */
class JobFlowEdgesTest {

  @Nested
  class KeyedJobsOnAFreeSlot {

    @Test
    void F5_a_keyed_job_accepted_while_the_pool_is_paused_starts_on_its_free_slot_at_resume() {
      Fixture fx = Fixture.pool(2).running();
      fx.pause(null);
      assertThat(placed(fx.submit("a", "w-1/k"))).isEmpty();
      assertThat(fx.lookup("a").state()).isEqualTo(JobView.JobState.QUEUED);
      assertThat(placed(fx.resume(null))).containsExactly("a@w-1");
    }

    @Test
    void J3_a_keyed_failure_retried_while_the_pool_is_paused_runs_again_on_its_slot_at_resume() {
      Fixture fx = Fixture.pool(2).running();
      fx.apply(new PoolEvent.Submit("a", Fixture.payload("a"), "w-1/k", Fixture.reply("a"), 0,
          0, 0, new FailureRetry(2, Backoff.NONE), fx.now()));
      assertThat(fx.workerOf("a")).isEqualTo("w-1");
      fx.pause(null);
      List<Effect> failed = fx.failJob("a", new JobError(500, "try again"));
      assertThat(Fixture.outcomes(failed)).as("retried, not answered").isEmpty();
      assertThat(fx.lookup("a").state()).isEqualTo(JobView.JobState.QUEUED);
      assertThat(placed(fx.resume(null))).containsExactly("a@w-1");
      assertThat(fx.assignment("a").attempt()).isEqualTo(2);
    }

    @Test
    void F4_a_keyed_job_back_from_a_rate_limit_runs_on_its_slot_when_the_hold_ends() {
      Fixture fx = Fixture.pool(2).running();
      fx.submitIn("a", "g", "w-1/k", 5);
      assertThat(fx.workerOf("a")).isEqualTo("w-1");
      assertThat(placed(fx.rateLimited("a", 100))).as("its group is held").isEmpty();
      assertThat(fx.lookup("a").state()).isEqualTo(JobView.JobState.QUEUED);
      assertThat(placed(fx.tick(100))).containsExactly("a@w-1");
      assertThat(fx.assignment("a").attempt()).as("the held start was not counted").isEqualTo(1);
    }
  }

  @Nested
  class Drain {

    @Test
    void F4_P16_a_rate_limited_answer_in_a_drain_is_answered_POOL_STOPPED_and_ends_the_drain() {
      Fixture fx = Fixture.pool(1).drain(10_000).running();
      fx.submitAll("a", "b");
      fx.stopRequested();
      assertThat(fx.interruptionOf("b")).as("queued: answered at once")
          .isInstanceOf(Interruption.PoolStopped.class);
      assertThat(fx.snapshot().state()).isEqualTo(PoolState.DRAINING);
      fx.rateLimited("a", 50);
      assertThat(fx.interruptionOf("a")).isInstanceOf(Interruption.PoolStopped.class);
      assertThat(fx.open()).isEmpty();
      assertThat(fx.snapshot().state()).as("its last assignment ended the drain")
          .isEqualTo(PoolState.STOPPED);
    }
  }

  @Nested
  class Suspects {

    @Test
    void J2_cancelling_the_waiting_suspects_lets_the_jobs_behind_them_start_at_once() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 2), new SlotSpec("w-1", 2))
          .jobs(PoisonTest.AT_ONCE).running();
      fx.submitAll("a", "b", "c", "d");
      fx.crash("w-0");
      fx.submit("e");
      assertThat(placed(fx.complete("c"))).as("a and b wait for an idle slot; e behind them")
          .isEmpty();
      assertThat(placed(fx.cancel("a"))).as("b still waits").isEmpty();
      assertThat(placed(fx.cancel("b"))).as("no suspect waits: e joins d on w-1")
          .containsExactly("e@w-1");
    }
  }

  @Nested
  class Replay {

    @Test
    void J5_F5_a_replay_refused_because_the_pool_is_paused_stays_in_the_set() {
      Fixture fx = Fixture.pool(1).jobs(DeadLetterTest.RULES)
          .flow(FlowSettings.NONE.withRejectWhenPaused(true)).running();
      DeadLetterTest.poison(fx, "bad");
      fx.pause(null);
      List<Effect> replayed = fx.replay("bad");
      assertThat(Fixture.rejection(replayed).reason()).isEqualTo(RejectionReason.PAUSED);
      assertThat(Fixture.notices(replayed, Notice.DeadLetterRemoved.class)).isEmpty();
      assertThat(fx.pool.deadLetter("bad")).isNotNull();
    }

    @Test
    void J5_P4_a_replay_of_a_forgotten_key_for_which_the_selector_chooses_no_worker_stays_in_the_set() {
      // Chooses the first worker with nothing in flight, or none.
      AffinitySelector firstFree = (key, slots) -> {
        for (int i = 0; i < slots.size(); i++) {
          if (slots.inFlight(i) == 0) {
            return slots.id(i);
          }
        }
        return null;
      };
      Fixture fx = Fixture.pool(1).jobs(DeadLetterTest.RULES).selector(firstFree)
          .limits(new PoolLimits(Long.MAX_VALUE, 0, 0)).running();
      fx.submit("bad", "k");
      fx.crash("w-0");
      fx.created("w-0");
      fx.crash("w-0");
      fx.created("w-0");
      assertThat(fx.pool.deadLetter("bad").key()).isEqualTo("k");
      assertThat(fx.pool.binding("k")).as("an idle binding beyond the limit is forgotten").isNull();
      assertThat(placed(fx.submit("busy"))).containsExactly("busy@w-0");
      List<Effect> replayed = fx.replay("bad");
      assertThat(Fixture.rejection(replayed).reason())
          .isEqualTo(RejectionReason.AFFINITY_UNAVAILABLE);
      assertThat(Fixture.notices(replayed, Notice.DeadLetterRemoved.class)).isEmpty();
      assertThat(fx.pool.deadLetter("bad")).as("a refused replay keeps its dead letter")
          .isNotNull();
    }

    @Test
    void J5_F1_a_replay_refused_because_its_group_is_at_its_queue_capacity_stays_in_the_set() {
      Fixture fx = Fixture.pool(1).jobs(DeadLetterTest.RULES)
          .flow(FlowSettings.NONE.withGroups(
              java.util.Map.of("a", new GroupSettings(null, 1, null, null, null))))
          .running();
      fx.submitIn("bad", "a", 5);
      fx.crash("w-0");
      fx.created("w-0");
      fx.crash("w-0");
      fx.created("w-0");
      assertThat(fx.pool.deadLetter("bad").group()).isEqualTo("a");
      assertThat(placed(fx.submitIn("a1", "a", 5))).containsExactly("a1@w-0");
      assertThat(placed(fx.submitIn("a2", "a", 5))).isEmpty();
      List<Effect> replayed = fx.replay("bad");
      assertThat(Fixture.rejection(replayed).reason()).isEqualTo(RejectionReason.GROUP_FULL);
      assertThat(Fixture.notices(replayed, Notice.DeadLetterRemoved.class)).isEmpty();
      assertThat(fx.pool.deadLetter("bad")).as("a refused replay keeps its dead letter")
          .isNotNull();
    }

    @Test
    void J5_P15_a_replay_refused_because_its_id_is_held_again_stays_in_the_set() {
      Fixture fx = Fixture.pool(1).jobs(DeadLetterTest.RULES).running();
      DeadLetterTest.poison(fx, "bad");
      fx.submit("bad");
      List<Effect> replayed = fx.replay("bad");
      assertThat(Fixture.rejection(replayed).reason()).isEqualTo(RejectionReason.DUPLICATE_JOB);
      assertThat(Fixture.notices(replayed, Notice.DeadLetterRemoved.class)).isEmpty();
      assertThat(fx.pool.deadLetter("bad")).as("a refused replay keeps its dead letter")
          .isNotNull();
    }
  }
}
