package dev.shepherd.core;

import static dev.shepherd.core.Fixture.notices;
import static dev.shepherd.core.Fixture.only;
import static dev.shepherd.core.Fixture.outcomes;
import static dev.shepherd.core.Fixture.placed;
import static dev.shepherd.core.Fixture.rejection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Worker hosts on other nodes (section 8.2-8.3): registration, loss, grace, return. */
class HostsTest {

  @Nested
  class Registration {

    @Test
    void H1_a_hosts_slots_are_named_after_it_and_deployed_when_it_registers() {
      Fixture fx = Fixture.pool(1).running();
      List<Effect> effects = fx.hostRegistered("h1", "node-a", 2, 2);
      assertThat(only(effects, Effect.Deploy.class)).containsExactly(
          new Effect.Deploy("h1/w-0", 1), new Effect.Deploy("h1/w-1", 1));
      assertThat(fx.pool.phase("h1/w-0")).isEqualTo(Phase.INSTALLING);
      assertThat(fx.slot("h1/w-1").host()).isEqualTo("h1");
      assertThat(fx.slot("w-0").host()).isNull();
      assertThat(fx.snapshot().hosts()).containsExactly(new PoolSnapshot.HostStatus("h1",
          "node-a", HostState.UP, List.of("h1/w-0", "h1/w-1"), fx.now()));
    }

    @Test
    void H1_a_second_live_host_with_the_same_id_on_another_node_is_refused() {
      Fixture fx = Fixture.pool(1).running();
      fx.hostRegistered("h1", "node-a", 1, 1);
      PoolError error = fx.refuse(registration("h1", "node-b", "h1/w-0"));
      assertThat(error).isEqualTo(new PoolError.DuplicateHost("h1", "node-a"));
      assertThat(error.name()).isEqualTo("DUPLICATE_HOST");
    }

    @Test
    void H1_a_repeated_registration_from_the_same_node_changes_nothing() {
      Fixture fx = Fixture.pool(1).running();
      fx.hostRegistered("h1", "node-a", 1, 1);
      assertThat(fx.hostRegistered("h1", "node-a", 1, 1)).isEmpty();
      assertThat(fx.pool.incarnation("h1/w-0")).isEqualTo(1);
    }

    @Test
    void H1_a_host_may_not_claim_a_slot_of_the_pool_or_of_another_host() {
      Fixture fx = Fixture.pool(1).running();
      fx.hostRegistered("h1", "node-a", 1, 1);
      assertThat(fx.refuse(registration("h2", "node-b", "w-0")).name())
          .isEqualTo("INVALID_HOST_SLOTS");
      assertThat(fx.refuse(registration("h2", "node-b", "h1/w-0")).name())
          .isEqualTo("INVALID_HOST_SLOTS");
      assertThat(fx.refuse(registration("h2", "node-b", "h2/w-0", "h2/w-0")).name())
          .isEqualTo("INVALID_HOST_SLOTS");
      assertThat(fx.refuse(new PoolEvent.HostRegistered("h2", "node-b", List.of(), 0)).name())
          .isEqualTo("INVALID_HOST_SLOTS");
    }

    @Test
    void H2_a_pool_of_hosts_only_queues_submits_until_a_host_arrives() {
      Fixture fx = Fixture.hostsOnly().running();
      assertThat(outcomes(fx.submit("j1"))).containsExactly(new Outcome.Accepted("j1"));
      fx.hostRegistered("h1", "node-a", 1, 1);
      assertThat(placed(fx.created("h1/w-0"))).containsExactly("j1@h1/w-0");
    }

    @Test
    void H2_slot_order_is_the_pools_own_first_then_hosts_in_first_registration_order() {
      Fixture fx = Fixture.pool(1).running();
      fx.hostUp("h2", 1, 1);
      fx.hostUp("h1", 1, 1);
      assertThat(fx.pool.slotIds()).containsExactly("w-0", "h2/w-0", "h1/w-0");
      assertThat(placed(fx.submitAllEffects("a", "b", "c"))).containsExactly(
          "a@w-0", "b@h2/w-0", "c@h1/w-0");
    }

    @Test
    void H3_each_remote_slot_runs_at_most_its_advertised_capacity() {
      Fixture fx = Fixture.hostsOnly().running();
      fx.hostUp("h1", 1, 2);
      assertThat(placed(fx.submitAllEffects("a", "b", "c"))).containsExactly("a@h1/w-0",
          "b@h1/w-0");
      assertThat(fx.slot("h1/w-0").inFlight()).isEqualTo(2);
      assertThat(placed(fx.complete("a"))).containsExactly("c@h1/w-0");
    }

