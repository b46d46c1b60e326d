package dev.shepherd.core.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Effect;
import dev.shepherd.core.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gate at its edges (A2, A3 in docs/rules.md): when a checkpoint is due, a lease that started
 * later than zero, what a closed gate still holds, and the counts it reports.
 */
class DurableGateEdgesTest {
  private static final long LEASE = 2_000;

  private final List<Effect> released = new ArrayList<>();
  private final List<DurableGate.Batch> written = new ArrayList<>();
  /** The entries of the pool's image, as the gate is told them. */
  private int entries;

  private DurableGate gate(long leaseFrom) {
    return new DurableGate(LEASE, leaseFrom, () -> entries, new DurableGate.Output() {
      @Override
      public boolean release(Effect effect) {
        return released.add(effect);
      }

      @Override
      public void write(DurableGate.Batch batch) {
        written.add(batch);
      }
    });
  }

  private static List<Effect> accepted(int from, int count) {
    List<Effect> effects = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      effects.add(new Effect.Persist(
          new DurableRecord.Accepted("j" + i, 0, 0, "p", null, "r", 0, 0, null)));
    }
    return effects;
  }

  /** Offers {@code count} records, writes them, and returns the batch they went in. */
  private DurableGate.Batch writeRecords(DurableGate gate, int from, int count, long now) {
    gate.offer(accepted(from, count));
    gate.pump(now);
    DurableGate.Batch batch = written.get(written.size() - 1);
    gate.written(batch.id(), now);
    return batch;
  }

  @Test
  void A3_a_checkpoint_comes_once_the_log_would_pass_4096_records_and_eight_per_image_entry() {
    DurableGate gate = gate(0);
    assertThat(writeRecords(gate, 0, 1, 1).checkpoint()).as("the first batch").isTrue();
    assertThat(writeRecords(gate, 1, 4000, 2).checkpoint()).isFalse();
    assertThat(writeRecords(gate, 4001, 96, 3).checkpoint()).as("4096 in the log").isFalse();
    DurableGate.Batch due = writeRecords(gate, 4097, 1, 4);
    assertThat(due.checkpoint()).as("4097 would pass 4096").isTrue();
    assertThat(due.records()).hasSize(1);
    assertThat(writeRecords(gate, 4098, 4096, 5).checkpoint()).as("counting starts over")
        .isFalse();
    entries = 4_000;
    assertThat(writeRecords(gate, 9000, 27_904, 6).checkpoint()).as("32,000 = 8 per image entry")
        .isFalse();
    assertThat(writeRecords(gate, 37000, 1, 7).checkpoint()).isTrue();
    entries = 10_256;
    assertThat(writeRecords(gate, 38000, 82_048, 8).checkpoint())
        .as("10,000 recent outcomes and 256 jobs: 82,048 records before the next").isFalse();
    assertThat(writeRecords(gate, 130000, 1, 9).checkpoint()).isTrue();
  }

  @Test
  void A3_a_gate_that_goes_on_with_a_recovered_log_writes_no_checkpoint_first() {
    DurableGate gate = gate(0);
    gate.continueLog(4_000);
    assertThat(writeRecords(gate, 0, 3, 1).checkpoint()).as("the recovery's own records")
        .isFalse();
    assertThat(writeRecords(gate, 3, 93, 2).checkpoint()).as("4096 in the log").isFalse();
    assertThat(writeRecords(gate, 96, 1, 3).checkpoint())
        .as("the records recovered count toward the next checkpoint").isTrue();
  }

  @Test
  void A3_a_gate_goes_on_with_a_recovered_log_only_before_its_first_batch() {
    DurableGate gate = gate(0);
    writeRecords(gate, 0, 1, 1);
    assertThatThrownBy(() -> gate.continueLog(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("batch 1 was sent already");
  }

  @Test
  void A2_the_lease_runs_from_when_the_term_was_claimed_not_from_zero() {
    DurableGate gate = gate(10_000);
    gate.renew(10_000 + LEASE / 2 - 1);
    assertThat(written).isEmpty();
    gate.offer(List.of(new Effect.Deploy("w-0", 1)));
    gate.pump(10_000 + LEASE - 1);
    assertThat(released).as("fresh until the lease is over").containsExactly(
        new Effect.Deploy("w-0", 1));
    assertThat(written).isEmpty();
    gate.renew(10_000 + LEASE / 2);
    assertThat(written).hasSize(1);
    assertThat(gate.writing()).isTrue();
  }

  @Test
  void A2_a_closed_gate_holds_nothing_and_writes_nothing() {
    DurableGate gate = gate(0);
    assertThat(gate.closed()).isFalse();
    assertThat(gate.writing()).isFalse();
    gate.offer(List.of(new Effect.Deploy("w-0", 1), new Effect.Persist(
        new DurableRecord.Answered("a", "r", new Outcome.Cancelled("a"))),
        new Effect.Respond("r", new Outcome.Cancelled("a"))));
    assertThat(gate.waiting()).as("effects, not barriers").isEqualTo(2);
    gate.close();
    assertThat(gate.closed()).isTrue();
    assertThat(gate.waiting()).isZero();
    assertThat(gate.writing()).isFalse();
    gate.pump(1);
    gate.renew(LEASE);
    assertThat(written).isEmpty();
    assertThat(released).isEmpty();
  }

  @Test
  void A3_an_effect_after_a_record_waits_for_its_own_batch_not_the_one_in_flight() {
    DurableGate gate = gate(0);
    gate.offer(accepted(0, 1));
    gate.pump(1);
    assertThat(written).hasSize(1);
    Effect answer = new Effect.Respond("r", new Outcome.Accepted("j1"));
    gate.offer(List.of(accepted(1, 1).get(0), answer));
    gate.pump(2);
    gate.written(1, 3);
    assertThat(released).as("batch 2 holds j1's record and is not written yet").isEmpty();
    assertThat(written).hasSize(2);
    gate.written(2, 4);
    assertThat(released).containsExactly(answer);
  }

  @Test
  void A3_resent_answers_leave_after_the_records_before_them_and_are_reported_delivered() {
    DurableGate gate = gate(0);
    DurableRecord.Answered old = new DurableRecord.Answered("a", "r-a", new Outcome.Cancelled("a"));
    assertThat(DurableGate.resent(List.of(old)))
        .containsExactly(new Effect.Respond("r-a", new Outcome.Cancelled("a")));
    gate.offer(accepted(0, 1));
    gate.resend(List.of(old));
    assertThat(gate.waiting()).isEqualTo(1);
    gate.pump(1);
    assertThat(released).isEmpty();
    gate.written(1, 2);
    assertThat(released).containsExactly(new Effect.Respond("r-a", new Outcome.Cancelled("a")));
    assertThat(written.get(written.size() - 1).delivered()).containsExactly("a");
  }
}
