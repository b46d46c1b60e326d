package dev.shepherd.core;

import static dev.shepherd.core.Fixture.assigns;
import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Dispatch (P6): slot order, FIFO per eligible slot, fresh tokens. */
class DispatchTest {

  @Nested
  class Order {

    @Test
    void P6_free_slots_take_queued_jobs_in_slot_order() {
      Fixture fx = Fixture.pool(3).started();
      fx.submitAll("j1", "j2", "j3");
      fx.created("w-2");
      fx.created("w-0");
      List<Effect> effects = fx.created("w-1");
      assertThat(placed(effects)).containsExactly("j3@w-1");
      assertThat(fx.workerOf("j1")).isEqualTo("w-2");
      assertThat(fx.workerOf("j2")).isEqualTo("w-0");
    }

    @Test
    void P6_each_slot_takes_the_earliest_job_eligible_for_it() {
      Fixture fx = Fixture.pool(3).running();
      fx.submitAll("busy0", "busy1", "busy2");
      fx.submit("a", "w-1/k");
      fx.submit("b");
      fx.submit("c", "w-0/k");
      fx.submit("d");
      assertThat(placed(fx.complete("busy0"))).containsExactly("b@w-0");
      assertThat(placed(fx.complete("busy2"))).containsExactly("d@w-2");
      assertThat(placed(fx.complete("busy1"))).containsExactly("a@w-1");
      assertThat(placed(fx.complete("b"))).containsExactly("c@w-0");
    }

    @Test
    void P6_fifo_holds_among_jobs_eligible_for_the_same_slot() {
      Fixture fx = Fixture.pool(1).running();
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        String job = "j" + i;
        if (i % 3 == 0) {
          fx.submit(job, "w-0/k");
        } else {
          fx.submit(job);
        }
        expected.add(job + "@w-0");
      }
      List<String> order = new ArrayList<>(placed(fx.log()));
      for (int i = 0; i < 20; i++) {
        order.addAll(placed(fx.complete("j" + i)));
      }
      assertThat(order).containsExactlyElementsOf(expected);
    }

    @Test
    void P6_a_slot_with_spare_capacity_takes_several_jobs_in_one_dispatch() {
      Fixture fx = Fixture.pool(2).capacity(2).started();
      fx.submitAll("j1", "j2", "j3", "j4", "j5");
      fx.created("w-1");
      List<Effect> effects = fx.created("w-0");
      assertThat(placed(fx.log())).containsExactly(
          "j1@w-1", "j2@w-1", "j3@w-0", "j4@w-0");
      assertThat(placed(effects)).containsExactly("j3@w-0", "j4@w-0");
      assertThat(fx.pool.backlogLength()).isEqualTo(1);
    }

    @Test
    void P6_several_free_slots_are_filled_in_repeated_passes_in_slot_order() {
      Fixture fx = Fixture.pool(2).capacity(2).started();
      fx.register("r-1", 4);
      fx.submitAll("j1", "j2", "j3", "j4");
      fx.created("w-0");
      fx.created("w-1");
      List<Effect> effects = fx.deregister("r-1");
      assertThat(placed(effects)).containsExactly("j1@w-0", "j2@w-1", "j3@w-0", "j4@w-1");
    }
  }

  @Nested
  class Tokens {

    @Test
    void P6_every_dispatch_gets_a_fresh_increasing_token_never_reused_on_retry() {
      Fixture fx = Fixture.pool(2).running();
      fx.submitAll("j1", "j2", "j3");
      long t1 = fx.token("j1");
      long t2 = fx.token("j2");
      fx.crash("w-0");
      fx.created("w-0");
      long retried = fx.token("j1");
      fx.complete("j2");
      long t3 = fx.token("j3");
      List<Long> tokens = assigns(fx.log()).stream().map(Effect.Assign::assignment).toList();
      assertThat(tokens).doesNotHaveDuplicates().isSorted();
      assertThat(List.of(t1, t2, retried, t3)).isSorted().doesNotHaveDuplicates();
      assertThat(fx.assignment("j1").attempt()).isEqualTo(2);
    }

    @Test
    void P6_tokens_carry_the_coordinators_term_in_their_high_bits() {
      Fixture fx = Fixture.pool(1).term(3).running();
      fx.submit("j1");
      assertThat(fx.token("j1") >>> PoolSettings.TERM_SHIFT).isEqualTo(3);
      assertThat(fx.token("j1")).isEqualTo((3L << PoolSettings.TERM_SHIFT) + 1);
    }

    @Test
    void P6_assignment_carries_job_payload_attempt_and_key() {
      Fixture fx = Fixture.pool(1).running();
      List<Effect> effects = fx.submit("j1", "w-0/user");
      assertThat(assigns(effects)).containsExactly(new Effect.Assign(
          "w-0", fx.token("j1"), "j1", Fixture.payload("j1"), 1, "w-0/user"));
    }

    @Test
    void P6_slot_with_a_live_assignment_is_ASSIGNED_and_may_still_take_more() {
      Fixture fx = Fixture.pool(1).capacity(3).running();
      fx.submit("j1");
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.ASSIGNED);
      assertThat(placed(fx.submit("j2"))).containsExactly("j2@w-0");
      fx.complete("j1");
      fx.complete("j2");
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.IDLE);
    }
  }
}