    @Test
    void H4_a_crash_on_a_host_is_decided_by_the_pools_supervisor_and_counted_in_its_budget() {
      Fixture fx = Fixture.hostsOnly().budget(1, 10_000).running();
      fx.hostUp("h1", 1, 1);
      List<Effect> effects = fx.crash("h1/w-0");
      assertThat(only(effects, Effect.Deploy.class)).containsExactly(
          new Effect.Deploy("h1/w-0", 2));
      assertThat(fx.snapshot().restartsInWindow()).isEqualTo(1);
      fx.created("h1/w-0");
      fx.crash("h1/w-0");
      assertThat(fx.pool.phase("h1/w-0")).isEqualTo(Phase.RETIRED);
    }
  }

  @Nested
  class Lease {
    private final long lease = HostSettings.DEFAULT_LEASE_MS;

    private HostState state(Fixture fx) {
      return fx.snapshot().hosts().get(0).state();
    }

    @Test
    void H5_H6_a_lease_is_at_least_one_ms_and_a_grace_may_be_zero() {
      assertThat(new HostSettings(false, 0, 1).leaseMs()).isEqualTo(1);
      assertThatThrownBy(() -> new HostSettings(false, 0, 0))
          .isInstanceOfSatisfying(ConfigException.class,
              e -> assertThat(e.field()).isEqualTo("heartbeatTimeoutMs"));
      assertThatThrownBy(() -> new HostSettings(false, -1))
          .isInstanceOfSatisfying(ConfigException.class,
              e -> assertThat(e.field()).isEqualTo("hostGraceMs"));
    }

    @Test
    void H5_a_host_that_registers_gets_a_lease_timer_from_the_pool() {
      Fixture fx = Fixture.pool(1).running().at(100);
      List<Effect> effects = fx.hostRegistered("h1", "node-a", 1, 1);
      assertThat(only(effects, Effect.StartTimer.class)).containsExactly(
          new Effect.StartTimer(new Timer.HostLease("h1", 100), 100 + lease));
    }

    @Test
    void H5_a_host_silent_for_its_lease_is_lost_and_its_jobs_interrupted_NODE_LOST() {
      Fixture fx = Fixture.pool(1).retry(3).running();
      fx.hostUp("h1", 1, 1);
      fx.submit("a");
      fx.submit("b");
      assertThat(fx.workerOf("b")).isEqualTo("h1/w-0");
      List<Effect> effects = fx.tick(fx.now() + lease);
      assertThat(notices(effects, Notice.HostChanged.class)).containsExactly(
          new Notice.HostChanged("h1", "node-h1", HostState.LOST, "no heartbeat from host 'h1'"
              + " for " + lease + " ms (heartbeatTimeoutMs " + lease + ")"));
      assertThat(only(effects, Effect.Stop.class)).containsExactly(
          new Effect.Stop("h1/w-0", 1, Exit.NODE_LOST));
      assertThat(fx.pool.phase("h1/w-0")).isEqualTo(Phase.LOST);
      assertThat(fx.pool.backlogLength()).as("b waits to run again").isEqualTo(1);
    }

    @Test
    void H5_a_host_heard_within_its_lease_stays_up_and_its_lease_runs_from_its_last_word() {
      Fixture fx = Fixture.pool(1).running();
      long registered = fx.now();
      fx.hostUp("h1", 1, 1);
      fx.at(registered + lease - 1);
      fx.apply(new PoolEvent.HostHeard("h1", fx.now()));
      List<Effect> checked = fx.tick(registered + lease);
      assertThat(state(fx)).isEqualTo(HostState.UP);
      assertThat(only(checked, Effect.StartTimer.class)).as("checked again when it would end")
          .containsExactly(new Effect.StartTimer(new Timer.HostLease("h1", registered),
              registered + 2 * lease - 1));
      fx.tick(registered + 2 * lease - 2);
      assertThat(state(fx)).isEqualTo(HostState.UP);
      fx.tick(registered + 2 * lease - 1);
      assertThat(state(fx)).isEqualTo(HostState.LOST);
    }

    @Test
    void H5_a_repeated_registration_from_the_same_node_is_heard_too() {
      Fixture fx = Fixture.pool(1).running();
      long registered = fx.now();
      fx.hostUp("h1", 1, 1);
      fx.at(registered + lease - 1);
      fx.hostRegistered("h1", "node-h1", 1, 1);
      fx.tick(registered + lease);
      assertThat(state(fx)).isEqualTo(HostState.UP);
    }

