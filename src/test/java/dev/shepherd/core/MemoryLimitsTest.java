package dev.shepherd.core;

import static dev.shepherd.core.Fixture.outcomes;
import static dev.shepherd.core.Fixture.placed;
import static dev.shepherd.core.Fixture.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What a pool holds in memory beyond the count of queued jobs ({@link PoolLimits}): the bytes of
 * queued payloads (P3) and the bindings of keys no job uses (P4, P5).
 */
class MemoryLimitsTest {

  @Nested
  class ByteBudget {

    @Test
    void P3_a_job_that_must_queue_past_the_byte_budget_is_rejected_BACKLOG_FULL() {
      Fixture fx = Fixture.pool(1).limits(new PoolLimits(100, 10, 10)).running();
      fx.submitBytes("running", null, 1_000);
      fx.submitBytes("q1", null, 60);
      Outcome.Rejected rejected = rejection(fx.submitBytes("q2", null, 41));
      assertThat(rejected.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
      assertThat(rejected.payload()).isEqualTo(Fixture.payload("q2"));
      assertThat(rejected.message()).contains("60 payload bytes of 100");
      assertThat(outcomes(fx.submitBytes("q3", null, 40))).containsExactly(
          new Outcome.Accepted("q3"));
      assertThat(fx.pool.backlogLength()).isEqualTo(2);
    }

    @Test
    void P3_a_free_slot_takes_a_job_whatever_its_size() {
      Fixture fx = Fixture.pool(2).limits(new PoolLimits(10, 10, 10)).running();
      assertThat(placed(fx.submitBytes("big", null, 1_000_000))).containsExactly("big@w-0");
      assertThat(placed(fx.submitBytes("big2", "w-1/k", 1_000_000))).containsExactly("big2@w-1");
    }

    @Test
    void P3_bytes_free_up_as_queued_jobs_leave_the_backlog() {
      Fixture fx = Fixture.pool(1).limits(new PoolLimits(100, 10, 10)).running();
      fx.submitBytes("running", null, 5);
      fx.submitBytes("q1", null, 70);
      fx.submitBytes("q2", null, 30);
      assertThat(rejection(fx.submitBytes("q3", null, 50)).reason())
          .isEqualTo(RejectionReason.BACKLOG_FULL);
      fx.cancel("q2");
      fx.complete("running");
      assertThat(outcomes(fx.submitBytes("q4", null, 100))).containsExactly(
          new Outcome.Accepted("q4"));
    }

    @Test
    void P4_a_keyed_job_for_a_busy_slot_is_held_to_the_same_byte_budget() {
      Fixture fx = Fixture.pool(2).limits(new PoolLimits(50, 10, 10)).running();
      fx.submitBytes("a", "w-0/k", 1);
      fx.submitBytes("b", "w-0/k", 50);
      assertThat(rejection(fx.submitBytes("c", "w-0/k", 1)).reason())
          .isEqualTo(RejectionReason.BACKLOG_FULL);
      assertThat(fx.pool.phase("w-1")).isEqualTo(Phase.IDLE);
    }
  }

  @Nested
  class IdleBindings {

    @Test
    void P4_a_binding_in_use_is_kept_whatever_the_limit() {
      Fixture fx = Fixture.pool(2).limits(new PoolLimits(Long.MAX_VALUE, 0, 0)).running();
      fx.submit("j1", "w-1/user");
      fx.submit("j2", "w-1/user");
      assertThat(fx.pool.binding("w-1/user")).isEqualTo("w-1");
      fx.complete("j1");
      assertThat(fx.pool.binding("w-1/user")).isEqualTo("w-1");
      fx.complete("j2");
      assertThat(fx.pool.binding("w-1/user")).isNull();
    }

    @Test
    void P4_idle_bindings_beyond_the_limit_are_forgotten_least_recently_used_first() {
      Fixture fx = Fixture.pool(2).limits(new PoolLimits(Long.MAX_VALUE, 2, 2)).running();
      for (String key : new String[] {"w-0/a", "w-1/b", "w-0/c"}) {
        fx.submit("j-" + key, key);
        fx.complete("j-" + key);
      }
      assertThat(fx.pool.binding("w-0/a")).isNull();
      assertThat(fx.pool.binding("w-1/b")).isEqualTo("w-1");
      fx.submit("again", "w-1/b");
      fx.complete("again");
      fx.submit("j-d", "w-1/d");
      fx.complete("j-d");
      assertThat(fx.pool.binding("w-1/b")).isEqualTo("w-1");
      assertThat(fx.pool.binding("w-0/c")).isNull();
    }

    @Test
    void P4_a_forgotten_key_is_unseen_again_and_bound_by_the_selector() {
      Fixture fx = Fixture.pool(2).limits(new PoolLimits(Long.MAX_VALUE, 0, 0)).running();
      fx.rebalance("w-0/user", "w-1");
      assertThat(fx.pool.binding("w-0/user")).isNull();
      assertThat(placed(fx.submit("j1", "w-0/user"))).containsExactly("j1@w-0");
    }

    @Test
    void P5_a_rebalanced_binding_outlives_idle_selector_bindings_within_its_own_limit() {
      Fixture fx = Fixture.pool(2).limits(new PoolLimits(Long.MAX_VALUE, 1, 1)).running();
      fx.rebalance("w-0/user", "w-1");
      for (String key : new String[] {"w-0/a", "w-0/b", "w-0/c"}) {
        fx.submit("j-" + key, key);
        fx.complete("j-" + key);
      }
      assertThat(fx.pool.binding("w-0/user")).isEqualTo("w-1");
      assertThat(fx.pool.binding("w-0/a")).isNull();
      fx.rebalance("w-0/other", "w-1");
      assertThat(fx.pool.binding("w-0/user")).isNull();
      assertThat(fx.pool.binding("w-0/other")).isEqualTo("w-1");
    }

    @Test
    void P5_rebalancing_a_key_in_use_keeps_it_until_its_last_job_leaves() {
      Fixture fx = Fixture.pool(2).limits(new PoolLimits(Long.MAX_VALUE, 0, 0)).running();
      fx.submit("j1", "w-0/user");
      fx.rebalance("w-0/user", "w-1");
      assertThat(placed(fx.submit("j2", "w-0/user"))).containsExactly("j2@w-1");
      fx.complete("j1");
      assertThat(fx.pool.binding("w-0/user")).isEqualTo("w-1");
      fx.complete("j2");
      assertThat(fx.pool.binding("w-0/user")).isNull();
    }

    @Test
    void P4_a_job_cancelled_while_running_holds_its_binding_until_its_assignment_ends() {
      Fixture fx = Fixture.pool(2).limits(new PoolLimits(Long.MAX_VALUE, 0, 0)).running();
      fx.submit("j1", "w-1/user");
      fx.cancel("j1");
      assertThat(fx.pool.binding("w-1/user")).isEqualTo("w-1");
      fx.complete("j1");
      assertThat(fx.pool.binding("w-1/user")).isNull();
    }
  }
}
