package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** F6 (docs/rules.md): resizing the pool's own slots at run time. */
class ResizeTest {

  /** The slot a key names before its '/', while it can be chosen; else the first that can. */
  static final AffinitySelector PREFIX_OR_FIRST = (key, slots) -> {
    String named = key.indexOf('/') < 0 ? null : key.substring(0, key.indexOf('/'));
    for (int i = 0; i < slots.size(); i++) {
      if (slots.id(i).equals(named) && slots.selectable(i)) {
        return named;
      }
    }
    for (int i = 0; i < slots.size(); i++) {
      if (slots.selectable(i)) {
        return slots.id(i);
      }
    }
    return null;
  };

  static List<Effect> resize(Fixture fx, int instances, int maxConcurrency) {
    return fx.apply(new PoolEvent.Resize(instances, maxConcurrency, fx.now()));
  }

  static List<String> ids(Fixture fx) {
    return fx.snapshot().slots().stream().map(PoolSnapshot.SlotStatus::id).toList();
  }

  @Nested
  class Growing {

    @Test
    void F6_grow_adds_slots_that_install_then_serve() {
      Fixture fx = Fixture.pool(2).running();
      fx.submitAll("a", "b", "c");
      List<Effect> effects = resize(fx, 4, 1);
      assertThat(Fixture.only(effects, Effect.Deploy.class))
          .containsExactly(new Effect.Deploy("w-2", 1), new Effect.Deploy("w-3", 1));
      assertThat(fx.slot("w-2").phase()).isEqualTo(Phase.INSTALLING);
      assertThat(fx.snapshot().size()).isEqualTo(new PoolSize(4, 1));
      assertThat(Fixture.notices(effects, Notice.Resized.class))
          .containsExactly(new Notice.Resized(4, 1, List.of("w-2", "w-3"), List.of()));
      assertThat(Fixture.placed(fx.created("w-2"))).containsExactly("c@w-2");
      fx.complete("c");
      assertThat(fx.terminal("c")).isInstanceOf(Outcome.Completed.class);
    }

    @Test
    void F6_max_concurrency_changes_every_local_slot_and_lowering_it_lets_jobs_finish() {
      Fixture fx = Fixture.pool(2).capacity(3).running();
      fx.submitAll("a", "b", "c", "d", "e", "f", "g");
      assertThat(fx.slot("w-0").inFlight()).isEqualTo(3);
      List<Effect> lower = resize(fx, 2, 1);
      assertThat(Fixture.assigns(lower)).isEmpty();
      assertThat(fx.slot("w-0").capacity()).isEqualTo(1);
      assertThat(fx.slot("w-0").inFlight()).isEqualTo(3);
      assertThat(Fixture.placed(fx.complete("a"))).isEmpty();
      assertThat(Fixture.placed(fx.complete("b"))).isEmpty();
      assertThat(Fixture.placed(fx.complete("c"))).containsExactly("g@w-0");
      List<Effect> raise = resize(fx, 2, 4);
      assertThat(fx.slot("w-1").capacity()).isEqualTo(4);
      assertThat(Fixture.placed(raise)).isEmpty();
      assertThat(fx.open()).contains("d", "e", "f", "g");
    }

    @Test
    void F6_a_hosts_slots_are_not_touched() {
      Fixture fx = Fixture.pool(1).running();
      fx.hostUp("h1", 2, 2);
      resize(fx, 3, 5);
      assertThat(fx.slot("h1/w-0").capacity()).isEqualTo(2);
      assertThat(fx.slot("w-0").capacity()).isEqualTo(5);
      assertThat(ids(fx)).containsExactly("w-0", "h1/w-0", "h1/w-1", "w-1", "w-2");
      resize(fx, 1, 5);
      assertThat(ids(fx)).containsExactly("w-0", "h1/w-0", "h1/w-1");
    }
  }

  @Nested
  class Shrinking {

