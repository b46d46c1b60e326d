package dev.shepherd.core;

import static dev.shepherd.core.Fixture.assigns;
import static dev.shepherd.core.Fixture.notices;
import static dev.shepherd.core.Fixture.only;
import static dev.shepherd.core.Fixture.outcomes;
import static dev.shepherd.core.Fixture.payload;
import static dev.shepherd.core.Fixture.placed;
import static dev.shepherd.core.Fixture.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Coordinator high availability in the core (section 8.5): a durable pool records, as effects,
 * everything that must survive its coordinator (A3), and a pool of a newer term rebuilds itself
 * from those records (A2 fencing by term, A3 takeover).
 */
class RecoveryTest {

  private static Persisted persisted(List<Effect> effects) {
    return new Persisted(only(effects, Effect.Persist.class).stream()
        .map(Effect.Persist::record).toList());
  }

  /** The records among some effects. */
  private record Persisted(List<DurableRecord> records) {
    <T extends DurableRecord> List<T> of(Class<T> type) {
      return records.stream().filter(type::isInstance).map(type::cast).toList();
    }
  }

  /** Index of the first effect matching {@code type} (and, for Persist, the record type). */
  private static int indexOf(List<Effect> effects, Class<?> type) {
    for (int i = 0; i < effects.size(); i++) {
      Effect effect = effects.get(i);
      if (type.isInstance(effect)
          || (effect instanceof Effect.Persist p && type.isInstance(p.record()))) {
        return i;
      }
    }
    return -1;
  }

  @Nested
  class Records {

    @Test
    void A3_a_pool_that_is_not_durable_records_nothing() {
      Fixture fx = Fixture.pool(1).running();
      fx.submitAll("a", "b");
      fx.complete("a");
      fx.rebalance("w-0/k", "w-0");
      assertThat(only(fx.log(), Effect.Persist.class)).isEmpty();
    }

    @Test
    void A3_acceptance_is_recorded_with_its_order_and_every_submit_field_before_accepted() {
      Fixture fx = Fixture.pool(1).durable().started();
      List<Effect> first = fx.apply(new PoolEvent.Submit("a", payload("a"), "w-0/k", reply("a"),
          250, 17, 0));
      List<Effect> second = fx.submit("b");
      DurableRecord.Accepted a = persisted(first).of(DurableRecord.Accepted.class).get(0);
      assertThat(a).isEqualTo(new DurableRecord.Accepted("a", 0, 0, payload("a"), "w-0/k",
          reply("a"), 250, 17, "w-0"));
      assertThat(persisted(second).of(DurableRecord.Accepted.class).get(0).order()).isEqualTo(1);
      assertThat(indexOf(first, DurableRecord.Accepted.class))
          .isLessThan(indexOf(first, Effect.Respond.class));
      assertThat(persisted(first).of(DurableRecord.Bound.class))
          .containsExactly(new DurableRecord.Bound("w-0/k", "w-0", false));
    }

    @Test
    void A3_an_assignment_is_recorded_with_its_attempt_and_slot_before_it_is_sent() {
      Fixture fx = Fixture.pool(1).durable().running();
      List<Effect> effects = fx.submit("a");
      assertThat(persisted(effects).of(DurableRecord.Assigned.class))
          .containsExactly(new DurableRecord.Assigned("a", "w-0", 1));
      assertThat(indexOf(effects, DurableRecord.Assigned.class))
          .isLessThan(indexOf(effects, Effect.Assign.class));
    }

    @Test
    void A3_an_answer_is_recorded_with_its_outcome_before_it_is_sent_and_erases_the_job() {
      Fixture fx = Fixture.pool(1).durable().running();
      fx.submit("a");
      assertThat(fx.storedImage().jobs()).hasSize(1);
      List<Effect> effects = fx.complete("a");
      DurableRecord.Answered answered =
          persisted(effects).of(DurableRecord.Answered.class).get(0);
      assertThat(answered.job()).isEqualTo("a");
      assertThat(answered.replyTo()).isEqualTo(reply("a"));
      assertThat(answered.outcome()).isInstanceOf(Outcome.Completed.class);
      assertThat(indexOf(effects, DurableRecord.Answered.class))
          .isLessThan(indexOf(effects, Effect.Respond.class));
      assertThat(fx.storedImage().jobs()).isEmpty();
    }

