package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A3 with section 11 (F1, F3, F5 in docs/rules.md): a durable pool journals its groups' overrides,
 * pauses and its jobs' groups and priorities, and a new leader enforces the same limits.
 */
class FlowRecoveryTest {

  @Test
  void F1_a_recovered_pool_enforces_the_same_group_limits_and_pauses() {
    Fixture fx = Fixture.pool(3).durable().running();
    fx.setGroup("a", new GroupSettings(1, null, 2, null, null));
    fx.at(7).pause("p");
    fx.submitIn("a1", "a", 5);
    fx.submitIn("a2", "a", 5);
    fx.submitIn("p1", "p", 5);
    assertThat(fx.pool.durableImage()).isEqualTo(fx.storedImage());
    Fixture next = fx.takeOver();
    next.created("w-0");
    next.created("w-1");
    next.created("w-2");
    assertThat(next.group("a").concurrency()).isEqualTo(1);
    assertThat(next.group("a").weight()).isEqualTo(2);
    assertThat(next.group("a").running()).isEqualTo(1);
    assertThat(next.group("p").paused()).isTrue();
    assertThat(next.group("p").pausedSince()).isEqualTo(7L);
    assertThat(next.pool.durableImage()).isEqualTo(next.storedImage());
  }

  @Test
  void F3_queued_jobs_keep_their_group_and_priority_across_a_failover() {
    Fixture fx = Fixture.pool(1).durable().running();
    fx.submitIn("busy", "a", 5);
    fx.submitIn("low", "a", 9);
    fx.submitIn("high", "a", 0);
    Fixture next = fx.takeOver();
    next.created("w-0");
    // busy was running: it goes back first of its level (P9); priority orders the levels.
    assertThat(placed(next.log())).containsExactly("high@w-0");
    assertThat(placed(next.complete("high"))).containsExactly("busy@w-0");
    assertThat(placed(next.complete("busy"))).containsExactly("low@w-0");
  }

  @Test
  void F5_a_paused_pool_stays_paused_and_a_resumed_configured_pause_stays_resumed() {
    FlowSettings flow = FlowSettings.NONE.withGroups(
        Map.of("c", new GroupSettings(null, null, null, null, true)));
    Fixture fx = Fixture.pool(1).durable().flow(flow).running();
    fx.at(4).pause(null);
    fx.resume("c");
    fx.submitIn("c1", "c", 5);
    Fixture next = fx.takeOver();
    next.created("w-0");
    assertThat(next.snapshot().paused()).isTrue();
    assertThat(next.snapshot().pausedSince()).isEqualTo(4L);
    assertThat(next.group("c").paused()).isFalse();
    assertThat(placed(next.resume(null))).containsExactly("c1@w-0");
  }
}