    @Test
    void F6_shrink_drains_the_highest_slots_their_jobs_finish_then_they_leave() {
      Fixture fx = Fixture.pool(3).running();
      fx.submitAll("a", "b", "c", "d");
      assertThat(fx.workerOf("c")).isEqualTo("w-2");
      List<Effect> effects = resize(fx, 1, 1);
      assertThat(fx.slot("w-2").phase()).isEqualTo(Phase.DRAINING);
      assertThat(fx.slot("w-1").phase()).isEqualTo(Phase.DRAINING);
      assertThat(Fixture.only(effects, Effect.Stop.class)).isEmpty();
      fx.complete("c");
      assertThat(fx.log()).doesNotContain(new Effect.Assign("w-2", fx.token("c") + 1, "d",
          Fixture.payload("d"), 1, null));
      assertThat(ids(fx)).containsExactly("w-0", "w-1");
      assertThat(Fixture.only(fx.log(), Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-2", 1, Exit.NORMAL));
      assertThat(Fixture.notices(fx.log(), Notice.SlotRemoved.class))
          .containsExactly(new Notice.SlotRemoved("w-2", 1));
      assertThat(fx.terminal("c")).isInstanceOf(Outcome.Completed.class);
      assertThat(Fixture.placed(fx.complete("a"))).containsExactly("d@w-0");
      fx.complete("b");
      assertThat(ids(fx)).containsExactly("w-0");
      assertThat(fx.counters().restarts()).isZero();
      assertThat(fx.snapshot().slots()).allMatch(slot -> slot.retirement() == null);
    }

    @Test
    void F6_an_idle_installing_or_retired_slot_leaves_at_once() {
      Fixture fx = Fixture.pool(4).policy(RestartPolicy.TEMPORARY).started();
      fx.created("w-0");
      fx.created("w-1");
      fx.crash("w-1");
      List<Effect> effects = resize(fx, 1, 1);
      assertThat(Fixture.only(effects, Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-2", 1, Exit.NORMAL),
              new Effect.Stop("w-3", 1, Exit.NORMAL));
      assertThat(Fixture.notices(effects, Notice.SlotRemoved.class)).hasSize(3);
      assertThat(ids(fx)).containsExactly("w-0");
      long ignored = fx.counters().ignoredFacts();
      fx.apply(new PoolEvent.WorkerCreated("w-2", 1, fx.now()));
      assertThat(fx.counters().ignoredFacts()).isEqualTo(ignored + 1);
      assertThat(ids(fx)).containsExactly("w-0");
    }

    @Test
    void F6_a_late_fact_of_a_slot_that_left_is_ignored() {
      Fixture fx = Fixture.pool(2).started();
      fx.created("w-0");
      resize(fx, 1, 1);
      long ignored = fx.counters().ignoredFacts();
      fx.apply(new PoolEvent.WorkerCreated("w-1", 1, fx.now()));
      assertThat(fx.counters().ignoredFacts()).isEqualTo(ignored + 1);
      assertThat(ids(fx)).containsExactly("w-0");
    }
  }

  @Nested
  class Keys {

    @Test
    void F6_keys_and_queued_keyed_jobs_of_a_leaving_slot_move_to_the_selectors_choice() {
      Fixture fx = Fixture.pool(2).selector(PREFIX_OR_FIRST).running();
      fx.submit("a", "w-1/k");
      fx.submit("b", "w-1/k");
      assertThat(fx.pool.binding("w-1/k")).isEqualTo("w-1");
      resize(fx, 1, 1);
      assertThat(fx.pool.binding("w-1/k")).isEqualTo("w-0");
      assertThat(fx.slot("w-1").phase()).isEqualTo(Phase.DRAINING);
      assertThat(Fixture.placed(fx.log())).contains("b@w-0");
      fx.complete("a");
      assertThat(ids(fx)).containsExactly("w-0");
      assertThat(Fixture.placed(fx.submit("c", "w-1/k"))).isEmpty();
      fx.complete("b");
      assertThat(fx.workerOf("c")).isEqualTo("w-0");
    }

    @Test
    void F6_a_running_keyed_job_that_is_retried_runs_where_its_key_moved() {
      Fixture fx = Fixture.pool(2).selector(PREFIX_OR_FIRST).running();
      fx.submit("a", "w-1/k");
      fx.submit("z", "w-0/x");
      resize(fx, 1, 1);
      List<Effect> crash = fx.crash("w-1");
      assertThat(Fixture.only(crash, Effect.Deploy.class)).isEmpty();
      assertThat(ids(fx)).containsExactly("w-0");
      fx.complete("z");
      assertThat(fx.workerOf("a")).isEqualTo("w-0");
      assertThat(fx.assignment("a").attempt()).isEqualTo(2);
    }

    @Test
    void F6_a_rebalance_to_a_draining_slot_is_refused() {
      Fixture fx = Fixture.pool(2).running();
      fx.submitAll("a", "b");
      resize(fx, 1, 1);
      assertThat(fx.refuse(new PoolEvent.Rebalance("k", "w-1", fx.now())))
          .isEqualTo(new PoolError.WorkerLeaving("w-1"));
      fx.complete("b");
      assertThat(fx.refuse(new PoolEvent.Rebalance("k", "w-1", fx.now())))
          .isEqualTo(new PoolError.UnknownWorker("w-1"));
    }
  }

  @Nested
  class Supervision {

    @Test
    void F6_leaving_is_not_charged_and_a_draining_slot_that_crashes_is_not_restarted() {
      Fixture fx = Fixture.pool(3).budget(0, 10_000).running();
      fx.submitAll("a", "b", "c");
      resize(fx, 1, 1);
      List<Effect> crash = fx.crash("w-2");
      assertThat(Fixture.only(crash, Effect.Deploy.class)).isEmpty();
      assertThat(Fixture.notices(crash, Notice.BudgetExceeded.class)).isEmpty();
      assertThat(Fixture.notices(crash, Notice.RestartDecided.class)).isEmpty();
      assertThat(fx.snapshot().restartsInWindow()).isZero();
      assertThat(fx.counters().restarts()).isZero();
      assertThat(ids(fx)).containsExactly("w-0", "w-1");
      assertThat(fx.assignment("c").attempt()).isEqualTo(1);
      assertThat(fx.open()).contains("c");
    }

    @Test
    void F6_one_for_all_does_not_restart_siblings_when_slots_leave_nor_draining_slots_on_a_crash() {
      Fixture fx = Fixture.pool(3).strategy(Strategy.ONE_FOR_ALL).running();
      fx.submitAll("a", "b", "c");
      List<Effect> shrink = resize(fx, 2, 1);
      assertThat(Fixture.only(shrink, Effect.Stop.class)).isEmpty();
      fx.complete("c");
      assertThat(Fixture.only(fx.log(), Effect.Deploy.class)).isEmpty();
      resize(fx, 1, 1);
      List<Effect> crash = fx.crash("w-0");
      assertThat(Fixture.only(crash, Effect.Deploy.class))
          .containsExactly(new Effect.Deploy("w-0", 2));
      assertThat(fx.slot("w-1").phase()).isEqualTo(Phase.DRAINING);
    }

    @Test
    void F6_a_draining_slot_past_its_job_timeout_is_stopped_and_leaves() {
      Fixture fx = Fixture.pool(2).jobTimeout(50).running();
      fx.submitAll("a", "b");
      resize(fx, 1, 1);
      List<Effect> late = fx.tick(60);
      assertThat(Fixture.only(late, Effect.Stop.class)).contains(
          new Effect.Stop("w-1", 1, Exit.TIMEOUT));
      assertThat(ids(fx)).doesNotContain("w-1");
      assertThat(fx.counters().restarts()).isOne();
    }
  }

  @Nested
  class Again {

    @Test
    void F6_a_resize_during_a_drain_keeps_the_slots_it_wants_again() {
      Fixture fx = Fixture.pool(3).running();
      fx.submitAll("a", "b", "c");
      resize(fx, 1, 1);
      List<Effect> again = resize(fx, 2, 1);
      assertThat(Fixture.only(again, Effect.Deploy.class)).isEmpty();
      assertThat(fx.slot("w-1").phase()).isEqualTo(Phase.ASSIGNED);
      assertThat(fx.slot("w-2").phase()).isEqualTo(Phase.DRAINING);
      fx.submit("d");
      fx.complete("b");
      assertThat(fx.workerOf("d")).isEqualTo("w-1");
      fx.complete("c");
      assertThat(ids(fx)).containsExactly("w-0", "w-1");
    }

    @Test
    void F6_a_slot_that_left_comes_back_with_its_next_incarnation() {
      Fixture fx = Fixture.pool(2).running();
      resize(fx, 1, 1);
      List<Effect> grow = resize(fx, 3, 2);
      assertThat(Fixture.only(grow, Effect.Deploy.class))
          .containsExactly(new Effect.Deploy("w-1", 2), new Effect.Deploy("w-2", 1));
      fx.created("w-1");
      assertThat(fx.slot("w-1").phase()).isEqualTo(Phase.IDLE);
      assertThat(fx.slot("w-1").capacity()).isEqualTo(2);
    }
  }

  @Nested
  class Refusals {

    @Test
    void F6_out_of_range_sizes_name_their_field() {
      for (int[] bad : new int[][] {{-1, 1}, {10_001, 1}, {1, 0}, {1, -3}, {1, 1_000_001}}) {
        try {
          new PoolEvent.Resize(bad[0], bad[1], 0);
          throw new AssertionError("accepted " + bad[0] + "x" + bad[1]);
        } catch (ConfigException e) {
          assertThat(e.field()).isEqualTo(bad[0] < 0 || bad[0] > 10_000 ? "instances"
              : "maxConcurrency");
        }
      }
    }

    @Test
    void F6_the_largest_sizes_are_accepted() {
      PoolEvent.Resize largest =
          new PoolEvent.Resize(PoolSize.MAX_INSTANCES, PoolSize.MAX_CONCURRENCY, 0);
      assertThat(new PoolSize(largest.instances(), largest.maxConcurrency()))
          .isEqualTo(new PoolSize(10_000, 1_000_000));
    }

    @Test
    void F6_zero_slots_only_for_a_pool_that_runs_on_hosts_alone() {
      Fixture fx = Fixture.pool(2).running();
      assertThat(fx.refuse(new PoolEvent.Resize(0, 1, 0)))
          .isInstanceOfSatisfying(PoolError.ResizeRefused.class,
              r -> assertThat(r.field()).isEqualTo("instances"));
      Fixture hosts = Fixture.hostsOnly().started();
      resize(hosts, 2, 1);
      assertThat(ids(hosts)).containsExactly("w-0", "w-1");
      resize(hosts, 0, 1);
      assertThat(ids(hosts)).isEmpty();
      hosts.submit("a");
      assertThat(hosts.open()).contains("a");
    }

    @Test
    void F6_a_resize_while_the_pool_stops_is_refused_and_a_stop_ends_a_drain() {
      Fixture fx = Fixture.pool(2).drain(100).running();
      fx.submitAll("a", "b");
      resize(fx, 1, 1);
      fx.stopRequested();
      assertThat(fx.refuse(new PoolEvent.Resize(3, 1, fx.now())))
          .isEqualTo(new PoolError.ResizeRefused(null, "the pool is DRAINING"));
      fx.complete("b");
      assertThat(ids(fx)).containsExactly("w-0");
      fx.complete("a");
      assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
      assertThat(fx.refuse(new PoolEvent.Resize(3, 1, fx.now())))
          .isInstanceOf(PoolError.ResizeRefused.class);
    }
  }

  @Nested
  class Durable {

    @Test
    void F6_a_new_leader_rebuilds_the_size_and_where_keyed_jobs_go() {
      Fixture fx = Fixture.pool(3).durable().selector(PREFIX_OR_FIRST).running();
      fx.submit("a", "w-2/k");
      fx.submit("b", "w-2/k");
      resize(fx, 2, 2);
      assertThat(fx.records()).contains(new DurableRecord.Resized(2, 2),
          new DurableRecord.Bound("w-2/k", "w-0", false), new DurableRecord.Retargeted("b", "w-0"));
      resize(fx, 4, 2);
      resize(fx, 2, 2);
      assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());
      assertThat(fx.storedImage().size()).isEqualTo(new PoolSize(2, 2));
      Fixture next = fx.takeOver();
      assertThat(next.snapshot().size()).isEqualTo(new PoolSize(2, 2));
      assertThat(ids(next)).containsExactly("w-0", "w-1");
      assertThat(next.slot("w-0").capacity()).isEqualTo(2);
      assertThat(Fixture.only(next.recoveryEffects(), Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-2", 1, Exit.NORMAL));
      next.created("w-0");
      next.created("w-1");
      assertThat(Fixture.placed(next.log())).containsExactly("a@w-0", "b@w-0");
      assertThat(next.pool.binding("w-2/k")).isEqualTo("w-0");
    }

    @Test
    void F6_a_new_leader_adds_the_slots_a_grow_added() {
      Fixture fx = Fixture.pool(1).durable().running();
      resize(fx, 3, 1);
      fx.created("w-2");
      fx.submit("a");
      Fixture next = fx.takeOver();
      assertThat(Fixture.only(next.recoveryEffects(), Effect.Deploy.class))
          .containsExactly(new Effect.Deploy("w-1", 1), new Effect.Deploy("w-2", 1));
      assertThat(ids(next)).containsExactly("w-0", "w-1", "w-2");
    }
  }
}
