package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The capacity ledger: advertised capacity (C1), selection only below it (C2), work-conserving
 * wake (C3), facts from departed workers (C4) and in-flight counts (C5).
 */
class CapacityTest {

  @Nested
  class Advertised {

    @Test
    void C1_configured_slot_of_unknown_capacity_is_never_assigned_until_it_announces_one() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", null), new SlotSpec("w-1", 1)).running();
      assertThat(fx.slot("w-0").capacity()).isEqualTo(-1);
      assertThat(fx.slot("w-0").phase()).isEqualTo(Phase.IDLE);
      fx.submitAll("a", "b", "c");
      assertThat(placed(fx.log())).containsExactly("a@w-1");
      assertThat(placed(fx.advertise("w-0", 2))).containsExactly("b@w-0", "c@w-0");
    }

    @Test
    void C1_registered_worker_without_capacity_is_never_assigned_until_it_announces_one() {
      Fixture fx = Fixture.pool(1).running();
      fx.submitAll("a", "b");
      List<Effect> effects = fx.register("r-1", null);
      assertThat(placed(effects)).isEmpty();
      assertThat(Fixture.notices(effects))
          .containsExactly(new Notice.PhaseChanged("r-1", Phase.IDLE, 1, null, null));
      assertThat(fx.slot("r-1").capacity()).isEqualTo(-1);
      assertThat(placed(fx.advertise("r-1", 1))).containsExactly("b@r-1");
    }

    @Test
    void C1_zero_capacity_at_registration_is_refused_naming_maxConcurrency_and_registers_nothing() {
      Fixture fx = Fixture.pool(1).running();
      PoolError error = fx.refuse(new PoolEvent.WorkerRegistered("r-1", 0, 0));
      assertThat(error).isEqualTo(new PoolError.InvalidCapacity("r-1", 0));
      assertThat(error.name()).isEqualTo("INVALID_CAPACITY");
      assertThat(error.message()).contains("maxConcurrency");
      assertThat(fx.pool.slotIds()).containsExactly("w-0");
    }

    @Test
    void C1_zero_capacity_announcement_is_refused_and_nothing_else_about_the_worker_changes() {
      Fixture fx = Fixture.pool(1).running();
      fx.register("r-1", 2);
      fx.submit("a", "r-1/k");
      PoolError error = fx.refuse(new PoolEvent.CapacityAdvertised("r-1", 0, 0));
      assertThat(error).isEqualTo(new PoolError.InvalidCapacity("r-1", 0));
      assertThat(error.message()).contains("maxConcurrency");
      assertThat(fx.slot("r-1").capacity()).isEqualTo(2);
      assertThat(fx.refuse(new PoolEvent.CapacityAdvertised("w-0", -3, 0)))
          .isEqualTo(new PoolError.InvalidCapacity("w-0", -3));
    }