    @Test
    void A3_a_cancel_is_recorded_as_the_jobs_answer() {
      Fixture fx = Fixture.pool(1).durable().started();
      fx.submit("a");
      List<Effect> effects = fx.cancel("a");
      assertThat(persisted(effects).of(DurableRecord.Answered.class).get(0).outcome())
          .isEqualTo(new Outcome.Cancelled("a"));
      assertThat(fx.storedImage().jobs()).isEmpty();
    }

    @Test
    void A3_a_requeue_is_recorded_with_its_new_position_and_why() {
      Fixture fx = Fixture.pool(2).durable().retry(3).running();
      fx.submitAll("a", "b", "c");
      List<Effect> effects = fx.crash("w-0");
      DurableRecord.Requeued requeued = persisted(effects).of(DurableRecord.Requeued.class).get(0);
      assertThat(requeued.job()).isEqualTo("a");
      assertThat(requeued.order()).isNegative();
      assertThat(requeued.interruption()).isInstanceOf(Interruption.WorkerStopped.class);
    }

    @Test
    void A3_bindings_made_moved_and_forgotten_are_recorded() {
      Fixture fx = Fixture.pool(2).durable().limits(new PoolLimits(Long.MAX_VALUE, 0, 10))
          .running();
      fx.submit("a", "w-0/k");
      List<Effect> moved = fx.rebalance("w-0/k", "w-1");
      assertThat(persisted(moved).of(DurableRecord.Bound.class))
          .containsExactly(new DurableRecord.Bound("w-0/k", "w-1", true));
      fx.submit("b", "w-1/j");
      List<Effect> done = fx.complete("b");
      assertThat(persisted(done).of(DurableRecord.Unbound.class))
          .containsExactly(new DurableRecord.Unbound("w-1/j"));
    }

    @Test
    void A3_a_host_registration_records_its_node_and_every_slot() {
      Fixture fx = Fixture.pool(1).durable().running();
      List<Effect> effects = fx.hostRegistered("h1", "n1", 2, 1);
      assertThat(persisted(effects).of(DurableRecord.HostKnown.class)).containsExactly(
          new DurableRecord.HostKnown("h1", "n1", List.of("h1/w-0", "h1/w-1")));
    }