    @Test
    void H5_the_lease_timer_of_an_earlier_registration_changes_nothing() {
      Fixture fx = Fixture.pool(1).running();
      long first = fx.now();
      fx.hostUp("h1", 1, 1);
      fx.hostLost("h1");
      fx.at(first + 10);
      fx.hostRegistered("h1", "node-h1", 1, 1);
      long ignored = fx.counters().ignoredFacts();
      assertThat(fx.apply(new PoolEvent.TimerFired(new Timer.HostLease("h1", first),
          first + lease))).isEmpty();
      assertThat(state(fx)).isEqualTo(HostState.UP);
      assertThat(fx.counters().ignoredFacts()).isEqualTo(ignored + 1);
    }

    @Test
    void H5_word_from_a_host_the_pool_does_not_have_up_changes_nothing() {
      Fixture fx = Fixture.pool(1).running();
      fx.hostUp("h1", 1, 1);
      fx.hostLost("h1");
      assertThat(fx.apply(new PoolEvent.HostHeard("h1", fx.now()))).isEmpty();
      assertThat(state(fx)).isEqualTo(HostState.LOST);
      assertThat(fx.refuse(new PoolEvent.HostHeard("h9", fx.now())).name())
          .isEqualTo("UNKNOWN_HOST");
    }
  }

  @Nested
  class Loss {

    @Test
    void H5_a_lost_hosts_running_jobs_are_interrupted_NODE_LOST_and_retried_elsewhere() {
      Fixture fx = Fixture.pool(1).retry(3).running();
      fx.hostUp("h1", 1, 1);
      fx.submit("a");
      fx.submit("b");
      assertThat(fx.workerOf("b")).isEqualTo("h1/w-0");
      List<Effect> effects = fx.hostLost("h1");
      assertThat(only(effects, Effect.Stop.class)).containsExactly(
          new Effect.Stop("h1/w-0", 1, Exit.NODE_LOST));
      assertThat(fx.pool.phase("h1/w-0")).isEqualTo(Phase.LOST);
      assertThat(fx.pool.backlogLength()).isEqualTo(1);
      assertThat(placed(fx.complete("a"))).containsExactly("b@w-0");
      assertThat(fx.snapshot().restartsInWindow()).isZero();
      assertThat(fx.snapshot().hosts().get(0).state()).isEqualTo(HostState.LOST);
    }

    @Test
    void H5_with_FAIL_a_lost_hosts_jobs_are_answered_interrupted_NODE_LOST() {
      Fixture fx = Fixture.hostsOnly().failPolicy().running();
      fx.hostUp("h1", 1, 1);
      fx.submit("a");
      fx.hostLost("h1");
      assertThat(fx.terminal("a")).isInstanceOfSatisfying(Outcome.Interrupted.class,
          i -> assertThat(i.reason()).isEqualTo(new Interruption.WorkerStopped("h1/w-0",
              Exit.NODE_LOST, "node left the cluster")));
    }

    @Test
    void H6_keyed_jobs_bound_to_a_lost_slot_wait_for_it() {
      Fixture fx = Fixture.pool(1).running();
      fx.hostUp("h1", 1, 1);
      fx.rebalance("user", "h1/w-0");
      fx.hostLost("h1");
      assertThat(outcomes(fx.submit("j1", "user"))).containsExactly(new Outcome.Accepted("j1"));
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.IDLE);
      assertThat(fx.pool.backlogLength()).isEqualTo(1);
    }

    @Test
    void H6_a_slot_lost_past_the_grace_retires_HOST_LOST_and_its_keyed_jobs_are_answered() {
      Fixture fx = Fixture.pool(1).hostGrace(500).running();
      fx.hostUp("h1", 1, 1);
      fx.rebalance("user", "h1/w-0");
      fx.at(1_000).hostLost("h1");
      fx.submit("j1", "user");
      assertThat(fx.tick(1_499)).isEmpty();
      List<Effect> effects = fx.tick(1_500);
      assertThat(notices(effects, Notice.PhaseChanged.class)).containsExactly(
          new Notice.PhaseChanged("h1/w-0", Phase.RETIRED, 1, null, Retirement.HOST_LOST));
      assertThat(fx.terminal("j1")).isInstanceOfSatisfying(Outcome.Interrupted.class,
          i -> assertThat(i.reason()).isEqualTo(
              new Interruption.AffinityRetired("h1/w-0", Retirement.HOST_LOST)));
    }

