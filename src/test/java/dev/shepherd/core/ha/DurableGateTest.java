package dev.shepherd.core.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Effect;
import dev.shepherd.core.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gate between a durable pool and the world (A2, A3): effects after a record wait for the
 * store, everything waits for a fresh lease, a refused write closes it for good, and checkpoints
 * keep the answers still waiting. {@code FailoverSimulationTest} checks it end to end.
 */
class DurableGateTest {
  private static final long LEASE = 2_000;

  private final List<Effect> released = new ArrayList<>();
  private final List<DurableGate.Batch> written = new ArrayList<>();
  private int live;
  private final DurableGate gate = new DurableGate(LEASE, 0, () -> live, new DurableGate.Output() {
    @Override
    public boolean release(Effect effect) {
      return released.add(effect);
    }

    @Override
    public void write(DurableGate.Batch batch) {
      written.add(batch);
    }
  });

  private static Effect.Persist accepted(String job) {
    return new Effect.Persist(new DurableRecord.Accepted(job, 0, 0, "p", null, "r", 0, 0, null));
  }

  private static Effect.Respond answer(Outcome outcome) {
    return new Effect.Respond("r", outcome);
  }

  private static Effect.Persist answered(String job) {
    return new Effect.Persist(new DurableRecord.Answered(job, "r", new Outcome.Cancelled(job)));
  }

  @Test
  void A3_accepted_leaves_only_once_the_store_has_the_record() {
    gate.offer(List.of(accepted("a"), answer(new Outcome.Accepted("a"))));
    gate.pump(10);
    assertThat(released).isEmpty();
    assertThat(written).hasSize(1);
    assertThat(written.get(0).records()).hasSize(1);
    gate.written(written.get(0).id(), 20);
    assertThat(released).containsExactly(answer(new Outcome.Accepted("a")));
  }

  @Test
  void A3_records_of_the_turns_during_a_write_go_together_in_the_next_batch() {
    gate.offer(List.of(accepted("a"), answer(new Outcome.Accepted("a"))));
    gate.pump(10);
    gate.offer(List.of(accepted("b"), answer(new Outcome.Accepted("b"))));
    gate.pump(11);
    gate.offer(List.of(accepted("c"), answer(new Outcome.Accepted("c"))));
    gate.pump(12);
    assertThat(written).hasSize(1);
    gate.written(1, 13);
    assertThat(written).hasSize(2);
    assertThat(written.get(1).records()).hasSize(2);
    assertThat(released).containsExactly(answer(new Outcome.Accepted("a")));
    gate.written(2, 14);
    assertThat(released).hasSize(3);
  }

  @Test
  void A3_answers_that_left_are_reported_delivered_in_the_next_batch() {
    gate.offer(List.of(answered("a"), answer(new Outcome.Cancelled("a"))));
    gate.pump(10);
    gate.written(1, 11);
    assertThat(written).hasSize(2);
    assertThat(written.get(1).delivered()).containsExactly("a");
    assertThat(written.get(1).records()).isEmpty();
  }

  @Test
  void A2_nothing_leaves_without_a_fresh_lease_and_an_empty_batch_renews_it() {
    gate.offer(List.of(new Effect.Deploy("w-0", 1)));
    gate.pump(LEASE + 5);
    assertThat(released).isEmpty();
    assertThat(written).hasSize(1);
    assertThat(written.get(0).records()).isEmpty();
    gate.written(1, LEASE + 10);
    assertThat(released).containsExactly(new Effect.Deploy("w-0", 1));
  }

  @Test
  void A2_an_acknowledgement_that_comes_after_the_lease_lets_nothing_out() {
    gate.offer(List.of(accepted("a"), answer(new Outcome.Accepted("a"))));
    gate.pump(10);
    gate.written(1, 10 + LEASE);
    assertThat(released).isEmpty();
    assertThat(written).hasSize(2);
  }

  @Test
  void A2_a_refused_write_closes_the_gate_for_good() {
    gate.offer(List.of(accepted("a"), answer(new Outcome.Accepted("a"))));
    gate.pump(10);
    assertThat(gate.writing()).isTrue();
    gate.failed(1);
    assertThat(gate.writing()).as("the one write in flight failed").isFalse();
    assertThat(gate.waiting()).isZero();
    gate.offer(List.of(new Effect.Deploy("w-0", 1)));
    gate.pump(11);
    gate.written(1, 12);
    assertThat(released).isEmpty();
    assertThat(gate.closed()).isTrue();
    assertThat(written).hasSize(1);
  }

  @Test
  void A2_an_idle_coordinator_renews_its_lease_at_half_of_it() {
    gate.renew(LEASE / 2 - 1);
    assertThat(written).isEmpty();
    gate.renew(LEASE / 2);
    assertThat(written).hasSize(1);
  }

  @Test
  void A3_a_checkpoint_keeps_the_answers_still_waiting() {
    gate.offer(List.of(answered("a"), answer(new Outcome.Cancelled("a"))));
    gate.pump(10);
    DurableGate.Batch first = written.get(0);
    assertThat(first.checkpoint()).isTrue();
    assertThat(first.undelivered()).extracting(DurableRecord.Answered::job).containsExactly("a");
    DurableLog.Base base = DurableLog.checkpoint(DurableImage.empty(1), first);
    DurableLog.Recovered recovered = DurableLog.recover(base, List.of(), 1);
    assertThat(recovered.undelivered()).extracting(DurableRecord.Answered::job)
        .containsExactly("a");
  }

  @Test
  void A3_the_log_replays_records_and_forgets_delivered_answers() {
    DurableGate.Batch one = new DurableGate.Batch(1, List.of(accepted("a").record(),
        accepted("b").record(), answered("a").record()), List.of(), false, List.of());
    DurableGate.Batch two = new DurableGate.Batch(2, List.of(answered("b").record()),
        List.of("a"), false, List.of());
    DurableLog.Recovered recovered = DurableLog.recover(DurableLog.Base.empty(0),
        List.of(one, two), 3);
    assertThat(recovered.image().jobs()).isEmpty();
    assertThat(recovered.image().term()).isEqualTo(3);
    assertThat(recovered.undelivered()).extracting(DurableRecord.Answered::job)
        .containsExactly("b");
  }
}
