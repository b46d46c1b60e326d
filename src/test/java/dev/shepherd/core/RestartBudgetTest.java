package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The sliding window of the restart budget, exactly at its edges (S2 in docs/rules.md). */
class RestartBudgetTest {

  @Test
  void S2_a_replacement_exactly_one_window_old_still_counts_and_one_a_millisecond_older_does_not() {
    RestartBudget budget = new RestartBudget(3, 10_000);
    budget.record(1, 0);
    assertThat(budget.inWindow(10_000)).isEqualTo(1);
    assertThat(budget.inWindow(10_001)).isZero();
    budget.forget(10_000);
    assertThat(budget.size()).as("kept at the window's edge").isEqualTo(1);
    budget.forget(10_001);
    assertThat(budget.size()).as("forgotten past it").isZero();
  }

  @Test
  void S2_the_budget_allows_up_to_maxRestarts_and_refuses_one_more() {
    RestartBudget budget = new RestartBudget(3, 10_000);
    assertThat(budget.maxRestarts()).isEqualTo(3);
    assertThat(budget.windowMs()).isEqualTo(10_000);
    assertThat(budget.allows(3)).isTrue();
    assertThat(budget.allows(4)).isFalse();
    budget.record(2, 5);
    assertThat(budget.size()).isEqualTo(2);
    assertThat(budget.inWindow(5)).isEqualTo(2);
    assertThat(budget.allows(1)).isTrue();
    assertThat(budget.allows(2)).isFalse();
  }

  @Test
  void S2_the_documented_example_refuses_a_fourth_at_9s_and_allows_it_at_10_5s() {
    RestartBudget budget = new RestartBudget(3, 10_000);
    budget.record(1, 0);
    budget.record(1, 4_000);
    budget.record(1, 8_000);
    budget.forget(9_000);
    assertThat(budget.allows(1)).isFalse();
    budget.forget(10_500);
    assertThat(budget.size()).isEqualTo(2);
    assertThat(budget.allows(1)).isTrue();
  }

  @Test
  void S2_an_infinite_window_never_forgets() {
    RestartBudget budget = new RestartBudget(2, SupervisionSettings.INFINITE_WINDOW);
    budget.record(2, 0);
    budget.forget(Long.MAX_VALUE / 2);
    assertThat(budget.size()).isEqualTo(2);
    assertThat(budget.inWindow(Long.MAX_VALUE / 2)).isEqualTo(2);
    assertThat(budget.allows(1)).isFalse();
  }
}
