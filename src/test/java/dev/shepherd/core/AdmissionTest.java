package dev.shepherd.core;

import static dev.shepherd.core.Fixture.outcomes;
import static dev.shepherd.core.Fixture.placed;
import static dev.shepherd.core.Fixture.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Admission: the bounded backlog (P3), affinity (P4), rebalance (P5) and job ids (P15). */
class AdmissionTest {

  @Nested
  class BoundedBacklog {

    @Test
    void P3_submit_with_a_free_slot_is_accepted_then_assigned() {
      Fixture fx = Fixture.pool(1).running();
      List<Effect> effects = fx.submit("j1");
      assertThat(effects).containsExactly(
          new Effect.Respond(Fixture.reply("j1"), new Outcome.Accepted("j1")),
          new Effect.Assign("w-0", fx.token("j1"), "j1", Fixture.payload("j1"), 1, null),
          new Effect.StartTimer(new Timer.JobDeadline("w-0", fx.token("j1")), 30_000));
    }

    @Test
    void P3_submit_without_free_capacity_is_queued_and_accepted() {
      Fixture fx = Fixture.pool(1).backlog(2).running();
      fx.submit("j1");
      List<Effect> effects = fx.submit("j2");
      assertThat(outcomes(effects)).containsExactly(new Outcome.Accepted("j2"));
      assertThat(Fixture.assigns(effects)).isEmpty();
      assertThat(fx.pool.backlogLength()).isEqualTo(1);
    }

