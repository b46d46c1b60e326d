package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * T3 in docs/rules.md for a durable pool: the pool of the next term continues the counters of
 * the one it replaced from the totals its last write carried, and they still add up: every
 * accepted job is answered once (completed, failed, interrupted or cancelled) or still held.
 */
class CountersRecoveryTest {

  private static long answered(Counters c) {
    return c.completed() + c.failed() + c.interrupted() + c.cancelled();
  }

  /** Two slots, backlog 2, retries: a, b run, c, d queue, e is refused BACKLOG_FULL. */
  private static Fixture busy(Fixture.Builder builder) {
    Fixture fx = builder.running();
    fx.submitAll("a", "b", "c", "d");
    fx.submit("e");
    fx.complete("a");
    fx.failJob("b", new JobError(500, "it failed"));
    fx.cancel("d");
    return fx;
  }

  @Test
  void T3_counters_continue_across_failover() {
    Fixture fx = busy(Fixture.pool(2).durable().backlog(2));
    Counters before = fx.counters();
    assertThat(before.accepted()).isEqualTo(4);
    assertThat(before.rejected()).isEqualTo(1);

    Fixture next = fx.takeOver(before);
    Counters after = next.counters();
    assertThat(after.accepted()).isEqualTo(before.accepted());
    assertThat(after.rejected()).isEqualTo(before.rejected());
    assertThat(after.completed()).isEqualTo(before.completed());
    assertThat(after.failed()).isEqualTo(before.failed());
    assertThat(after.cancelled()).isEqualTo(before.cancelled());
    assertThat(answered(after) + next.pool.unanswered()).isEqualTo(after.accepted());

    next.created("w-0");
    next.created("w-1");
    next.submit("f");
    next.complete("c");
    next.complete("f");
    Counters later = next.counters();
    assertThat(later.accepted()).isEqualTo(before.accepted() + 1);
    assertThat(later.completed()).isEqualTo(before.completed() + 2);
    assertThat(answered(later) + next.pool.unanswered()).isEqualTo(later.accepted());
  }

  @Test
  void T3_running_jobs_interrupted_at_takeover_count_on_top_of_the_totals() {
    Fixture fx = Fixture.pool(2).durable().failPolicy().running();
    fx.submitAll("a", "b");
    fx.complete("a");
    Counters before = fx.counters();

    Fixture next = fx.takeOver(before);
    Counters after = next.counters();
    // b was running: answered interrupted (NODE_LOST) by the new term, on top of the old totals.
    assertThat(after.interrupted()).isEqualTo(before.interrupted() + 1);
    assertThat(after.completed()).isEqualTo(1);
    assertThat(answered(after) + next.pool.unanswered()).isEqualTo(after.accepted());
  }

  @Test
  void T3_every_total_of_the_last_write_comes_back() {
    Counters totals = new Counters(101, 2, 60, 7, 3, 4, 9, 5, 6, 1, 8, 2, 3, 4, 1);
    Fixture fx = Fixture.pool(1).durable().running();
    Fixture next = fx.takeOver(totals);
    assertThat(next.counters()).isEqualTo(totals);
  }

  @Test
  void T3_a_store_without_totals_starts_the_counters_from_zero() {
    Fixture fx = busy(Fixture.pool(2).durable().backlog(2));
    Fixture next = fx.takeOver(null);
    assertThat(next.counters().accepted()).isZero();
    assertThat(next.counters().completed()).isZero();
  }
}
