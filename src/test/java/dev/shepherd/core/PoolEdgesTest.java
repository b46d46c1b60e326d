package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the pool answers about itself at its edges: the attempts and worker of an answered job
 * (J6 in docs/rules.md), dead-letter pages at their bounds (J5), a group's status and override
 * before it holds a job (F1), its name, its fingerprint and its status with high availability
 * (A1).
 */
class PoolEdgesTest {

  @Test
  void J6_an_answered_job_is_looked_up_with_its_attempts_and_the_worker_that_answered_it() {
    Fixture fx = Fixture.pool(1).jobs(PoisonTest.AT_ONCE).running();
    fx.submit("done");
    fx.crash("w-0");
    fx.created("w-0");
    fx.complete("done");
    assertThat(fx.lookup("done").attempts()).isEqualTo(2);
    assertThat(fx.lookup("done").worker()).isEqualTo("w-0");
    fx.submit("failed");
    fx.failJob("failed", new JobError(500, "no", "java.lang.IllegalStateException"));
    assertThat(fx.lookup("failed").attempts()).isEqualTo(1);
    assertThat(fx.lookup("failed").worker()).isEqualTo("w-0");
    fx.submit("stopped");
    fx.stopRequested();
    fx.apply(new PoolEvent.TimerFired(new Timer.DrainDeadline(), fx.now()));
    JobView stopped = fx.lookup("stopped");
    assertThat(stopped.outcome()).isInstanceOf(Outcome.Interrupted.class);
    assertThat(stopped.attempts()).isEqualTo(1);
    assertThat(stopped.worker()).as("an interruption names no answering worker").isNull();
  }

  @Test
  void J6_a_failed_job_that_is_not_dead_lettered_is_looked_up_with_the_worker_that_failed_it() {
    JobSettings rules = PoisonTest.AT_ONCE.withDeadLetter(JobSettings.DEFAULT.deadLetter(), false);
    Fixture fx = Fixture.pool(1).jobs(rules).running();
    fx.submit("failed");
    fx.failJob("failed", new JobError(500, "no", "java.lang.IllegalStateException"));
    JobView failed = fx.lookup("failed");
    assertThat(failed.state()).isEqualTo(JobView.JobState.ANSWERED);
    assertThat(failed.worker()).isEqualTo("w-0");
    assertThat(failed.attempts()).isEqualTo(1);
  }

  @Test
  void J6_a_job_cancelled_before_it_ran_is_looked_up_with_no_attempts_and_no_worker() {
    Fixture fx = Fixture.pool(1).jobs(PoisonTest.AT_ONCE).running();
    fx.submitAll("a", "b");
    fx.cancel("b");
    JobView cancelled = fx.lookup("b");
    assertThat(cancelled.state()).isEqualTo(JobView.JobState.ANSWERED);
    assertThat(cancelled.attempts()).isNull();
    assertThat(cancelled.worker()).isNull();
  }

  @Test
  void J5_dead_letter_pages_take_an_offset_and_a_limit_of_zero_and_refuse_negative_ones() {
    Fixture fx = Fixture.pool(1).jobs(DeadLetterTest.RULES).running();
    DeadLetterTest.poison(fx, "x");
    assertThat(fx.pool.deadLetters(0, 1)).containsExactly(fx.pool.deadLetter("x"));
    assertThat(fx.pool.deadLetters(0, 0)).isEmpty();
    assertThat(fx.pool.deadLetters(1, 1)).isEmpty();
    assertThatThrownBy(() -> fx.pool.deadLetters(-1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> fx.pool.deadLetters(0, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void F1_a_configured_groups_override_is_known_before_it_holds_a_job() {
    GroupSettings heavy = new GroupSettings(2, null, 3, null, null);
    Fixture fx = Fixture.pool(1).flow(FlowSettings.NONE.withGroups(Map.of("heavy", heavy)))
        .running();
    assertThat(fx.pool.name()).isEqualTo("test");
    assertThat(fx.pool.fingerprint()).as("what a refused event must leave as it was")
        .contains("\ngroup heavy[").endsWith("\nstarted=true");
    assertThat(fx.pool.groupOverride("heavy")).isEqualTo(heavy);
    assertThat(fx.pool.groupOverride("other")).isNull();
    assertThat(fx.pool.groupOverride(null)).isNull();
    fx.submitIn("a", "heavy", 5);
    assertThat(fx.pool.group("heavy")).isEqualTo(fx.pool.group("heavy", fx.now()))
        .extracting(PoolSnapshot.GroupStatus::weight).isEqualTo(3);
  }

  @Test
  void A1_a_status_with_the_ha_status_is_the_pools_status_with_it() {
    Fixture fx = Fixture.pool(2).running();
    fx.submit("a");
    PoolSnapshot status = fx.snapshot();
    HaStatus ha = new HaStatus(true, true, "node-a", 3);
    PoolSnapshot withHa = status.withHa(ha);
    assertThat(withHa.ha()).isEqualTo(ha);
    assertThat(withHa.withHa(status.ha())).isEqualTo(status);
  }
}
