package dev.shepherd.core;

import static dev.shepherd.core.Fixture.outcomes;
import static dev.shepherd.core.Fixture.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Slots that are not replaced (P10), a pool with no slot left (P11), and creation results that
 * arrive when the slot is not installing (P12).
 */
class RetirementTest {

  private static final Interruption.AffinityRetired W0_UNREPLACED =
      new Interruption.AffinityRetired("w-0", Retirement.REPLACEMENT_UNAVAILABLE);

  @Nested
  class UnreplacedSlot {

    @Test
    void P10_unreplaced_slot_retires_and_its_queued_jobs_are_answered_AFFINITY_RETIRED() {
      Fixture fx = Fixture.pool(2).policy(RestartPolicy.TEMPORARY).failPolicy().running();
      fx.submit("a", "w-0/k");
      fx.submit("b", "w-0/k");
      fx.submit("c", "w-0/k");
      fx.submit("u");
      List<Effect> effects = fx.crash("w-0");
      assertThat(outcomes(effects)).containsExactly(
          new Outcome.Interrupted("a", Fixture.payload("a"), 1,
              new Interruption.WorkerStopped("w-0", Exit.CRASH, "cause")),
          new Outcome.Interrupted("b", Fixture.payload("b"), 0, W0_UNREPLACED),
          new Outcome.Interrupted("c", Fixture.payload("c"), 0, W0_UNREPLACED));
      assertThat(Fixture.notices(effects)).contains(new Notice.PhaseChanged(
          "w-0", Phase.RETIRED, 1, null, Retirement.REPLACEMENT_UNAVAILABLE));
      assertThat(Fixture.only(effects, Effect.Deploy.class)).isEmpty();
      assertThat(fx.slot("w-0").retirement()).isEqualTo(Retirement.REPLACEMENT_UNAVAILABLE);
      assertThat(fx.pool.holds("u")).isTrue();
    }

    @Test
    void P10_queued_job_that_carries_an_interruption_is_answered_with_it() {
      Fixture fx = Fixture.pool(2).policy(RestartPolicy.TEMPORARY).retry(3).running();
      fx.submit("a", "w-0/k");
      fx.submit("b", "w-0/k");
      fx.crash("w-0");
      assertThat(fx.interruptionOf("a"))
          .isEqualTo(new Interruption.WorkerStopped("w-0", Exit.CRASH, "cause"));
      assertThat(fx.interruptionOf("b")).isEqualTo(W0_UNREPLACED);
    }

    @Test
    void P10_creation_rejected_slot_answers_its_queued_jobs_AFFINITY_RETIRED_CREATION_REJECTED() {
      Fixture fx = Fixture.pool(2).started();
      fx.created("w-1");
      fx.submit("a", "w-0/k");
      fx.creationFailed("w-0");
      assertThat(fx.interruptionOf("a")).isEqualTo(
          new Interruption.AffinityRetired("w-0", Retirement.CREATION_REJECTED));
      assertThat(new Interruption.AffinityRetired("w-0", Retirement.CREATION_REJECTED).kind())
          .isEqualTo("AFFINITY_RETIRED");
    }

    @Test
    void P10_untargeted_jobs_of_a_retired_slot_run_elsewhere() {
      Fixture fx = Fixture.pool(2).policy(RestartPolicy.TEMPORARY).retry(3).running();
      fx.submitAll("a", "b", "c");
      fx.crash("w-0");
      assertThat(fx.pool.holds("a")).isTrue();
      fx.complete("b");
      assertThat(fx.workerOf("a")).isEqualTo("w-1");
      fx.complete("a");
      assertThat(fx.workerOf("c")).isEqualTo("w-1");
    }
  }

  @Nested
  class NoSlotLeft {

    @Test
    void P11_last_retirement_answers_every_queued_job_NO_RECOVERABLE_WORKERS() {
      Fixture fx = Fixture.pool(1).policy(RestartPolicy.TEMPORARY).failPolicy().running();
      fx.submitAll("a", "b", "c");
      List<Effect> effects = fx.crash("w-0");
      Interruption none = new Interruption.NoRecoverableWorkers();
      assertThat(outcomes(effects)).containsExactly(
          new Outcome.Interrupted("a", Fixture.payload("a"), 1,
              new Interruption.WorkerStopped("w-0", Exit.CRASH, "cause")),
          new Outcome.Interrupted("b", Fixture.payload("b"), 0, none),
          new Outcome.Interrupted("c", Fixture.payload("c"), 0, none));
      assertThat(fx.pool.unanswered()).isZero();
      assertThat(none.kind()).isEqualTo("NO_RECOVERABLE_WORKERS");
    }