    @Test
    void P3_full_backlog_without_free_capacity_rejects_BACKLOG_FULL_handing_the_payload_back() {
      Fixture fx = Fixture.pool(1).backlog(2).running();
      fx.submitAll("j1", "j2", "j3");
      List<Effect> effects = fx.submit("j4");
      Outcome.Rejected rejected = rejection(effects);
      assertThat(rejected.job()).isEqualTo("j4");
      assertThat(rejected.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
      assertThat(rejected.payload()).isEqualTo(Fixture.payload("j4"));
      assertThat(effects).hasSize(1);
      assertThat(fx.pool.backlogLength()).isEqualTo(2);
      assertThat(fx.pool.holds("j4")).isFalse();
      assertThat(fx.counters().rejected()).isEqualTo(1);
      assertThat(fx.counters().accepted()).isEqualTo(3);
    }

    @Test
    void P3_rejected_job_is_never_answered_again() {
      Fixture fx = Fixture.pool(1).backlog(0).running();
      fx.submit("j1");
      fx.submit("j2");
      fx.complete("j1");
      fx.crash("w-0");
      assertThat(fx.outcomesFor("j2")).hasSize(1).first().isInstanceOf(Outcome.Rejected.class);
    }

    @Test
    void P3_zero_capacity_backlog_accepts_only_when_a_slot_is_free() {
      Fixture fx = Fixture.pool(2).backlog(0).running();
      assertThat(placed(fx.submit("j1"))).containsExactly("j1@w-0");
      assertThat(placed(fx.submit("j2"))).containsExactly("j2@w-1");
      assertThat(rejection(fx.submit("j3")).reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
      fx.complete("j1");
      assertThat(placed(fx.submit("j3"))).containsExactly("j3@w-0");
    }

    @Test
    void P3_backlog_full_of_jobs_for_a_busy_slot_still_accepts_work_for_a_free_slot() {
      Fixture fx = Fixture.pool(2).backlog(1).running();
      fx.submit("a", "w-0/k");
      fx.submit("b", "w-0/k");
      assertThat(fx.pool.backlogLength()).isEqualTo(1);
      assertThat(placed(fx.submit("c"))).containsExactly("c@w-1");
    }
  }

  @Nested
  class Affinity {

    @Test
    void P4_unseen_key_is_bound_to_the_selectors_choice_when_its_job_is_accepted() {
      Fixture fx = Fixture.pool(3).running();
      assertThat(fx.pool.binding("w-2/user")).isNull();
      assertThat(placed(fx.submit("j1", "w-2/user"))).containsExactly("j1@w-2");
      assertThat(fx.pool.binding("w-2/user")).isEqualTo("w-2");
      assertThat(fx.assignment("j1").key()).isEqualTo("w-2/user");
    }

    @Test
    void P4_bound_key_reuses_its_binding_without_asking_the_selector() {
      List<String> asked = new ArrayList<>();
      Fixture fx = Fixture.pool(3).backlog(10)
          .selector((key, slots) -> {
            asked.add(key);
            return "w-1";
          }).running();
      fx.submit("j1", "user");
      fx.submit("j2", "user");
      fx.submit("j3", "user");
      assertThat(asked).containsExactly("user");
      fx.complete("j1");
      assertThat(fx.workerOf("j2")).isEqualTo("w-1");
    }

    @Test
    void P4_unseen_key_whose_job_is_rejected_is_not_bound() {
      Fixture fx = Fixture.pool(1).backlog(0).running();
      fx.submit("j1");
      assertThat(rejection(fx.submit("j2", "w-0/user")).reason())
          .isEqualTo(RejectionReason.BACKLOG_FULL);
      assertThat(fx.pool.binding("w-0/user")).isNull();
    }

    @Test
    void P4_selector_choosing_an_unknown_slot_rejects_AFFINITY_UNAVAILABLE_and_binds_nothing() {
      Fixture fx = Fixture.pool(2).running();
      Outcome.Rejected rejected = rejection(fx.submit("j1", "w-7/user"));
      assertThat(rejected.reason()).isEqualTo(RejectionReason.AFFINITY_UNAVAILABLE);
      assertThat(rejected.payload()).isEqualTo(Fixture.payload("j1"));
      assertThat(fx.pool.binding("w-7/user")).isNull();
    }

    @Test
    void P4_selector_choosing_nothing_rejects_AFFINITY_UNAVAILABLE() {
      Fixture fx = Fixture.pool(2).running();
      assertThat(rejection(fx.submit("j1", "no-prefix")).reason())
          .isEqualTo(RejectionReason.AFFINITY_UNAVAILABLE);
    }

    @Test
    void P4_key_bound_to_a_retired_slot_rejects_AFFINITY_UNAVAILABLE() {
      Fixture fx = Fixture.pool(2).policy(RestartPolicy.TEMPORARY).running();
      fx.submit("j1", "w-1/user");
      fx.complete("j1");
      fx.crash("w-1");
      assertThat(fx.pool.phase("w-1")).isEqualTo(Phase.RETIRED);
      Outcome.Rejected rejected = rejection(fx.submit("j2", "w-1/user"));
      assertThat(rejected.reason()).isEqualTo(RejectionReason.AFFINITY_UNAVAILABLE);
      assertThat(rejected.message()).contains("w-1");
    }

    @Test
    void P4_busy_target_with_full_backlog_rejects_BACKLOG_FULL_even_while_other_slots_are_free() {
      Fixture fx = Fixture.pool(3).backlog(1).running();
      fx.submit("j1", "w-0/user");
      fx.submit("j2", "w-0/user");
      Outcome.Rejected rejected = rejection(fx.submit("j3", "w-0/user"));
      assertThat(rejected.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
      assertThat(fx.pool.phase("w-1")).isEqualTo(Phase.IDLE);
    }

    @Test
    void P4_free_target_accepts_its_job_even_when_the_backlog_is_full() {
      Fixture fx = Fixture.pool(2).backlog(1).running();
      fx.submit("a", "w-0/k");
      fx.submit("b", "w-0/k");
      assertThat(placed(fx.submit("c", "w-1/k"))).containsExactly("c@w-1");
    }

    @Test
    void P4_keyed_job_waits_for_its_target_while_other_slots_are_free() {
      Fixture fx = Fixture.pool(2).running();
      fx.submit("j1", "w-0/user");
      List<Effect> effects = fx.submit("j2", "w-0/user");
      assertThat(Fixture.assigns(effects)).isEmpty();
      assertThat(fx.pool.phase("w-1")).isEqualTo(Phase.IDLE);
      assertThat(placed(fx.complete("j1"))).containsExactly("j2@w-0");
    }

    @Test
    void P4_key_bound_to_an_installing_slot_is_accepted_and_waits_for_it() {
      Fixture fx = Fixture.pool(2).started();
      fx.created("w-1");
      assertThat(outcomes(fx.submit("j1", "w-0/user")))
          .containsExactly(new Outcome.Accepted("j1"));
      assertThat(placed(fx.created("w-0"))).containsExactly("j1@w-0");
    }
  }

  @Nested
  class Rebalance {

    @Test
    void P5_rebalance_to_an_unknown_worker_is_refused_UNKNOWN_WORKER() {
      Fixture fx = Fixture.pool(2).running();
      assertThat(fx.refuse(new PoolEvent.Rebalance("k", "w-5", 0)))
          .isEqualTo(new PoolError.UnknownWorker("w-5"));
      assertThat(fx.pool.binding("k")).isNull();
    }

    @Test
    void P5_rebalance_to_a_retired_worker_is_refused_naming_its_retirement() {
      Fixture fx = Fixture.pool(2).started();
      fx.creationFailed("w-1");
      fx.created("w-0");
      fx.submit("j1", "w-0/user");
      PoolError error = fx.refuse(new PoolEvent.Rebalance("w-0/user", "w-1", 0));
      assertThat(error).isEqualTo(
          new PoolError.RebalanceToRetiredWorker("w-1", Retirement.CREATION_REJECTED));
      assertThat(error.name()).isEqualTo("REBALANCE_TO_RETIRED_WORKER");
      assertThat(fx.pool.binding("w-0/user")).isEqualTo("w-0");
    }

    @Test
    void P5_rebalance_moves_the_binding_for_later_submissions_only() {
      Fixture fx = Fixture.pool(2).running();
      fx.submit("j1", "w-0/user");
      fx.submit("j2", "w-0/user");
      assertThat(fx.rebalance("w-0/user", "w-1")).isEmpty();
      assertThat(fx.pool.binding("w-0/user")).isEqualTo("w-1");
      assertThat(placed(fx.submit("j3", "w-0/user"))).containsExactly("j3@w-1");
      assertThat(placed(fx.complete("j3"))).as("j2 keeps its admitted target").isEmpty();
      assertThat(placed(fx.complete("j1"))).containsExactly("j2@w-0");
    }

    @Test
    void P5_rebalance_of_an_unseen_key_binds_it_without_the_selector() {
      Fixture fx = Fixture.pool(2).running();
      fx.rebalance("no-prefix", "w-1");
      assertThat(placed(fx.submit("j1", "no-prefix"))).containsExactly("j1@w-1");
    }

    @Test
    void P5_only_rebalance_moves_a_binding_not_restarts_nor_busy_targets() {
      Fixture fx = Fixture.pool(2).running();
      fx.submit("j1", "w-0/user");
      fx.complete("j1");
      fx.crash("w-0");
      fx.created("w-0");
      fx.submit("j2", "w-0/user");
      fx.submit("j3", "w-0/user");
      assertThat(fx.pool.binding("w-0/user")).isEqualTo("w-0");
      assertThat(fx.workerOf("j2")).isEqualTo("w-0");
      assertThat(fx.pool.phase("w-1")).isEqualTo(Phase.IDLE);
    }
  }

  @Nested
  class JobIds {

    @Test
    void P15_duplicate_of_a_queued_or_running_job_is_rejected_DUPLICATE_JOB() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      fx.submit("j2");
      Outcome.Rejected running = rejection(fx.submit("j1"));
      assertThat(running.reason()).isEqualTo(RejectionReason.DUPLICATE_JOB);
      assertThat(running.payload()).isEqualTo(Fixture.payload("j1"));
      assertThat(rejection(fx.submit("j2")).reason()).isEqualTo(RejectionReason.DUPLICATE_JOB);
      assertThat(fx.pool.backlogLength()).isEqualTo(1);
      assertThat(fx.counters().accepted()).isEqualTo(2);
    }

    @Test
    void P15_id_is_free_again_once_its_job_is_answered() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      fx.complete("j1");
      assertThat(outcomes(fx.submit("j1"))).first().isEqualTo(new Outcome.Accepted("j1"));
    }

    @Test
    void P15_submit_without_id_gets_a_generated_id_unique_among_held_jobs() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("job-2");
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        List<Effect> effects = fx.apply(new PoolEvent.Submit(null, "p", null, "anon", 0, 0));
        ids.add(outcomes(effects).get(0).job());
      }
      assertThat(ids).containsExactly("job-1", "job-3");
      assertThat(fx.pool.holds("job-1")).isTrue();
      assertThat(fx.pool.holds("job-3")).isTrue();
    }

    @Test
    void P15_rejected_submit_without_id_names_its_generated_id() {
      Fixture fx = Fixture.pool(1).backlog(0).running();
      fx.submit("j1");
      Outcome.Rejected rejected = rejection(
          fx.apply(new PoolEvent.Submit(null, "p", null, "anon", 0, 0)));
      assertThat(rejected.job()).startsWith("job-");
      assertThat(rejected.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
    }
  }
}
