package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The jobs held back until a due time (J3, J4 in docs/rules.md): the heap they wait in keeps their
 * due order through early departures and its own compaction.
 */
class WaitingTest {

  /** A pool whose only slot is still installing, so nothing due runs: it is queued. */
  private static Fixture installing() {
    return Fixture.pool(1).jobs(JobSettings.DEFAULT).started();
  }

  @Test
  void J4_jobs_cancelled_while_many_wait_leave_the_others_waiting_for_their_time() {
    Fixture fx = installing();
    for (int i = 0; i < 70; i++) {
      fx.submitDelayed("d" + i, 1_000 + i);
    }
    // Cancelling most of them makes the heap compact itself (tombstones outnumber the live).
    for (int i = 0; i < 50; i++) {
      fx.cancel("d" + i);
    }
    assertThat(fx.snapshot().backlogWaiting()).isEqualTo(20);
    fx.tick(1_059);
    for (int i = 50; i < 60; i++) {
      assertThat(fx.lookup("d" + i).state()).as("d" + i).isEqualTo(JobView.JobState.QUEUED);
    }
    for (int i = 60; i < 70; i++) {
      assertThat(fx.lookup("d" + i).state()).as("d" + i).isEqualTo(JobView.JobState.WAITING);
    }
    fx.tick(1_069);
    assertThat(fx.pool.backlogLength()).isEqualTo(20);
    assertThat(fx.snapshot().backlogWaiting()).isZero();
  }

  @Test
  void P10_J4_the_last_waiting_job_cancelled_after_a_retirement_answered_the_rest_leaves_none() {
    Fixture fx = Fixture.pool(2).budget(0, 10_000).jobs(JobSettings.DEFAULT).running();
    for (int i = 0; i < 70; i++) {
      String job = "k" + i;
      fx.apply(new PoolEvent.Submit(job, Fixture.payload(job), "w-1/k", Fixture.reply(job), 0, 0,
          1_000, null, 0));
    }
    fx.submitDelayed("last", 500);
    // w-1 retires: the 70 jobs waiting for it are answered; their entries stay in the heap,
    // behind the one due first, which is still waiting.
    fx.crash("w-1");
    assertThat(fx.interruptionOf("k69"))
        .isEqualTo(new Interruption.AffinityRetired("w-1", Retirement.REPLACEMENT_UNAVAILABLE));
    assertThat(fx.snapshot().backlogWaiting()).isEqualTo(1);
    fx.cancel("last");
    assertThat(fx.terminal("last")).isEqualTo(new Outcome.Cancelled("last"));
    assertThat(fx.snapshot().backlogWaiting()).isZero();
    assertThat(Fixture.placed(fx.tick(1_000))).isEmpty();
  }

  @Test
  void F6_J4_a_slot_taken_out_moves_its_waiting_jobs_in_their_waiting_order() {
    Fixture fx = Fixture.pool(2).jobs(JobSettings.DEFAULT).selector(Selectors.rendezvous())
        .durable().running();
    for (String key : List.of("x", "y", "z")) {
      fx.rebalance(key, "w-1");
    }
    // Added in this order the heap holds z, y, x; the waiting order is z (due first), x, y.
    fx.apply(new PoolEvent.Submit("x", "p", "x", "r", 0, 0, 300, null, 0));
    fx.apply(new PoolEvent.Submit("y", "p", "y", "r", 0, 0, 300, null, 0));
    fx.apply(new PoolEvent.Submit("z", "p", "z", "r", 0, 0, 100, null, 0));
    fx.apply(new PoolEvent.Resize(1, 1, 0));
    assertThat(fx.records().stream().filter(DurableRecord.Retargeted.class::isInstance)
        .map(DurableRecord.Retargeted.class::cast).map(DurableRecord.Retargeted::job).toList())
        .containsExactly("z", "x", "y");
  }

  @Test
  void P16_J4_a_stop_answers_the_waiting_jobs_earliest_due_first() {
    Fixture fx = installing();
    fx.submitDelayed("late", 300);
    fx.submitDelayed("early", 100);
    fx.submitDelayed("middle", 200);
    List<String> answered = new ArrayList<>();
    for (Outcome outcome : Fixture.outcomes(fx.stopRequested())) {
      answered.add(outcome.job());
    }
    assertThat(answered).containsExactly("early", "middle", "late");
  }
}
