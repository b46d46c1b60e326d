package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every refusal the pool returns, produced through {@link Pool#apply}: its protocol name (what the
 * wire carries) and its message, which names the worker, host, job or field and the value that
 * made the event inapplicable.
 */
class PoolErrorTest {

  private static void assertRefusal(PoolError error, String name, String message) {
    assertThat(error.name()).isEqualTo(name);
    assertThat(error.message()).isEqualTo(message);
  }

  @Test
  void P8_a_refused_event_has_no_effects_and_no_verdict_to_read() {
    Transition t = Fixture.pool(1).running().pool.apply(new PoolEvent.Completed("w-9", 1, "r",
        null, 0));
    PoolError error = ((Transition.Refused) t).error();
    assertThatThrownBy(t::effects).isInstanceOf(IllegalStateException.class)
        .hasMessage("refused: " + error);
    assertThatThrownBy(t::verdict).isInstanceOf(IllegalStateException.class)
        .hasMessage("refused: " + error);
  }

  @Test
  void P8_a_completion_from_a_worker_the_pool_does_not_have_names_it() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.Completed("w-9", 1, "r", null, 0)),
        "UNKNOWN_WORKER", "no worker 'w-9' in this pool");
  }

  @Test
  void P8_a_completion_for_a_slot_holding_no_assignment_names_its_phase() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.Completed("w-0", 7, "r", null, 0)),
        "COMPLETION_FOR_UNAVAILABLE_WORKER", "worker 'w-0' holds no assignment (phase IDLE)");
  }

  @Test
  void P8_a_stale_completion_names_the_tokens_held_and_the_one_received() {
    Fixture fx = Fixture.pool(1).running();
    fx.submit("a");
    long held = fx.token("a");
    assertRefusal(fx.refuse(new PoolEvent.Completed("w-0", held + 10, "r", null, 0)),
        "STALE_COMPLETION",
        "worker 'w-0' holds assignments [" + held + "], received " + (held + 10));
  }

  @Test
  void P9_a_stop_of_an_installing_slot_names_its_phase() {
    Fixture fx = Fixture.pool(1).started();
    assertRefusal(fx.refuse(new PoolEvent.WorkerStopped("w-0", 1, Exit.CRASH, "x", 0)),
        "WORKER_STOPPED_WHILE_UNAVAILABLE", "worker 'w-0' is INSTALLING, so it cannot stop");
  }

  @Test
  void P12_a_creation_result_for_a_running_slot_names_its_phase() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.WorkerCreated("w-0", 1, 0)),
        "CREATION_RESOLVED_WHILE_UNAVAILABLE", "worker 'w-0' is IDLE, not INSTALLING");
  }

  @Test
  void P5_a_rebalance_to_a_retired_slot_names_its_retirement() {
    Fixture fx = Fixture.pool(2).started();
    fx.created("w-0");
    fx.creationFailed("w-1");
    assertRefusal(fx.refuse(new PoolEvent.Rebalance("k", "w-1", 0)),
        "REBALANCE_TO_RETIRED_WORKER", "worker 'w-1' is retired (CREATION_REJECTED)");
  }

  @Test
  void F6_a_rebalance_to_a_draining_slot_names_it() {
    Fixture fx = Fixture.pool(2).running();
    fx.submitAll("a", "b");
    fx.apply(new PoolEvent.Resize(1, 1, fx.now()));
    assertRefusal(fx.refuse(new PoolEvent.Rebalance("k", "w-1", fx.now())),
        "WORKER_LEAVING", "worker 'w-1' is draining: a resize takes it out of the pool");
  }

  @Test
  void P9_a_stop_reported_for_another_incarnation_names_both() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.WorkerStopped("w-0", 5, Exit.CRASH, "x", 0)),
        "STALE_INCARNATION", "worker 'w-0' is at incarnation 1, fact is for 5");
  }

  @Test
  void P1_a_registration_of_a_slot_id_in_use_names_it() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.WorkerRegistered("w-0", 2, 0)),
        "DUPLICATE_WORKER", "worker 'w-0' is already registered");
  }

  @Test
  void C1_a_capacity_of_zero_names_the_worker_and_the_value() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.CapacityAdvertised("w-0", 0, 0)),
        "INVALID_CAPACITY", "maxConcurrency must be at least 1 (worker 'w-0' advertised 0): a"
            + " worker that runs nothing can never be selected");
  }

  @Test
  void H1_a_second_live_host_of_the_same_id_names_the_node_holding_it() {
    Fixture fx = Fixture.pool(1).running();
    fx.hostRegistered("h1", "node-a", 1, 1);
    assertRefusal(fx.refuse(new PoolEvent.HostRegistered("h1", "node-b",
            List.of(new SlotSpec("h1/w-0", 1)), 0)),
        "DUPLICATE_HOST", "host 'h1' is already registered by node node-a");
  }

  @Test
  void H1_a_host_claiming_a_slot_of_the_pool_names_the_host_and_the_slot() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.HostRegistered("h2", "node-b",
            List.of(new SlotSpec("w-0", 1)), 0)),
        "INVALID_HOST_SLOTS", "host 'h2': slot 'w-0' belongs to the pool itself");
  }

  @Test
  void H5_a_heartbeat_of_a_host_the_pool_does_not_know_names_it() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.HostHeard("h9", 0)),
        "UNKNOWN_HOST", "no host 'h9' is registered");
  }

  @Test
  void J7_a_revive_of_a_slot_that_is_not_retired_says_why() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.Revive("w-0", 0)),
        "REVIVE_REFUSED", "worker 'w-0' cannot be revived: it is IDLE, not retired");
  }

  @Test
  void A3_a_recovery_of_a_pool_that_is_not_durable_says_why() {
    Fixture fx = Fixture.pool(1).term(2).started();
    assertRefusal(fx.refuse(new PoolEvent.Recover(DurableImage.empty(1), 0)),
        "RECOVERY_REFUSED", "cannot recover: pool test is not durable");
  }

  @Test
  void J5_a_discard_of_a_job_not_in_the_dead_letter_set_names_it() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.DiscardDead("nope", 0)),
        "UNKNOWN_JOB", "no job 'nope' in the dead-letter set");
  }

  @Test
  void F6_a_resize_to_no_slot_names_the_field_and_the_value() {
    Fixture fx = Fixture.pool(1).running();
    assertRefusal(fx.refuse(new PoolEvent.Resize(0, 1, 0)),
        "RESIZE_REFUSED",
        "instances: must be at least 1: this pool does not run on worker hosts alone (was 0)");
  }

  @Test
  void F6_a_resize_of_a_stopping_pool_names_its_state_and_no_field() {
    Fixture fx = Fixture.pool(1).running();
    fx.submit("a");
    fx.stopRequested();
    assertRefusal(fx.refuse(new PoolEvent.Resize(2, 1, 0)),
        "RESIZE_REFUSED", "the pool is DRAINING");
  }
}
