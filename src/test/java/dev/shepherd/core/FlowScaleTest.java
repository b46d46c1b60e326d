package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * P7 with flow control (F1, F2 in docs/rules.md), functionally: 100,000 groups of capped tenants
 * and 300,000 queued jobs still dispatch one job per freed slot while a runnable one waits, FIFO
 * within each group, and the groups are forgotten once they hold nothing. No timing is asserted;
 * FlowBench gives the figures.
 */
@Execution(ExecutionMode.CONCURRENT)
class FlowScaleTest {

  @Test
  void F1_a_hundred_thousand_capped_groups_drain_fifo_per_group_and_are_forgotten() {
    int groups = 100_000;
    int perGroup = 3;
    FlowSettings flow = FlowSettings.NONE.withDefaults(new GroupDefaults(1, 0, 1, null));
    Fixture fx = Fixture.pool(4).backlog(groups * perGroup).flow(flow).bulk().running();
    ArrayDeque<Effect.Assign> live = new ArrayDeque<>();
    for (int i = 0; i < perGroup; i++) {
      for (int g = 0; g < groups; g++) {
        live.addAll(Fixture.assigns(fx.apply(new PoolEvent.Submit("t" + g + "-" + i, "p", null,
            "r", 0, 0, 0, null, "t" + g, 5, 0))));
      }
    }
    assertThat(live).hasSize(4);
    assertThat(fx.snapshot().groupCount()).isEqualTo(groups);
    fx.checkInvariants();
    Map<String, Integer> nextOf = new HashMap<>();
    int started = live.size();
    for (Effect.Assign a : live) {
      nextOf.put(a.job().substring(0, a.job().indexOf('-')), 1);
    }
    while (!live.isEmpty()) {
      Effect.Assign done = live.pollFirst();
      List<Effect.Assign> assigned = Fixture.assigns(fx.apply(
          new PoolEvent.Completed(done.worker(), done.assignment(), "ok", null, 0)));
      if (started < groups * perGroup) {
        // Work-conserving with groups: the freed slot takes a runnable job at once.
        assertThat(assigned).hasSize(1);
      }
      for (Effect.Assign a : assigned) {
        String group = a.job().substring(0, a.job().indexOf('-'));
        int index = Integer.parseInt(a.job().substring(a.job().indexOf('-') + 1));
        assertThat(index).as("F2 FIFO within %s", group).isEqualTo(nextOf.getOrDefault(group, 0));
        nextOf.put(group, index + 1);
        live.addLast(a);
        started++;
      }
    }
    assertThat(started).isEqualTo(groups * perGroup);
    assertThat(fx.pool.backlogLength()).isZero();
    assertThat(fx.snapshot().groupCount()).as("idle groups are forgotten").isZero();
    fx.checkInvariants();
  }
}
