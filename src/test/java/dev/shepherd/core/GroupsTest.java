package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static dev.shepherd.core.Fixture.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** F1 (docs/rules.md): groups, their concurrency and queue capacity, and their memory. */
class GroupsTest {

  private static FlowSettings groups(Map<String, GroupSettings> overrides) {
    return FlowSettings.NONE.withGroups(overrides);
  }

  private static GroupSettings concurrency(int n) {
    return new GroupSettings(n, null, null, null, null);
  }

  @Test
  void F1_a_group_runs_at_most_its_concurrency_and_never_holds_back_another() {
    Fixture fx = Fixture.pool(3).flow(groups(Map.of("a", concurrency(1)))).running();
    assertThat(placed(fx.submitIn("a1", "a", 5))).containsExactly("a1@w-0");
    assertThat(placed(fx.submitIn("a2", "a", 5))).isEmpty();
    assertThat(placed(fx.submitIn("b1", "b", 5))).containsExactly("b1@w-1");
    assertThat(fx.group("a").running()).isEqualTo(1);
    assertThat(fx.group("a").queued()).isEqualTo(1);
    assertThat(placed(fx.complete("a1"))).containsExactly("a2@w-0");
  }

  @Test
  void F1_a_capped_group_never_holds_back_another_in_a_slots_keyed_lane() {
    Fixture fx = Fixture.pool(1).capacity(3).flow(groups(Map.of("a", concurrency(1))))
        .running();
    assertThat(placed(fx.submitIn("a1", "a", "w-0/k1", 5))).containsExactly("a1@w-0");
    assertThat(placed(fx.submitIn("a2", "a", "w-0/k2", 5))).isEmpty();
    assertThat(placed(fx.submitIn("b1", "b", "w-0/k3", 5))).containsExactly("b1@w-0");
    assertThat(placed(fx.submitIn("c1", null, 5))).containsExactly("c1@w-0");
    assertThat(placed(fx.complete("a1"))).containsExactly("a2@w-0");
  }

  @Test
  void F1_a_keyed_job_counts_in_its_group() {
    Fixture fx = Fixture.pool(2).flow(groups(Map.of("a", concurrency(1)))).running();
    assertThat(placed(fx.submitIn("a1", "a", "w-1/k", 5))).containsExactly("a1@w-1");
    assertThat(placed(fx.submitIn("a2", "a", 5))).isEmpty();
    assertThat(fx.group("a").running()).isEqualTo(1);
  }

  @Test
  void F1_a_group_at_its_queue_capacity_is_rejected_group_full() {
    Fixture fx = Fixture.pool(1)
        .flow(groups(Map.of("a", new GroupSettings(null, 1, null, null, null)))).running();
    fx.submitIn("a1", "a", 5);
    fx.submitIn("a2", "a", 5);
    Outcome.Rejected rejected = rejection(fx.submitIn("a3", "a", 5));
    assertThat(rejected.reason()).isEqualTo(RejectionReason.GROUP_FULL);
    assertThat(rejected.payload()).isEqualTo(Fixture.payload("a3"));
    assertThat(placed(fx.submitIn("b1", "b", 5))).isEmpty();
    assertThat(fx.pool.backlogLength()).isEqualTo(2);
  }

  @Test
  void F1_the_pools_own_bound_is_checked_before_the_groups() {
    Fixture fx = Fixture.pool(1).backlog(1)
        .flow(groups(Map.of("a", new GroupSettings(null, 1, null, null, null)))).running();
    fx.submitIn("a1", "a", 5);
    fx.submitIn("a2", "a", 5);
    assertThat(rejection(fx.submitIn("a3", "a", 5)).reason())
        .isEqualTo(RejectionReason.BACKLOG_FULL);
  }

  @Test
  void F1_a_job_that_starts_at_once_needs_no_room_in_its_group() {
    Fixture fx = Fixture.pool(2)
        .flow(groups(Map.of("a", new GroupSettings(null, 1, null, null, null)))).running();
    fx.pause("b");
    fx.submitIn("b1", "b", 5);
    fx.submitIn("a1", "a", 5);
    fx.submitIn("a2", "a", 5);
    assertThat(fx.group("a").running()).isEqualTo(2);
  }

