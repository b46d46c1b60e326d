package dev.shepherd.core;

import static dev.shepherd.core.Fixture.assigns;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** F2 (docs/rules.md): weighted fair dispatch among groups, FIFO within a group. */
class FairnessTest {

  private static GroupSettings weight(int w) {
    return new GroupSettings(null, null, w, null, null);
  }

  /** Completes whatever runs on w-0, {@code n} times, and returns the jobs started, in order. */
  private static List<String> drain(Fixture fx, String first, int n) {
    List<String> started = new ArrayList<>();
    String running = first;
    for (int i = 0; i < n; i++) {
      List<Effect.Assign> next = assigns(fx.complete(running));
      running = next.get(0).job();
      started.add(running);
    }
    return started;
  }

  @Test
  void F2_groups_share_starts_in_proportion_to_their_weights() {
    FlowSettings flow = FlowSettings.NONE.withGroups(Map.of("a", weight(3), "b", weight(1)));
    Fixture fx = Fixture.pool(1).flow(flow).running();
    fx.submitIn("busy", null, 5);
    for (int i = 0; i < 40; i++) {
      fx.submitIn("a" + i, "a", 5);
      fx.submitIn("b" + i, "b", 5);
    }
    List<String> started = drain(fx, "busy", 40);
    long a = started.stream().filter(j -> j.startsWith("a")).count();
    assertThat(a).isBetween(29L, 31L);
    // Smooth, not in bursts: b never waits more than four of a's starts.
    int run = 0;
    for (String job : started) {
      run = job.startsWith("a") ? run + 1 : 0;
      assertThat(run).isLessThanOrEqualTo(4);
    }
  }

  @Test
  void F2_jobs_are_fifo_within_a_group() {
    Fixture fx = Fixture.pool(1).running();
    fx.submitIn("busy", null, 5);
    for (int i = 0; i < 5; i++) {
      fx.submitIn("a" + i, "a", 5);
      fx.submitIn("b" + i, "b", 5);
    }
    List<String> started = drain(fx, "busy", 10);
    assertThat(started.stream().filter(j -> j.startsWith("a")).toList())
        .containsExactly("a0", "a1", "a2", "a3", "a4");
    assertThat(started.stream().filter(j -> j.startsWith("b")).toList())
        .containsExactly("b0", "b1", "b2", "b3", "b4");
  }

  @Test
  void F2_jobs_without_a_group_take_their_turn_as_the_pools_default_group() {
    Fixture fx = Fixture.pool(1).running();
    fx.submitIn("busy", null, 5);
    for (int i = 0; i < 3; i++) {
      fx.submitIn("a" + i, "a", 5);
    }
    for (int i = 0; i < 3; i++) {
      fx.submitIn("n" + i, null, 5);
    }
    assertThat(drain(fx, "busy", 6)).containsExactly("a0", "n0", "a1", "n1", "a2", "n2");
  }

  @Test
  void F2_jobs_without_a_group_take_their_turns_at_the_default_weight() {
    FlowSettings flow = FlowSettings.NONE.withDefaults(new GroupDefaults(0, 0, 2, null))
        .withGroups(Map.of("a", weight(1)));
    Fixture fx = Fixture.pool(1).flow(flow).running();
    fx.submitIn("busy", null, 5);
    for (int i = 0; i < 3; i++) {
      fx.submitIn("a" + i, "a", 5);
    }
    for (int i = 0; i < 6; i++) {
      fx.submitIn("n" + i, null, 5);
    }
    // The default group weighs what the defaults say (2), as every group without an override.
    assertThat(drain(fx, "busy", 9))
        .containsExactly("a0", "n0", "n1", "a1", "n2", "n3", "a2", "n4", "n5");
  }

  @Test
  void F2_a_group_that_was_idle_earns_no_credit_for_it() {
    Fixture fx = Fixture.pool(1).running();
    fx.submitIn("busy", null, 5);
    for (int i = 0; i < 6; i++) {
      fx.submitIn("a" + i, "a", 5);
    }
    List<String> first = drain(fx, "busy", 4);
    assertThat(first).containsExactly("a0", "a1", "a2", "a3");
    for (int i = 0; i < 4; i++) {
      fx.submitIn("b" + i, "b", 5);
    }
    // b joins now: it alternates with a, it does not get the four starts a had alone.
    assertThat(drain(fx, "a3", 4)).containsExactly("b0", "a4", "b1", "a5");
  }

  @Test
  void F2_a_pool_without_groups_keeps_the_plain_fifo_across_keyed_and_untargeted_jobs() {
    Fixture fx = Fixture.pool(1).running();
    fx.submit("busy");
    fx.submit("u1");
    fx.submit("k1", "w-0/k");
    fx.submit("u2");
    assertThat(drain(fx, "busy", 3)).containsExactly("u1", "k1", "u2");
  }
}
