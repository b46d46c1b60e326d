package dev.shepherd.core;

import static dev.shepherd.core.Fixture.assigns;
import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** F3 (docs/rules.md): priorities within a group, and their aging. */
class PriorityTest {

  private static List<String> drain(Fixture fx, String first, int n) {
    List<String> started = new ArrayList<>();
    String running = first;
    for (int i = 0; i < n; i++) {
      running = assigns(fx.complete(running)).get(0).job();
      started.add(running);
    }
    return started;
  }

  @Test
  void F3_a_lower_priority_number_runs_first_within_a_group_fifo_within_a_level() {
    Fixture fx = Fixture.pool(1).running();
    fx.submitIn("busy", "a", 5);
    fx.submitIn("p9", "a", 9);
    fx.submitIn("p5a", "a", 5);
    fx.submitIn("p0", "a", 0);
    fx.submitIn("p5b", "a", 5);
    assertThat(drain(fx, "busy", 4)).containsExactly("p0", "p5a", "p5b", "p9");
  }

  @Test
  void F3_the_default_priority_is_5() {
    Fixture fx = Fixture.pool(1).running();
    fx.submit("busy");
    fx.submitIn("p6", null, 6);
    fx.submit("plain");
    fx.submitIn("p4", null, 4);
    assertThat(drain(fx, "busy", 3)).containsExactly("p4", "plain", "p6");
  }

  @Test
  void F3_aging_lifts_a_waiting_job_one_level_per_interval() {
    Fixture fx = Fixture.pool(1).flow(FlowSettings.NONE.withPriorityAgingMs(100)).running();
    fx.submitIn("busy", "a", 5);
    fx.submitIn("old", "a", 9);
    fx.at(850);
    fx.submitIn("new", "a", 1);
    fx.at(900);
    // old waited 900 ms: 9 levels up, at 0; new waited 50 ms: still at 1.
    assertThat(drain(fx, "busy", 2)).containsExactly("old", "new");
  }

  @Test
  void F3_without_enough_aging_the_better_priority_goes_first() {
    Fixture fx = Fixture.pool(1).flow(FlowSettings.NONE.withPriorityAgingMs(100)).running();
    fx.submitIn("busy", "a", 5);
    fx.submitIn("old", "a", 9);
    fx.at(300);
    fx.submitIn("new", "a", 1);
    assertThat(drain(fx, "busy", 2)).containsExactly("new", "old");
  }

  @Test
  void F3_a_priority_outside_0_to_9_is_refused_by_the_event() {
    assertThatThrownBy(() -> new PoolEvent.Submit("j", "p", null, "r", 0, 0, 0, null, null, 10,
        0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("priority");
    assertThatThrownBy(() -> new PoolEvent.Submit("j", "p", null, "r", 0, 0, 0, null, null, -1,
        0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PoolEvent.Submit("j", "p", null, "r", 0, 0, 0, null, "", 5, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("group");
    assertThatThrownBy(() -> new PoolEvent.Submit("j", "p", null, "r", 0, 0, 0, null,
        "x".repeat(257), 5, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void F3_a_retried_job_goes_back_first_of_its_level() {
    Fixture fx = Fixture.pool(1).running();
    fx.submitIn("j", "a", 5);
    fx.submitIn("later", "a", 5);
    assertThat(placed(fx.crash("w-0"))).isEmpty();
    assertThat(placed(fx.created("w-0"))).containsExactly("j@w-0");
  }
}