    @Test
    void H7_a_returning_host_gets_its_slots_back_with_a_new_incarnation_and_bindings_hold() {
      Fixture fx = Fixture.pool(1).hostGrace(500).running();
      fx.hostUp("h1", 1, 1);
      fx.rebalance("user", "h1/w-0");
      fx.submit("j1", "user");
      long oldToken = fx.token("j1");
      fx.at(100).hostLost("h1");
      List<Effect> effects = fx.at(200).hostRegistered("h1", "node-b", 1, 1);
      assertThat(only(effects, Effect.Deploy.class)).containsExactly(
          new Effect.Deploy("h1/w-0", 2));
      assertThat(placed(fx.created("h1/w-0"))).containsExactly("j1@h1/w-0");
      assertThat(fx.pool.binding("user")).isEqualTo("h1/w-0");
      assertThat(fx.refuse(new PoolEvent.Completed("h1/w-0", oldToken, "late", null, 200)))
          .isInstanceOf(PoolError.StaleCompletion.class);
    }

    @Test
    void H7_a_host_returning_after_the_grace_revives_slots_retired_HOST_LOST() {
      Fixture fx = Fixture.pool(1).hostGrace(10).running();
      fx.hostUp("h1", 2, 1);
      fx.hostLost("h1");
      fx.tick(fx.now() + 10);
      assertThat(fx.pool.phase("h1/w-1")).isEqualTo(Phase.RETIRED);
      fx.hostRegistered("h1", "node-b", 2, 1);
      assertThat(fx.pool.phase("h1/w-0")).isEqualTo(Phase.INSTALLING);
      assertThat(fx.pool.incarnation("h1/w-1")).isEqualTo(2);
      assertThat(fx.snapshot().hosts().get(0).state()).isEqualTo(HostState.UP);
    }

    @Test
    void H8_lost_slots_are_recoverable_so_submits_are_still_accepted() {
      Fixture fx = Fixture.hostsOnly().running();
      fx.hostUp("h1", 1, 1);
      fx.hostLost("h1");
      assertThat(outcomes(fx.submit("j1"))).containsExactly(new Outcome.Accepted("j1"));
    }

    @Test
    void H8_NO_RECOVERABLE_WORKERS_only_once_every_slot_of_the_pool_is_retired() {
      Fixture fx = Fixture.hostsOnly().hostGrace(0).running();
      fx.hostUp("h1", 1, 1);
      fx.rebalance("k", "h1/w-0");
      fx.submit("running", "k");
      fx.submit("queued", "k");
      fx.hostLost("h1");
      fx.tick(fx.now());
      assertThat(fx.terminal("queued")).isInstanceOf(Outcome.Interrupted.class);
      assertThat(rejection(fx.submit("j1")).reason())
          .isEqualTo(RejectionReason.NO_RECOVERABLE_WORKERS);
    }

    @Test
    void H8_a_pool_whose_only_host_left_on_purpose_queues_again_until_one_arrives() {
      Fixture fx = Fixture.hostsOnly().running();
      fx.hostUp("h1", 1, 1);
      fx.hostDeregistered("h1");
      assertThat(fx.snapshot().slots()).isEmpty();
      assertThat(outcomes(fx.submit("j1"))).containsExactly(new Outcome.Accepted("j1"));
    }

    @Test
    void H5_facts_about_a_lost_slot_change_nothing() {
      Fixture fx = Fixture.pool(1).running();
      fx.hostUp("h1", 1, 1);
      fx.hostLost("h1");
      assertThat(fx.refuse(new PoolEvent.WorkerStopped("h1/w-0", 1, Exit.CRASH, "late", 0)))
          .isInstanceOf(PoolError.WorkerStoppedWhileUnavailable.class);
      assertThat(fx.refuse(new PoolEvent.WorkerCreated("h1/w-0", 1, 0)))
          .isInstanceOf(PoolError.CreationResolvedWhileUnavailable.class);
      assertThat(fx.refuse(new PoolEvent.HostLost("nobody", "x", 0)))
          .isEqualTo(new PoolError.UnknownHost("nobody"));
    }
  }

  private static PoolEvent.HostRegistered registration(String host, String node,
      String... slots) {
    return new PoolEvent.HostRegistered(host, node,
        java.util.Arrays.stream(slots).map(id -> new SlotSpec(id, 1)).toList(), 0);
  }
}