    @Test
    void A3_the_records_replayed_rebuild_the_pools_own_image() {
      Fixture fx = Fixture.pool(2).durable().retry(3).running();
      fx.hostUp("h1", 2, 1);
      fx.submit("a", "w-0/k");
      fx.submitAll("b", "c", "d", "e", "f");
      fx.crash("w-1");
      fx.complete("a");
      fx.rebalance("w-0/k", "h1/w-1");
      fx.hostLost("h1");
      assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());
    }
  }

  @Nested
  class Takeover {

    @Test
    void A3_queued_jobs_come_back_in_their_original_order_and_run_in_it() {
      Fixture fx = Fixture.pool(1).durable().started();
      fx.submitAll("a", "b", "c");
      Fixture next = fx.takeOver();
      assertThat(next.pool.backlogLength()).isEqualTo(3);
      List<Effect> effects = next.created("w-0");
      assertThat(placed(effects)).containsExactly("a@w-0");
      next.complete("a");
      assertThat(next.assignment("b").worker()).isEqualTo("w-0");
      assertThat(notices(next.recoveryEffects(), Notice.Recovered.class))
          .containsExactly(new Notice.Recovered(1, 0, 3, 0));
    }

    @Test
    void A3_running_jobs_are_interrupted_node_lost_and_retried_first_in_original_order() {
      Fixture fx = Fixture.pool(2).durable().retry(3).running();
      fx.submitAll("a", "b", "c", "d");
      Fixture next = fx.takeOver();
      assertThat(next.pool.backlogLength()).isEqualTo(4);
      next.created("w-0");
      List<Effect> effects = next.created("w-1");
      assertThat(placed(effects)).containsExactly("b@w-1");
      assertThat(next.assignment("a").attempt()).isEqualTo(2);
      assertThat(next.assignment("b").attempt()).isEqualTo(2);
      assertThat(next.counters().retried()).isEqualTo(2);
      next.complete("a");
      assertThat(next.workerOf("c")).isEqualTo("w-0");
    }

    @Test
    void A3_with_FAIL_running_jobs_are_answered_interrupted_node_lost_at_takeover() {
      Fixture fx = Fixture.pool(1).durable().failPolicy().running();
      fx.submitAll("a", "b");
      Fixture next = fx.takeOver();
      Interruption why = next.interruptionOf("a");
      assertThat(why).isInstanceOf(Interruption.WorkerStopped.class);
      assertThat(((Interruption.WorkerStopped) why).exit()).isEqualTo(Exit.NODE_LOST);
      assertThat(((Interruption.WorkerStopped) why).worker()).isEqualTo("w-0");
      assertThat(next.pool.holds("b")).isTrue();
      assertThat(next.open()).containsExactly("b");
    }

    @Test
    void A3_P13_a_running_job_out_of_attempts_is_answered_attempts_exhausted() {
      Fixture fx = Fixture.pool(1).durable().retry(1).running();
      fx.submit("a");
      Fixture next = fx.takeOver();
      assertThat(next.interruptionOf("a")).isInstanceOf(Interruption.AttemptsExhausted.class);
    }

    @Test
    void A3_an_answered_job_does_not_come_back() {
      Fixture fx = Fixture.pool(1).durable().running();
      fx.submitAll("a", "b");
      fx.complete("a");
      Fixture next = fx.takeOver();
      assertThat(next.pool.holds("a")).isFalse();
      assertThat(next.pool.holds("b")).isTrue();
      assertThat(outcomes(next.recoveryEffects())).isEmpty();
    }

    @Test
    void A3_P4_bindings_survive_and_keyed_jobs_wait_for_their_slot() {
      Fixture fx = Fixture.pool(2).durable().running();
      fx.submit("a", "w-1/k");
      fx.rebalance("w-1/k", "w-0");
      fx.submit("b", "w-1/k");
      Fixture next = fx.takeOver();
      assertThat(next.pool.binding("w-1/k")).isEqualTo("w-0");
      next.created("w-0");
      List<Effect> effects = next.created("w-1");
      assertThat(placed(effects)).containsExactly("a@w-1");
      assertThat(next.workerOf("b")).isEqualTo("w-0");
      next.submit("c", "w-1/k");
      next.complete("b");
      assertThat(next.workerOf("c")).isEqualTo("w-0");
    }

    @Test
    void A3_generated_ids_continue_past_the_recovered_ones() {
      Fixture fx = Fixture.pool(1).durable().started();
      fx.apply(new PoolEvent.Submit(null, "p1", null, "r1", 0, 0));
      fx.apply(new PoolEvent.Submit(null, "p2", null, "r2", 0, 0));
      Fixture next = fx.takeOver();
      List<Effect> effects = next.apply(new PoolEvent.Submit(null, "p3", null, "r3", 0, 0));
      assertThat(outcomes(effects).get(0).job()).isEqualTo("job-3");
    }

    @Test
    void A3_queued_jobs_whose_generated_ids_lie_billions_apart_are_recovered_and_run() {
      DurableImage.JobImage first = new DurableImage.JobImage("job-1", 1, 1, "p1", null, "r1",
          0, 0, null, 0, null, null);
      DurableImage.JobImage last = new DurableImage.JobImage("job-3000000000", 3_000_000_000L,
          2, "p2", null, "r2", 0, 0, null, 0, null, null);
      Fixture fx = Fixture.pool(1).durable().started().takeOverFrom(
          new DurableImage(0, 3_000_000_000L, List.of(first, last), List.of(), List.of()));
      assertThat(fx.pool.backlogLength()).isEqualTo(2);
      fx.created("w-0");
      fx.complete("job-1");
      assertThat(fx.assignment("job-3000000000").worker()).isEqualTo("w-0");
      List<Effect> effects = fx.apply(new PoolEvent.Submit(null, "p3", null, "r3", 0, 0));
      assertThat(outcomes(effects).get(0).job()).isEqualTo("job-3000000001");
    }

    @Test
    void A3_H7_host_slots_wait_LOST_until_their_host_registers_again() {
      Fixture fx = Fixture.hostsOnly().durable().started();
      fx.hostUp("h1", 2, 1);
      fx.rebalance("k", "h1/w-1");
      fx.submit("a", "k");
      fx.submit("b");
      Fixture next = fx.takeOver();
      assertThat(next.slot("h1/w-0").phase()).isEqualTo(Phase.LOST);
      assertThat(next.slot("h1/w-1").phase()).isEqualTo(Phase.LOST);
      assertThat(next.snapshot().hosts().get(0).state()).isEqualTo(HostState.LOST);
      assertThat(next.pool.backlogLength()).isEqualTo(2);
      next.hostUp("h1", 2, 1);
      assertThat(next.slot("h1/w-1").incarnation()).isEqualTo(2);
      assertThat(next.workerOf("a")).isEqualTo("h1/w-1");
      assertThat(next.workerOf("b")).isEqualTo("h1/w-0");
    }

    @Test
    void A3_H6_host_slots_of_a_host_that_never_returns_retire_after_the_grace() {
      Fixture fx = Fixture.hostsOnly().durable().hostGrace(1_000).started();
      fx.hostUp("h1", 1, 1);
      fx.rebalance("k", "h1/w-0");
      fx.submit("a", "k");
      fx.submit("b", "k");
      Fixture next = fx.takeOver();
      next.tick(999);
      assertThat(next.pool.holds("a")).isTrue();
      next.tick(1_000);
      assertThat(next.slot("h1/w-0").retirement()).isEqualTo(Retirement.HOST_LOST);
      assertThat(next.interruptionOf("a")).isInstanceOf(Interruption.WorkerStopped.class);
      assertThat(next.interruptionOf("b"))
          .isEqualTo(new Interruption.AffinityRetired("h1/w-0", Retirement.HOST_LOST));
    }

    @Test
    void A3_slots_the_image_names_that_the_pool_lacks_retire_and_their_jobs_are_answered() {
      Fixture fx = Fixture.pool(1).durable().running();
      fx.register("r-1", 1);
      fx.submit("a", "r-1/k");
      fx.submit("b", "r-1/k");
      Fixture next = fx.takeOver();
      assertThat(next.pool.slotIds()).containsExactly("w-0");
      assertThat(next.interruptionOf("a")).isInstanceOf(Interruption.WorkerStopped.class);
      assertThat(next.interruptionOf("b"))
          .isEqualTo(new Interruption.AffinityRetired("r-1", Retirement.REPLACEMENT_UNAVAILABLE));
    }

    @Test
    void A3_the_new_pool_records_from_where_the_old_one_stopped() {
      Fixture fx = Fixture.pool(2).durable().retry(3).running();
      fx.hostUp("h1", 1, 1);
      fx.submit("a", "w-1/k");
      fx.submitAll("b", "c", "d", "e");
      Fixture next = fx.takeOver();
      next.created("w-0");
      next.complete("b");
      assertThat(next.storedImage()).isEqualTo(next.pool.durableImage());
    }
  }

  @Nested
  class Fencing {

    @Test
    void A2_every_token_of_the_new_term_is_above_every_token_of_the_old_one() {
      Fixture fx = Fixture.pool(1).durable().term(4).running();
      fx.submit("a");
      long old = fx.token("a");
      Fixture next = fx.takeOver();
      next.created("w-0");
      assertThat(next.token("a")).isGreaterThan(old);
      assertThat(next.token("a") >>> PoolSettings.TERM_SHIFT).isEqualTo(5);
    }

    @Test
    void A2_a_completion_of_the_old_term_is_refused_and_counted_stale() {
      Fixture fx = Fixture.pool(1).durable().running();
      fx.submit("a");
      long old = fx.token("a");
      Fixture next = fx.takeOver();
      next.created("w-0");
      assertThat(next.refuse(new PoolEvent.Completed("w-0", old, "late", null, next.now())))
          .isInstanceOf(PoolError.StaleCompletion.class);
      assertThat(next.counters().staleCompletions()).isEqualTo(1);
      next.complete("a");
      assertThat(next.terminal("a")).isInstanceOf(Outcome.Completed.class);
    }

    @Test
    void A3_a_recovery_is_refused_unless_the_pool_is_durable_fresh_and_newer() {
      Fixture plain = Fixture.pool(1).term(2).started();
      assertThat(plain.refuse(new PoolEvent.Recover(DurableImage.empty(1), 0)).message())
          .contains("not durable");
      Fixture busy = Fixture.pool(1).durable().term(2).started();
      busy.submit("a");
      assertThat(busy.refuse(new PoolEvent.Recover(DurableImage.empty(1), 0)).message())
          .contains("already taken work");
      Fixture same = Fixture.pool(1).durable().term(2).started();
      assertThat(same.refuse(new PoolEvent.Recover(DurableImage.empty(2), 0)).message())
          .contains("not older");
      Fixture once = Fixture.pool(1).durable().term(2).started();
      once.apply(new PoolEvent.Recover(DurableImage.empty(1), 0));
      assertThat(once.refuse(new PoolEvent.Recover(DurableImage.empty(1), 0)).name())
          .isEqualTo("RECOVERY_REFUSED");
    }

    @Test
    void A3_an_image_that_contradicts_the_pool_is_refused_and_changes_nothing() {
      DurableImage.HostImage stealing = new DurableImage.HostImage("h1", "n1", List.of("w-0"));
      DurableImage.HostImage twice = new DurableImage.HostImage("h2", "n2", List.of("h2/w-0"));
      DurableImage.HostImage sharing = new DurableImage.HostImage("h3", "n3", List.of("h2/w-0"));
      DurableImage.JobImage keyed = new DurableImage.JobImage("a", 0, 0, "p", "k", "r", 0, 0,
          null, 0, null, null);
      DurableImage.JobImage plain = new DurableImage.JobImage("b", 0, 0, "p", null, "r", 0, 0,
          null, 0, null, null);
      DurableImage.JobImage waitingAndRunning = new DurableImage.JobImage("c", 0, 0, "p", null,
          "r", 0, 0, null, 1, "w-0", null, 50, false, 0, 0, null);
      Map<DurableImage, String> refusals = new LinkedHashMap<>();
      refusals.put(new DurableImage(0, 0, List.of(), List.of(), List.of(stealing)),
          "slot 'w-0' of host 'h1' belongs to the pool itself");
      refusals.put(new DurableImage(0, 0, List.of(), List.of(), List.of(twice, twice)),
          "host 'h2' is in the image twice");
      refusals.put(new DurableImage(0, 0, List.of(), List.of(), List.of(twice, sharing)),
          "slot 'h2/w-0' of host 'h3' belongs to two hosts");
      refusals.put(new DurableImage(0, 0, List.of(keyed), List.of(), List.of()),
          "job 'a' has key 'k' but no target");
      refusals.put(new DurableImage(0, 0, List.of(plain, plain), List.of(), List.of()),
          "job 'b' is in the image twice");
      refusals.put(new DurableImage(0, 0, List.of(waitingAndRunning), List.of(), List.of()),
          "job 'c' is both waiting and running on 'w-0'");
      refusals.forEach((image, why) -> {
        Fixture fx = Fixture.pool(1).durable().term(1).started();
        assertThat(fx.refuse(new PoolEvent.Recover(image, 0)))
            .isEqualTo(new PoolError.RecoveryRefused(why));
      });
    }

    @Test
    void A3_J2_a_queued_suspect_keeps_its_stops_across_a_takeover() {
      Fixture fx = Fixture.pool(1).durable().jobs(PoisonTest.AT_ONCE).running();
      fx.submit("bad");
      fx.crash("w-0");
      Fixture next = fx.takeOver();
      next.created("w-0");
      next.crash("w-0");
      assertThat(next.interruptionOf("bad")).isInstanceOf(Interruption.Poison.class);
    }

    @Test
    void A3_a_pool_that_has_only_rejected_work_has_taken_work_too() {
      Fixture fx = Fixture.pool(1).durable().term(2)
          .flow(FlowSettings.NONE.withRejectWhenPaused(true)).running();
      fx.pause(null);
      assertThat(Fixture.rejection(fx.submit("a")).reason()).isEqualTo(RejectionReason.PAUSED);
      assertThat(fx.refuse(new PoolEvent.Recover(DurableImage.empty(1), 0)).message())
          .contains("already taken work");
    }

    @Test
    void A3_a_pool_whose_slots_are_up_before_it_recovers_starts_the_recovered_jobs_at_once() {
      Fixture fx = Fixture.pool(2).durable().started();
      fx.submit("a");
      fx.submit("c", "w-1/k");
      Fixture next = fx.takeOverWithSlotsUp();
      assertThat(placed(next.recoveryEffects())).containsExactly("a@w-0", "c@w-1");
    }

    @Test
    void A3_P15_generated_jobs_queued_out_of_number_order_are_all_held_after_a_takeover() {
      Fixture fx = Fixture.pool(2).durable().retry(3).started();
      fx.created("w-0");
      // job-1 waits for w-1, which is not up; job-2 runs on w-0 and is put back at the front.
      fx.apply(new PoolEvent.Submit(null, "p1", "w-1/k", "r1", 0, 0));
      fx.apply(new PoolEvent.Submit(null, "p2", null, "r2", 0, 0));
      fx.stopped("w-0", Exit.NORMAL);
      assertThat(fx.storedImage().jobs()).extracting(DurableImage.JobImage::job)
          .containsExactly("job-2", "job-1");
      Fixture next = fx.takeOver();
      assertThat(next.pool.holds("job-1")).isTrue();
      assertThat(next.pool.holds("job-2")).isTrue();
      assertThat(next.pool.durableImage().jobs()).hasSize(2);
    }

    @Test
    void A3_P10_a_queued_job_for_a_remote_worker_the_pool_lacks_is_answered_though_its_key_moved() {
      Fixture fx = Fixture.pool(1).durable().running();
      fx.register("r-1", null);
      fx.submit("b", "r-1/k");
      fx.rebalance("r-1/k", "w-0");
      Fixture next = fx.takeOver();
      assertThat(next.interruptionOf("b"))
          .isEqualTo(new Interruption.AffinityRetired("r-1", Retirement.REPLACEMENT_UNAVAILABLE));
      assertThat(next.pool.binding("r-1/k")).isEqualTo("w-0");
    }

    @Test
    void A3_H8_a_hosts_only_pool_whose_remote_worker_is_gone_keeps_its_jobs_for_a_host() {
      Fixture fx = Fixture.hostsOnly().durable().retry(3).running();
      fx.register("r-1", 1);
      fx.submitAll("a", "b");
      Fixture next = fx.takeOver();
      assertThat(next.open()).containsExactlyInAnyOrder("a", "b");
      assertThat(outcomes(next.submit("c"))).containsExactly(new Outcome.Accepted("c"));
      next.hostUp("h1", 1, 1);
      assertThat(next.workerOf("a")).isEqualTo("h1/w-0");
    }

    @Test
    void A3_P9_a_job_put_back_at_a_takeover_takes_an_order_no_waiting_job_holds() {
      Fixture fx = Fixture.pool(1).durable().retry(5).jobs(JobSettings.DEFAULT).running();
      fx.submit("x");
      fx.stopped("w-0", Exit.NORMAL);
      fx.created("w-0");
      // x, put back at the front (order -1), crashes its worker and waits its retry delay.
      fx.crash("w-0");
      fx.created("w-0");
      fx.submit("r");
      assertThat(fx.storedImage().jobs()).extracting(DurableImage.JobImage::order)
          .containsExactly(-1L, 1L);
      Fixture next = fx.takeOver();
      assertThat(next.pool.durableImage().jobs())
          .extracting(DurableImage.JobImage::job, DurableImage.JobImage::order)
          .containsExactly(tuple("r", -2L), tuple("x", -1L));
    }

    @Test
    void A3_a_takeover_assigns_nothing_before_slots_are_up_and_answers_only_what_it_must() {
      Fixture fx = Fixture.pool(2).durable().running();
      fx.submitAll("a", "b", "c");
      Fixture next = fx.takeOver();
      assertThat(assigns(next.recoveryEffects())).isEmpty();
      assertThat(outcomes(next.recoveryEffects())).isEmpty();
    }
  }
}