    @Test
    void C1_zero_capacity_in_the_configuration_fails_naming_maxConcurrency() {
      assertThatThrownBy(() -> new SlotSpec("w-0", 0))
          .isInstanceOf(ConfigException.class)
          .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("maxConcurrency"));
    }

    @Test
    void C1_local_slots_default_to_capacity_one() {
      Fixture fx = Fixture.pool(2).running();
      assertThat(fx.snapshot().slots()).extracting(PoolSnapshot.SlotStatus::capacity)
          .containsOnly(1);
    }
  }

  @Nested
  class Selection {

    @Test
    void C2_slot_at_capacity_is_not_selected() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 2), new SlotSpec("w-1", 1)).running();
      fx.submitAll("a", "b", "c", "d");
      assertThat(placed(fx.log())).containsExactly("a@w-0", "b@w-0", "c@w-1");
      assertThat(fx.pool.backlogLength()).isEqualTo(1);
      assertThat(placed(fx.complete("c"))).containsExactly("d@w-1");
    }

    @Test
    void C2_an_in_flight_count_above_a_lowered_capacity_still_excludes_the_slot() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 3)).running();
      fx.submitAll("a", "b", "c");
      assertThat(placed(fx.advertise("w-0", 1))).isEmpty();
      fx.submit("d");
      assertThat(placed(fx.complete("a"))).isEmpty();
      assertThat(placed(fx.complete("b"))).isEmpty();
      assertThat(fx.slot("w-0").inFlight()).isEqualTo(1);
      assertThat(placed(fx.complete("c"))).containsExactly("d@w-0");
    }
  }

  @Nested
  class Wake {

    @Test
    void C3_a_completion_wakes_dispatch() {
      Fixture fx = Fixture.pool(1).running();
      fx.submitAll("a", "b");
      assertThat(placed(fx.complete("a"))).containsExactly("b@w-0");
    }

    @Test
    void C3_a_capacity_announcement_wakes_dispatch() {
      Fixture fx = Fixture.pool(1).running();
      fx.submitAll("a", "b", "c", "d");
      assertThat(placed(fx.advertise("w-0", 3))).containsExactly("b@w-0", "c@w-0");
    }

    @Test
    void C3_a_workers_arrival_wakes_dispatch() {
      Fixture fx = Fixture.pool(1).running();
      fx.submitAll("a", "b", "c", "d");
      assertThat(placed(fx.register("r-1", 2))).containsExactly("b@r-1", "c@r-1");
    }

    @Test
    void C3_a_creation_wakes_dispatch() {
      Fixture fx = Fixture.pool(1).started();
      fx.submit("a");
      assertThat(placed(fx.created("w-0"))).containsExactly("a@w-0");
    }

    @Test
    void C3_after_every_step_of_a_random_run_no_free_slot_has_eligible_work() {
      SplittableRandom random = new SplittableRandom(3);
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 2), new SlotSpec("w-1", 1),
          new SlotSpec("w-2", null)).backlog(30).budget(1000, 1000).running();
      for (int step = 0; step < 2000; step++) {
        List<PoolSnapshot.SlotStatus> slots = fx.snapshot().slots();
        PoolSnapshot.SlotStatus slot = slots.get(random.nextInt(slots.size()));
        switch (random.nextInt(6)) {
          case 0, 1 -> fx.submit("j" + step, random.nextBoolean() ? null : slot.id() + "/k");
          case 2, 3 -> {
            if (!slot.assignments().isEmpty()) {
              fx.complete(slot.id(), slot.assignments().get(0).assignment());
            }
          }
          case 4 -> fx.advertise(slot.id(), 1 + random.nextInt(3));
          default -> {
            if (slot.phase() == Phase.INSTALLING) {
              fx.created(slot.id());
            } else if (slot.phase() == Phase.IDLE || slot.phase() == Phase.ASSIGNED) {
              fx.crash(slot.id());
            }
          }
        }
      }
      assertThat(fx.counters().completed()).isPositive();
    }
  }

  @Nested
  class Departed {

    private Fixture withRemoteRunning(String job) {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("busy");
      fx.register("r-1", 1);
      fx.submit(job);
      assertThat(fx.workerOf(job)).isEqualTo("r-1");
      return fx;
    }

    @Test
    void C4_completion_for_a_deregistered_worker_is_ignored_and_counted() {
      Fixture fx = withRemoteRunning("a");
      long token = fx.token("a");
      fx.deregister("r-1");
      assertThat(fx.pool.holds("a")).as("RETRY puts it back").isTrue();
      assertThat(fx.apply(new PoolEvent.Completed("r-1", token, "late", null, 0))).isEmpty();
      assertThat(fx.counters().ignoredFacts()).isEqualTo(1);
      assertThat(fx.pool.holds("a")).isTrue();
      assertThat(placed(fx.complete("busy"))).containsExactly("a@w-0");
    }

    @Test
    void C4_announcement_from_a_deregistered_worker_is_ignored_counted_and_adds_no_capacity() {
      Fixture fx = withRemoteRunning("a");
      fx.deregister("r-1");
      assertThat(fx.advertise("r-1", 5)).isEmpty();
      assertThat(fx.counters().ignoredFacts()).isEqualTo(1);
      assertThat(fx.pool.slotIds()).containsExactly("w-0");
      assertThat(fx.snapshot().slots()).extracting(PoolSnapshot.SlotStatus::id)
          .containsExactly("w-0");
      assertThat(placed(fx.submit("b"))).isEmpty();
    }

    @Test
    void C4_other_facts_for_a_deregistered_worker_are_ignored_and_counted() {
      Fixture fx = withRemoteRunning("a");
      fx.deregister("r-1");
      int incarnation = fx.pool.incarnation("r-1");
      assertThat(fx.apply(new PoolEvent.WorkerStopped("r-1", incarnation, Exit.CRASH, "x", 0)))
          .isEmpty();
      assertThat(fx.apply(new PoolEvent.WorkerCreated("r-1", incarnation, 0))).isEmpty();
      assertThat(fx.deregister("r-1")).isEmpty();
      assertThat(fx.counters().ignoredFacts()).isEqualTo(3);
    }

    @Test
    void C4_deregistration_interrupts_running_jobs_with_exit_NORMAL_and_retires_queued_ones() {
      Fixture fx = Fixture.pool(1).failPolicy().running();
      fx.register("r-1", 1);
      fx.submit("a", "r-1/k");
      fx.submit("b", "r-1/k");
      fx.deregister("r-1");
      assertThat(fx.interruptionOf("a"))
          .isEqualTo(new Interruption.WorkerStopped("r-1", Exit.NORMAL, "deregistered"));
      assertThat(fx.interruptionOf("b")).isEqualTo(
          new Interruption.AffinityRetired("r-1", Retirement.REPLACEMENT_UNAVAILABLE));
    }

    @Test
    void C4_a_departed_worker_may_register_again_as_a_fresh_incarnation() {
      Fixture fx = withRemoteRunning("a");
      long old = fx.token("a");
      fx.deregister("r-1");
      List<Effect> effects = fx.register("r-1", 1);
      assertThat(placed(effects)).containsExactly("a@r-1");
      assertThat(fx.slot("r-1").incarnation()).isEqualTo(2);
      fx.refuse(new PoolEvent.Completed("r-1", old, "late", null, 0));
    }

    @Test
    void C4_registering_a_known_worker_is_refused_DUPLICATE_WORKER() {
      Fixture fx = Fixture.pool(1).running();
      fx.register("r-1", null);
      assertThat(fx.refuse(new PoolEvent.WorkerRegistered("w-0", 1, 0)))
          .isEqualTo(new PoolError.DuplicateWorker("w-0"));
      assertThat(fx.refuse(new PoolEvent.WorkerRegistered("r-1", 2, 0)).name())
          .isEqualTo("DUPLICATE_WORKER");
    }

    @Test
    void C4_facts_for_a_never_registered_worker_are_refused_UNKNOWN_WORKER() {
      Fixture fx = Fixture.pool(1).running();
      assertThat(fx.refuse(new PoolEvent.CapacityAdvertised("r-9", 2, 0)))
          .isEqualTo(new PoolError.UnknownWorker("r-9"));
      assertThat(fx.refuse(new PoolEvent.WorkerDeregistered("r-9", 0)))
          .isEqualTo(new PoolError.UnknownWorker("r-9"));
    }
  }

  @Nested
  class InFlight {

    @Test
    void C5_in_flight_equals_the_live_assignments_shown_in_the_snapshot() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 3)).running();
      fx.submitAll("a", "b");
      PoolSnapshot.SlotStatus slot = fx.slot("w-0");
      assertThat(slot.inFlight()).isEqualTo(2);
      assertThat(slot.assignments()).containsExactly(
          new PoolSnapshot.AssignmentStatus(fx.token("a"), "a"),
          new PoolSnapshot.AssignmentStatus(fx.token("b"), "b"));
      fx.complete("a");
      assertThat(fx.slot("w-0").inFlight()).isEqualTo(1);
      assertThat(fx.slot("w-0").assignments())
          .containsExactly(new PoolSnapshot.AssignmentStatus(fx.token("b"), "b"));
    }

    @Test
    void C5_a_cancelled_running_assignment_counts_until_it_ends() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 2)).running();
      fx.submitAll("a", "b");
      fx.cancel("b");
      assertThat(fx.slot("w-0").inFlight()).isEqualTo(2);
      assertThat(fx.slot("w-0").assignments()).hasSize(2);
      fx.complete("b");
      assertThat(fx.slot("w-0").inFlight()).isEqualTo(1);
      assertThat(fx.slot("w-0").assignments()).extracting(PoolSnapshot.AssignmentStatus::job)
          .containsExactly("a");
    }

    @Test
    void C5_a_stop_clears_the_slots_assignments() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 2)).running();
      fx.submitAll("a", "b");
      fx.crash("w-0");
      assertThat(fx.slot("w-0").inFlight()).isZero();
      assertThat(fx.slot("w-0").assignments()).isEmpty();
    }
  }
}