  @Test
  void F1_the_group_defaults_apply_to_every_group_without_an_override() {
    FlowSettings flow = FlowSettings.NONE.withDefaults(new GroupDefaults(1, 0, 1, null));
    Fixture fx = Fixture.pool(3).flow(flow).running();
    fx.submitIn("x1", "x", 5);
    fx.submitIn("x2", "x", 5);
    fx.submitIn("y1", "y", 5);
    fx.submitIn("n1", null, 5);
    fx.submitIn("n2", null, 5);
    assertThat(fx.group("x").running()).isEqualTo(1);
    assertThat(fx.group("y").running()).isEqualTo(1);
    assertThat(fx.pool.backlogLength()).isEqualTo(2);
  }

  @Test
  void F1_raising_the_concurrency_at_run_time_dispatches_at_once() {
    Fixture fx = Fixture.pool(2).flow(groups(Map.of("a", concurrency(1)))).running();
    fx.submitIn("a1", "a", 5);
    fx.submitIn("a2", "a", 5);
    assertThat(placed(fx.setGroup("a", concurrency(2)))).containsExactly("a2@w-1");
    assertThat(fx.group("a").concurrency()).isEqualTo(2);
  }

  @Test
  void F1_an_idle_group_without_override_is_forgotten_and_one_with_an_override_is_kept() {
    Fixture fx = Fixture.pool(1).flow(groups(Map.of("kept", concurrency(1)))).running();
    fx.submitIn("x1", "x", 5);
    assertThat(fx.group("x")).isNotNull();
    assertThat(fx.snapshot().groupCount()).isEqualTo(2);
    fx.complete("x1");
    assertThat(fx.group("x")).isNull();
    assertThat(fx.group("kept")).isNotNull();
    assertThat(fx.snapshot().groupCount()).isEqualTo(1);
    fx.setGroup("y", concurrency(3));
    fx.setGroup("y", null);
    assertThat(fx.group("y")).isNull();
  }

  @Test
  void F1_a_rejected_submit_leaves_no_group_behind() {
    Fixture fx = Fixture.pool(1).backlog(0).running();
    fx.submitIn("x1", "x", 5);
    rejection(fx.submitIn("y1", "y", 5));
    assertThat(fx.group("y")).isNull();
  }

  @Test
  void F1_status_lists_the_busiest_groups_first() {
    Fixture fx = Fixture.pool(1).flow(FlowSettings.NONE.withBusiest(2)).running();
    fx.submitIn("a1", "a", 5);
    fx.submitIn("b1", "b", 5);
    fx.submitIn("b2", "b", 5);
    fx.submitIn("c1", "c", 5);
    fx.submitIn("c2", "c", 5);
    fx.submitIn("c3", "c", 5);
    PoolSnapshot snapshot = fx.snapshot();
    assertThat(snapshot.groupCount()).isEqualTo(3);
    assertThat(snapshot.groups()).extracting(PoolSnapshot.GroupStatus::name)
        .containsExactly("c", "b");
  }

  @Test
  void F1_the_override_in_force_is_the_run_time_one_else_the_configured_one() {
    Fixture fx = Fixture.pool(1).flow(groups(Map.of("a", concurrency(1)))).running();
    assertThat(fx.pool.groupOverride("a")).isEqualTo(concurrency(1));
    assertThat(fx.pool.groupOverride("nobody")).isNull();
    assertThat(fx.group("nobody")).isNull();
    fx.setGroup("a", concurrency(4));
    assertThat(fx.pool.groupOverride("a")).isEqualTo(concurrency(4));
    assertThat(fx.group("a").concurrency()).isEqualTo(4);
    fx.setGroup("a", null);
    assertThat(fx.pool.groupOverride("a")).isEqualTo(concurrency(1));
    assertThat(fx.group("a")).as("a configured group is always known").isNotNull();
  }

  @Test
  void F1_F4_F5_a_groups_fingerprint_names_its_pause_hold_timer_and_refill() {
    FlowGroup group = new FlowGroup("a", null);
    assertThat(group).hasToString("a[running=0 held=0 conc=0 cap=0 weight=1 parked=0]");
    group.pausedSince = 5L;
    group.heldUntil = 7;
    group.readyAt = 9;
    group.refillingUntil = 11;
    assertThat(group).hasToString("a[running=0 held=0 conc=0 cap=0 weight=1 paused@5 heldUntil=7"
        + " readyAt=9 refillingUntil=11 parked=0]");
    assertThat(new FlowGroup(null, null).toString()).startsWith("<default>[");
  }
}