    @Test
    void P11_queued_jobs_keep_the_interruption_they_carry() {
      Fixture fx = Fixture.pool(2).policy(RestartPolicy.TEMPORARY).retry(3).running();
      fx.submitAll("a", "b", "q");
      fx.crash("w-0");
      List<Effect> effects = fx.stopped("w-1", Exit.NODE_LOST);
      assertThat(outcomes(effects)).extracting(Outcome::job).containsExactly("b", "a", "q");
      assertThat(fx.interruptionOf("a"))
          .isEqualTo(new Interruption.WorkerStopped("w-0", Exit.CRASH, "cause"));
      assertThat(fx.interruptionOf("b"))
          .isEqualTo(new Interruption.WorkerStopped("w-1", Exit.NODE_LOST, "cause"));
      assertThat(fx.interruptionOf("q")).isEqualTo(new Interruption.NoRecoverableWorkers());
    }

    @Test
    void P11_every_creation_failing_answers_queued_jobs_NO_RECOVERABLE_WORKERS() {
      Fixture fx = Fixture.pool(2).started();
      fx.submitAll("a", "b");
      fx.creationFailed("w-0");
      assertThat(fx.pool.holds("a")).isTrue();
      fx.creationFailed("w-1");
      assertThat(fx.interruptionOf("a")).isEqualTo(new Interruption.NoRecoverableWorkers());
      assertThat(fx.interruptionOf("b")).isEqualTo(new Interruption.NoRecoverableWorkers());
    }

    @Test
    void P11_with_every_slot_retired_any_submit_is_rejected_NO_RECOVERABLE_WORKERS_first() {
      Fixture fx = Fixture.pool(2).backlog(0).policy(RestartPolicy.TEMPORARY).running();
      fx.submit("a", "w-0/k");
      fx.complete("a");
      fx.crash("w-0");
      fx.crash("w-1");
      for (String key : new String[] {null, "w-0/k", "w-5/new", "no-prefix"}) {
        Outcome.Rejected rejected = rejection(
            fx.apply(new PoolEvent.Submit("j", "p", key, "r", 0, 0)));
        assertThat(rejected.reason()).as("key " + key)
            .isEqualTo(RejectionReason.NO_RECOVERABLE_WORKERS);
        assertThat(rejected.payload()).isEqualTo("p");
      }
      assertThat(fx.counters().rejected()).isEqualTo(4);
    }
  }

  @Nested
  class CreationResolved {

    @Test
    void P12_creation_success_for_a_running_slot_is_refused_CREATION_RESOLVED_WHILE_UNAVAILABLE() {
      Fixture fx = Fixture.pool(1).running();
      PoolError error = fx.refuse(new PoolEvent.WorkerCreated("w-0", 1, 0));
      assertThat(error).isEqualTo(
          new PoolError.CreationResolvedWhileUnavailable("w-0", Phase.IDLE));
      assertThat(error.name()).isEqualTo("CREATION_RESOLVED_WHILE_UNAVAILABLE");
    }

    @Test
    void P12_creation_failure_for_a_busy_slot_is_refused_and_its_job_keeps_running() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      assertThat(fx.refuse(new PoolEvent.CreationFailed("w-0", 1, "late", 0)))
          .isEqualTo(new PoolError.CreationResolvedWhileUnavailable("w-0", Phase.ASSIGNED));
      fx.complete("j1");
      assertThat(fx.terminal("j1")).isInstanceOf(Outcome.Completed.class);
    }

    @Test
    void P12_creation_result_for_a_retired_slot_is_refused() {
      Fixture fx = Fixture.pool(2).started();
      fx.creationFailed("w-0");
      assertThat(fx.refuse(new PoolEvent.WorkerCreated("w-0", 1, 0)))
          .isEqualTo(new PoolError.CreationResolvedWhileUnavailable("w-0", Phase.RETIRED));
      assertThat(fx.refuse(new PoolEvent.CreationFailed("w-0", 1, "again", 0)))
          .isEqualTo(new PoolError.CreationResolvedWhileUnavailable("w-0", Phase.RETIRED));
    }
  }
}
