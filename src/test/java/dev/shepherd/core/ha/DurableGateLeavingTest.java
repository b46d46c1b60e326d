package dev.shepherd.core.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Effect;
import dev.shepherd.core.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A3 (docs/rules.md): an answer is reported delivered only once it has left. Here the output's
 * transport writes terminal answers later ({@link DurableGate.Output#release} returns false), as
 * a coordinator's answers to another node do: a batch that said "delivered" before the bytes left
 * could outlive them in a {@code kill -9}, and no successor would send the answer again.
 */
class DurableGateLeavingTest {
  private static final long LEASE = 2_000;

  private final List<Effect> released = new ArrayList<>();
  private final List<DurableGate.Batch> written = new ArrayList<>();
  private final DurableGate gate = new DurableGate(LEASE, 0, () -> 0, new DurableGate.Output() {
    @Override
    public boolean release(Effect effect) {
      released.add(effect);
      return !(effect instanceof Effect.Respond respond && respond.outcome().terminal());
    }

    @Override
    public void write(DurableGate.Batch batch) {
      written.add(batch);
    }
  });

  private static Effect.Persist answered(String job) {
    return new Effect.Persist(new DurableRecord.Answered(job, "r-" + job,
        new Outcome.Cancelled(job)));
  }

  private static Effect.Respond answer(String job) {
    return new Effect.Respond("r-" + job, new Outcome.Cancelled(job));
  }

  /** Offers job's answer with its record, and commits the batch that holds the record. */
  private Effect.Respond release(String job, long now) {
    Effect.Respond answer = answer(job);
    gate.offer(List.of(answered(job), answer));
    gate.pump(now);
    gate.written(written.get(written.size() - 1).id(), now + 1);
    return (Effect.Respond) released.get(released.size() - 1);
  }

  @Test
  void A3_an_answer_still_being_written_is_not_reported_delivered() {
    release("a", 10);
    assertThat(released).containsExactly(answer("a"));
    assertThat(gate.leaving()).isOne();
    assertThat(written).hasSize(1).allSatisfy(b -> assertThat(b.delivered()).isEmpty());
    assertThat(gate.writing()).as("nothing to report yet, nothing written").isFalse();
  }

  @Test
  void A3_an_answer_is_reported_delivered_in_the_batch_after_its_transport_wrote_it() {
    Effect.Respond a = release("a", 10);
    gate.left(a);
    gate.pump(20);
    assertThat(gate.leaving()).isZero();
    assertThat(written).hasSize(2);
    assertThat(written.get(1).delivered()).containsExactly("a");
  }

  @Test
  void A3_answers_written_out_of_order_are_reported_as_they_leave() {
    Effect.Respond a = release("a", 10);
    Effect.Respond b = release("b", 20);
    gate.left(b);
    gate.pump(30);
    gate.written(written.get(written.size() - 1).id(), 31);
    gate.left(a);
    gate.pump(40);
    assertThat(written.get(written.size() - 2).delivered()).containsExactly("b");
    assertThat(written.get(written.size() - 1).delivered()).containsExactly("a");
  }

  @Test
  void A3_a_checkpoint_keeps_the_answers_still_being_written_among_those_to_send_again() {
    release("a", 10);
    // The first batch was a checkpoint; ask for another by growing past the spacing.
    List<Effect> many = new ArrayList<>();
    for (int i = 0; i < DurableGate.MIN_CHECKPOINT_RECORDS + 1; i++) {
      many.add(answered("x" + i));
    }
    gate.offer(many);
    gate.offer(List.of(answered("b"), answer("b")));
    gate.pump(20);
    DurableGate.Batch checkpoint = written.get(written.size() - 1);
    assertThat(checkpoint.checkpoint()).isTrue();
    assertThat(checkpoint.undelivered()).extracting(DurableRecord.Answered::job)
        .containsExactly("a", "b");
  }

  @Test
  void A3_a_report_of_an_answer_the_gate_does_not_hold_changes_nothing() {
    release("a", 10);
    gate.left(answer("a"));
    gate.pump(20);
    assertThat(gate.leaving()).as("only the effect released counts").isOne();
    gate.close();
    gate.left((Effect.Respond) released.get(0));
    gate.pump(30);
    assertThat(written).hasSize(1);
  }
}
