package dev.shepherd.core;

import static dev.shepherd.core.Fixture.outcomes;
import static dev.shepherd.core.Fixture.placed;
import static dev.shepherd.core.Fixture.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** F5 (docs/rules.md): pausing and resuming a pool or a group. */
class PauseTest {

  @Test
  void F5_a_paused_pool_dispatches_nothing_new_running_jobs_finish_and_resume_dispatches_at_once() {
    Fixture fx = Fixture.pool(2).running();
    fx.submit("a");
    fx.at(10).pause(null);
    assertThat(placed(fx.submit("b"))).isEmpty();
    assertThat(outcomes(fx.complete("a"))).hasSize(1);
    assertThat(placed(fx.log())).doesNotContain("b@w-0", "b@w-1");
    PoolSnapshot snapshot = fx.snapshot();
    assertThat(snapshot.paused()).isTrue();
    assertThat(snapshot.pausedSince()).isEqualTo(10L);
    assertThat(placed(fx.at(20).resume(null))).containsExactly("b@w-0");
    assertThat(fx.snapshot().paused()).isFalse();
    assertThat(fx.snapshot().pausedSince()).isNull();
  }

  @Test
  void F5_pausing_twice_keeps_the_first_since_and_resuming_what_runs_changes_nothing() {
    Fixture fx = Fixture.pool(1).running();
    fx.at(5).pause(null);
    fx.at(9).pause(null);
    assertThat(fx.snapshot().pausedSince()).isEqualTo(5L);
    fx.resume(null);
    assertThat(fx.resume(null)).isEmpty();
    assertThat(fx.resume("nobody")).isEmpty();
  }

  @Test
  void F5_a_paused_group_never_holds_back_another() {
    Fixture fx = Fixture.pool(2).running();
    fx.at(3).pause("a");
    assertThat(placed(fx.submitIn("a1", "a", 5))).isEmpty();
    assertThat(placed(fx.submitIn("b1", "b", 5))).containsExactly("b1@w-0");
    assertThat(placed(fx.submitIn("k1", "a", "w-1/k", 5))).isEmpty();
    assertThat(placed(fx.submitIn("k2", "b", "w-1/k2", 5))).containsExactly("k2@w-1");
    PoolSnapshot.GroupStatus a = fx.group("a");
    assertThat(a.paused()).isTrue();
    assertThat(a.pausedSince()).isEqualTo(3L);
    assertThat(a.queued()).isEqualTo(2);
    fx.complete("b1");
    assertThat(placed(fx.resume("a"))).containsExactly("a1@w-0");
  }

  @Test
  void F5_pausing_the_group_of_a_suspect_a_busy_slot_waits_for_lets_another_group_start_at_once() {
    Fixture fx = Fixture.pool(2).capacity(2).jobs(PoisonTest.AT_ONCE).retry(5).running();
    fx.pause("b");
    fx.submitIn("b1", "b", "w-1/k2", 5);
    assertThat(placed(fx.submitIn("s", "a", "w-1/k", 5))).containsExactly("s@w-1");
    fx.crash("w-1");
    fx.resume("b");
    assertThat(placed(fx.created("w-1"))).as("b's older queue first; then the suspect waits")
        .containsExactly("b1@w-1");
    assertThat(placed(fx.submitIn("b2", "b", "w-1/k2", 5))).isEmpty();
    assertThat(placed(fx.pause("a"))).as("a paused suspect holds back no other group (F1, F5)")
        .containsExactly("b2@w-1");
  }

  @Test
  void F5_set_group_pauses_and_resumes_with_its_paused_field() {
    Fixture fx = Fixture.pool(1).running();
    fx.setGroup("a", new GroupSettings(null, null, null, null, true));
    fx.submitIn("a1", "a", 5);
    assertThat(fx.group("a").paused()).isTrue();
    assertThat(placed(fx.setGroup("a", new GroupSettings(null, null, null, null, false))))
        .containsExactly("a1@w-0");
  }

  @Test
  void F5_a_configured_paused_group_starts_paused() {
    Fixture fx = Fixture.pool(1).flow(FlowSettings.NONE.withGroups(
        Map.of("a", new GroupSettings(null, null, null, null, true)))).running();
    assertThat(placed(fx.submitIn("a1", "a", 5))).isEmpty();
    assertThat(placed(fx.resume("a"))).containsExactly("a1@w-0");
  }

  @Test
  void F5_a_pool_that_rejects_when_paused_answers_paused() {
    Fixture fx = Fixture.pool(1).flow(FlowSettings.NONE.withRejectWhenPaused(true)).running();
    fx.pause("a");
    assertThat(rejection(fx.submitIn("a1", "a", 5)).reason()).isEqualTo(RejectionReason.PAUSED);
    assertThat(placed(fx.submitIn("b1", "b", 5))).containsExactly("b1@w-0");
    fx.pause(null);
    assertThat(rejection(fx.submitIn("b2", "b", 5)).reason()).isEqualTo(RejectionReason.PAUSED);
    assertThat(fx.group("a").queued()).isZero();
  }

  @Test
  void F5_a_stop_while_paused_answers_the_queued_jobs_and_drains_the_running_ones() {
    Fixture fx = Fixture.pool(1).running();
    fx.submit("run");
    fx.pause(null);
    fx.submit("queued");
    var effects = fx.stopRequested();
    assertThat(fx.terminal("queued")).isInstanceOf(Outcome.Interrupted.class);
    assertThat(fx.pool.state()).isEqualTo(PoolState.DRAINING);
    fx.complete("run");
    assertThat(fx.terminal("run")).isInstanceOf(Outcome.Completed.class);
    assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
    assertThat(effects).isNotEmpty();
  }

  @Test
  void F5_a_pause_moves_no_binding_and_costs_no_budget() {
    Fixture fx = Fixture.pool(2).running();
    fx.submitIn("k1", "a", "w-1/k", 5);
    fx.pause(null);
    fx.pause("a");
    fx.complete("k1");
    fx.resume("a");
    fx.resume(null);
    assertThat(fx.pool.binding("w-1/k")).isEqualTo("w-1");
    assertThat(fx.counters().restarts()).isZero();
    assertThat(fx.snapshot().restartsInWindow()).isZero();
  }
}
