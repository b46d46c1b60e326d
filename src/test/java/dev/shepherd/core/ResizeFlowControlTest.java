package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * F6 with flow control (F1, F5 in docs/rules.md): a leaving slot's keyed jobs keep their group,
 * priority and order, group counts stay exact, and a resize works while the pool is paused.
 */
class ResizeFlowControlTest {

  private static final GroupSettings ONE_AT_A_TIME = new GroupSettings(1, null, null, null, null);

  private static List<Effect> resize(Fixture fx, int instances, int maxConcurrency) {
    return fx.apply(new PoolEvent.Resize(instances, maxConcurrency, fx.now()));
  }

  @Test
  void F6_F1_a_leaving_slots_keyed_jobs_of_a_capped_group_move_in_order_and_counts_stay_exact() {
    Fixture fx = Fixture.pool(2).selector(ResizeTest.PREFIX_OR_FIRST)
        .flow(FlowSettings.NONE.withGroups(Map.of("a", ONE_AT_A_TIME))).running();
    assertThat(placed(fx.submitIn("a1", "a", "w-1/k", 5))).containsExactly("a1@w-1");
    fx.submitIn("a2", "a", "w-1/k", 5);
    fx.submitIn("a3", "a", "w-1/k", 1);
    fx.submitIn("a4", "a", "w-1/k", 5);
    fx.submitIn("u1", "a", 5);

    List<Effect> shrink = resize(fx, 1, 1);

    // The group is at its concurrency: nothing of it starts on w-0, though w-0 is free.
    assertThat(placed(shrink)).isEmpty();
    assertThat(fx.slot("w-1").phase()).isEqualTo(Phase.DRAINING);
    assertThat(fx.group("a").running()).isEqualTo(1);
    assertThat(fx.group("a").queued()).isEqualTo(4);
    assertThat(fx.pool.backlogLength()).isEqualTo(4);
    // A capped group's moved jobs never hold back another group on their new slot.
    assertThat(placed(fx.submitIn("b1", "b", "w-1/k2", 5))).containsExactly("b1@w-0");

    fx.complete("a1");
    assertThat(fx.snapshot().slots()).extracting(PoolSnapshot.SlotStatus::id)
        .containsExactly("w-0");
    assertThat(fx.group("a").running()).isZero();
    assertThat(fx.group("a").queued()).isEqualTo(4);
    // Priority first (a3 at 1), then FIFO within the group, keyed and unkeyed alike.
    assertThat(placed(fx.complete("b1"))).containsExactly("a3@w-0");
    assertThat(placed(fx.complete("a3"))).containsExactly("a2@w-0");
    assertThat(placed(fx.complete("a2"))).containsExactly("a4@w-0");
    assertThat(placed(fx.complete("a4"))).containsExactly("u1@w-0");
    fx.complete("u1");
    assertThat(fx.group("a").queued()).isZero();
    assertThat(fx.group("a").running()).isZero();
    assertThat(fx.pool.backlogLength()).isZero();
    assertThat(fx.counters().restarts()).isZero();
  }

  @Test
  void F6_F1_a_paused_groups_keyed_jobs_move_with_their_key_and_start_once_it_resumes() {
    Fixture fx = Fixture.pool(2).selector(ResizeTest.PREFIX_OR_FIRST).running();
    fx.pause("a");
    fx.submitIn("a1", "a", "w-1/k", 5);
    fx.submitIn("a2", "a", "w-1/k", 5);

    List<Effect> shrink = resize(fx, 1, 1);

    assertThat(placed(shrink)).isEmpty();
    assertThat(fx.snapshot().slots()).extracting(PoolSnapshot.SlotStatus::id)
        .containsExactly("w-0");
    assertThat(fx.group("a").queued()).isEqualTo(2);
    assertThat(fx.group("a").paused()).isTrue();
    assertThat(placed(fx.resume("a"))).containsExactly("a1@w-0");
    assertThat(placed(fx.complete("a1"))).containsExactly("a2@w-0");
  }

  @Test
  void F6_F5_a_resize_while_paused_drains_and_adds_slots_and_resume_dispatches_on_the_new_size() {
    Fixture fx = Fixture.pool(2).running();
    fx.submitAll("j1", "j2");
    fx.at(10).pause(null);
    fx.submitAll("j3", "j4", "j5");

    resize(fx, 1, 1);
    assertThat(fx.slot("w-1").phase()).isEqualTo(Phase.DRAINING);
    // A drained slot leaves while paused; nothing new is dispatched.
    assertThat(placed(fx.complete("j2"))).isEmpty();
    assertThat(fx.snapshot().slots()).extracting(PoolSnapshot.SlotStatus::id)
        .containsExactly("w-0");

    List<Effect> grow = resize(fx, 3, 1);
    assertThat(Fixture.only(grow, Effect.Deploy.class))
        .containsExactly(new Effect.Deploy("w-1", 2), new Effect.Deploy("w-2", 1));
    assertThat(placed(fx.created("w-1"))).isEmpty();
    assertThat(placed(fx.created("w-2"))).isEmpty();
    assertThat(placed(fx.complete("j1"))).isEmpty();
    PoolSnapshot paused = fx.snapshot();
    assertThat(paused.paused()).isTrue();
    assertThat(paused.pausedSince()).isEqualTo(10L);
    assertThat(paused.size()).isEqualTo(new PoolSize(3, 1));
    assertThat(paused.backlogLength()).isEqualTo(3);

    assertThat(placed(fx.resume(null))).containsExactly("j3@w-0", "j4@w-1", "j5@w-2");
    assertThat(fx.counters().restarts()).isZero();
  }

  @Test
  void F6_A3_a_moved_job_keeps_its_group_and_priority_in_the_records_and_on_a_new_leader() {
    Fixture fx = Fixture.pool(2).durable().selector(ResizeTest.PREFIX_OR_FIRST)
        .flow(FlowSettings.NONE.withGroups(Map.of("a", ONE_AT_A_TIME))).running();
    fx.submitIn("a1", "a", "w-1/k", 5);
    fx.submitIn("a2", "a", "w-1/k", 2);
    resize(fx, 1, 1);

    DurableImage.JobImage moved = fx.storedImage().jobs().stream()
        .filter(j -> j.job().equals("a2")).findFirst().orElseThrow();
    assertThat(moved.target()).isEqualTo("w-0");
    assertThat(moved.group()).isEqualTo("a");
    assertThat(moved.priority()).isEqualTo(2);
    assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());

    Fixture next = fx.takeOver();
    next.created("w-0");
    assertThat(next.snapshot().size()).isEqualTo(new PoolSize(1, 1));
    assertThat(next.group("a").running()).isEqualTo(1);
    assertThat(next.group("a").queued()).isEqualTo(1);
  }
}
