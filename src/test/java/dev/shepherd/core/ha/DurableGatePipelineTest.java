package dev.shepherd.core.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Counters;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Effect;
import dev.shepherd.core.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A gate with several writes in flight (A2, A3 in docs/rules.md): each turn's batch is sent
 * without waiting for the one before, batches commit in order of their ids whatever order the
 * store acknowledges them in, effects leave in order and only once everything they follow is
 * stored, and one failed write closes the gate however many came back. Batches carry the pool's
 * totals as they are sent (T3).
 */
class DurableGatePipelineTest {
  private static final long LEASE = 2_000;

  private final List<Effect> released = new ArrayList<>();
  private final List<DurableGate.Batch> written = new ArrayList<>();
  private long accepted;
  private final DurableGate gate = new DurableGate(LEASE, 0, () -> 0,
      () -> new Counters(accepted, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 3,
      new DurableGate.Output() {
        @Override
        public boolean release(Effect effect) {
          return released.add(effect);
        }

        @Override
        public void write(DurableGate.Batch batch) {
          written.add(batch);
        }
      });

  private static Effect.Persist record(String job) {
    return new Effect.Persist(new DurableRecord.Accepted(job, 0, 0, "p", null, "r", 0, 0, null));
  }

  private static Effect.Respond answer(String job) {
    return new Effect.Respond("r", new Outcome.Accepted(job));
  }

  /** One turn: job {@code job} accepted, its admission behind its record. */
  private void turn(String job, long now) {
    accepted++;
    gate.offer(List.of(record(job), answer(job)));
    gate.pump(now);
  }

  @Test
  void A3_each_turns_batch_is_sent_while_earlier_ones_are_in_flight_up_to_the_limit() {
    turn("a", 1);
    turn("b", 2);
    turn("c", 3);
    turn("d", 4);
    assertThat(written).extracting(DurableGate.Batch::id).containsExactly(1L, 2L, 3L);
    assertThat(released).isEmpty();
    gate.written(1, 5);
    assertThat(released).containsExactly(answer("a"));
    assertThat(written).extracting(DurableGate.Batch::id).containsExactly(1L, 2L, 3L, 4L);
    assertThat(written.get(3).records()).hasSize(1);
  }

  @Test
  void A3_an_acknowledgement_out_of_order_waits_for_the_batches_before_it() {
    turn("a", 1);
    turn("b", 2);
    turn("c", 3);
    gate.written(3, 4);
    gate.written(2, 5);
    assertThat(released).isEmpty();
    gate.written(1, 6);
    assertThat(released).containsExactly(answer("a"), answer("b"), answer("c"));
    assertThat(gate.writing()).isFalse();
  }

  @Test
  void A2_a_failed_write_closes_the_gate_even_when_later_ones_were_acknowledged() {
    turn("a", 1);
    turn("b", 2);
    gate.written(2, 3);
    gate.failed(1);
    gate.written(1, 4);
    turn("c", 5);
    assertThat(released).isEmpty();
    assertThat(gate.closed()).isTrue();
    assertThat(written).hasSize(2);
  }

  @Test
  void A2_the_lease_runs_from_the_send_of_the_last_batch_committed() {
    turn("a", 100);
    turn("b", 1_500);
    gate.written(1, 1_600);
    gate.written(2, 1_700);
    assertThat(released).containsExactly(answer("a"), answer("b"));
    // Effects without records wait only for a fresh lease: from 1,500, not 100.
    gate.offer(List.of(answer("x")));
    gate.pump(3_400);
    assertThat(released).endsWith(answer("x"));
    gate.offer(List.of(answer("y")));
    gate.pump(3_600);
    assertThat(released).doesNotContain(answer("y"));
  }

  @Test
  void T3_each_batch_carries_the_totals_as_it_is_sent() {
    turn("a", 1);
    turn("b", 2);
    assertThat(written).extracting(b -> b.counters().accepted()).containsExactly(1L, 2L);
  }
}
