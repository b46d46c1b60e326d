package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The invariant checker against broken pools: each test builds a real pool, breaks one invariant
 * the way a faulty transition would (a count off by one, a job in the wrong place, an index left
 * stale) and checks that {@link PoolInvariants} reports exactly that invariant, with the details
 * that locate it. Where earlier invariants would catch the same fault first, the test calls the
 * one check it breaks on its own. A correct pool passes every check: the rule tests run it after
 * every step.
 */
class PoolInvariantsTest {

  private static void assertBroken(ThrowingCallable check, String invariant, String detail) {
    assertThatThrownBy(check).isInstanceOf(AssertionError.class)
        .hasMessage("invariant broken: " + invariant + ": " + detail);
  }

  private static void assertBroken(Fixture fx, String invariant, String detail) {
    assertBroken(fx::checkInvariants, invariant, detail);
  }

  private static void assertHolds(Fixture fx) {
    assertThatCode(fx::checkInvariants).doesNotThrowAnyException();
  }

  private static Job job(Fixture fx, String id) {
    return fx.pool.data().jobs.get(id);
  }

  private static Slot slot(Fixture fx, String id) {
    return fx.pool.data().slotsById.get(id);
  }

  /** Sets a private counter of the core, as a faulty update of it would leave it. */
  private static void poke(Object target, String field, long value) {
    try {
      Field f = target.getClass().getDeclaredField(field);
      f.setAccessible(true);
      if (f.getType() == int.class) {
        f.setInt(target, (int) value);
      } else {
        f.setLong(target, value);
      }
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** One slot of capacity 1 running {@code a}, with {@code b} queued behind it. */
  private static Fixture oneBusySlot() {
    Fixture fx = Fixture.pool(1).running();
    fx.submitAll("a", "b");
    return fx;
  }

  @Nested
  class InFlight {

    @Test
    void C5_a_running_job_must_name_the_slot_that_runs_it() {
      Fixture fx = Fixture.pool(2).running();
      fx.submit("a");
      Job a = job(fx, "a");
      a.slot = slot(fx, "w-1");
      assertBroken(fx, "C5 in-flight equals live assignments", a + " on " + slot(fx, "w-0"));
    }

    @Test
    void C5_a_job_a_slot_runs_is_running_or_cancelled_running() {
      Fixture fx = Fixture.pool(1).capacity(2).running();
      fx.submitAll("a", "b");
      fx.cancel("b");
      assertHolds(fx);
      Job a = job(fx, "a");
      a.place = Job.Place.DONE;
      assertBroken(fx, "C5 in-flight equals live assignments", a + " is not running");
    }

    @Test
    void C5_the_pools_in_flight_count_is_the_sum_of_the_slots() {
      Fixture fx = oneBusySlot();
      fx.pool.data().runningJobs++;
      assertBroken(fx, "C5 in-flight equals live assignments", "slots hold 1, pool counts 2");
    }
  }

  @Nested
  class DispatchIndex {

    @Test
    void P7_the_free_set_holds_exactly_the_slots_with_free_capacity() {
      Fixture fx = Fixture.pool(2).running();
      PoolData d = fx.pool.data();
      d.free.clear(slot(fx, "w-1").index);
      assertBroken(fx, "dispatch index is current", slot(fx, "w-1").toString());
    }

    @Test
    void P7_the_targeted_set_holds_exactly_the_free_slots_with_targeted_work() {
      Fixture fx = Fixture.pool(2).running();
      PoolData d = fx.pool.data();
      d.freeWithTargeted.set(slot(fx, "w-1").index);
      assertBroken(fx, "dispatch index is current", slot(fx, "w-1").toString());
    }

    @Test
    void P7_the_pool_counts_its_slots_that_are_not_retired() {
      Fixture fx = Fixture.pool(3).started();
      fx.created("w-0");
      fx.creationFailed("w-1");
      fx.created("w-2");
      fx.pool.data().notRetired++;
      assertBroken(fx, "dispatch index is current", "counted 2 live slots, pool says 3");
    }
  }

  @Nested
  class OnePlace {
    private static final String INVARIANT = "every accepted job is in exactly one place";

    @Test
    void P15_a_job_in_the_backlog_is_queued() {
      Fixture fx = oneBusySlot();
      PoolData d = fx.pool.data();
      Job a = job(fx, "a");
      assertBroken(() -> PoolInvariants.everyAcceptedJobIsInExactlyOnePlace(d, List.of(a),
          List.of()), INVARIANT, a.toString());
    }

    @Test
    void P15_a_job_is_queued_once() {
      Fixture fx = oneBusySlot();
      PoolData d = fx.pool.data();
      Job b = job(fx, "b");
      assertBroken(() -> PoolInvariants.everyAcceptedJobIsInExactlyOnePlace(d, List.of(b, b),
          List.of()), INVARIANT, b + " queued twice");
    }

    @Test
    void P15_the_backlog_counts_the_jobs_it_holds() {
      Fixture fx = oneBusySlot();
      fx.submit("c");
      PoolData d = fx.pool.data();
      List<Job> ready = List.of(job(fx, "b"));
      assertBroken(() -> PoolInvariants.everyAcceptedJobIsInExactlyOnePlace(d, ready, List.of()),
          INVARIANT, "backlog counts 2, holds 1");
    }

    @Test
    void F3_a_queued_job_is_in_the_lane_it_belongs_in() {
      Fixture fx = oneBusySlot();
      job(fx, "b").lane++;
      assertBroken(fx, INVARIANT,
          "a queued job is in the wrong lane: " + fx.pool.data().backlog.fingerprint());
    }

    @Test
    void J4_a_waiting_job_waits_once_and_as_waiting() {
      Fixture fx = Fixture.pool(1).jobs(JobSettings.DEFAULT).running();
      fx.submitAll("a", "b");
      fx.submitDelayed("w", 1_000);
      PoolData d = fx.pool.data();
      Job b = job(fx, "b");
      Job w = job(fx, "w");
      assertBroken(() -> PoolInvariants.everyAcceptedJobIsInExactlyOnePlace(d, List.of(b),
          List.of(w, w)), INVARIANT, w + " waits twice or as WAITING");
      assertBroken(() -> PoolInvariants.everyAcceptedJobIsInExactlyOnePlace(d, List.of(b),
          List.of(b)), INVARIANT, b + " waits twice or as QUEUED");
    }

    @Test
    void P17_a_running_job_runs_on_one_slot() {
      Fixture fx = Fixture.pool(2).running();
      fx.submit("a");
      PoolData d = fx.pool.data();
      Job a = job(fx, "a");
      slot(fx, "w-1").running.add(a);
      assertBroken(() -> PoolInvariants.everyAcceptedJobIsInExactlyOnePlace(d, List.of(),
          List.of()), INVARIANT, a + " both queued and running");
    }

    @Test
    void P15_every_unanswered_job_is_held_somewhere() {
      Fixture fx = oneBusySlot();
      PoolData d = fx.pool.data();
      d.jobs.remove(job(fx, "a"));
      assertBroken(fx, INVARIANT, "1 unanswered, 1 queued, 1 running");
    }

    @Test
    void P15_the_unanswered_jobs_are_the_held_ones() {
      Fixture fx = oneBusySlot();
      PoolData d = fx.pool.data();
      Job b = job(fx, "b");
      Job ghost = new Job("ghost", 0, "p", "r", null, 0, 0, null, null, b.group, 0, 0);
      d.jobs.remove(b);
      d.jobs.add(ghost);
      assertBroken(fx, INVARIANT, ghost + " is neither queued nor running");
    }
  }

  @Nested
  class WorkConserving {

    private GroupQueue defaultQueue(Fixture fx) {
      return fx.pool.data().groups.all().get(0).any;
    }

    /** A slot whose capacity grew without a dispatch: it is free, and {@code b} waits. */
    private Fixture grownWithoutDispatch() {
      Fixture fx = oneBusySlot();
      Slot w0 = slot(fx, "w-0");
      w0.capacity = 2;
      fx.pool.data().free.set(w0.index);
      return fx;
    }

    @Test
    void C3_no_free_slot_stays_idle_while_a_runnable_job_waits() {
      Fixture fx = grownWithoutDispatch();
      assertBroken(fx, "C3 work-conserving",
          slot(fx, "w-0") + " is free while runnable jobs wait: " + defaultQueue(fx).describe());
    }

    @Test
    void C3_no_free_slot_stays_idle_while_a_runnable_job_targeted_at_it_waits() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("a", "w-0/k");
      fx.submit("b", "w-0/k");
      Slot w0 = slot(fx, "w-0");
      w0.capacity = 2;
      fx.pool.data().free.set(w0.index);
      fx.pool.data().freeWithTargeted.set(w0.index);
      GroupQueue targeted = w0.queues.iterator().next();
      assertBroken(fx, "C3 work-conserving",
          w0 + " is free while runnable jobs wait: " + targeted.describe());
    }

    @Test
    void C3_a_runnable_queue_is_in_its_ring() {
      Fixture fx = grownWithoutDispatch();
      GroupQueue queue = defaultQueue(fx);
      queue.parked = true;
      assertBroken(fx, "C3 work-conserving",
          "runnable " + queue.describe() + " is out of its ring");
      queue.parked = false;
      queue.ring = null;
      assertBroken(fx, "C3 work-conserving",
          "runnable " + queue.describe() + " is out of its ring");
    }

    @Test
    void C3_J2_a_free_slot_waits_only_to_be_idle_for_a_runnable_suspect() {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 2), new SlotSpec("w-1", 2))
          .jobs(PoisonTest.AT_ONCE).running();
      fx.submitAll("a", "b", "c", "d");
      fx.crash("w-0");
      fx.complete("c");
      assertHolds(fx);
      PoolData d = fx.pool.data();
      Slot w1 = slot(fx, "w-1");
      w1.running.clear();
      assertBroken(() -> PoolInvariants.workConserving(d), "C3 work-conserving",
          w1 + " is free while runnable jobs wait: " + defaultQueue(fx).describe());
    }

    @Test
    void C3_a_paused_or_stopping_pool_is_not_held_to_it() {
      Fixture fx = grownWithoutDispatch();
      PoolData d = fx.pool.data();
      d.groups.poolPausedSince = 0L;
      assertThatCode(() -> PoolInvariants.workConserving(d)).doesNotThrowAnyException();
      d.groups.poolPausedSince = null;
      d.state = PoolState.DRAINING;
      assertThatCode(() -> PoolInvariants.workConserving(d)).doesNotThrowAnyException();
    }
  }

  @Nested
  class GroupCounts {

    @Test
    void F1_a_queued_job_is_counted_as_held_by_its_group() {
      Fixture fx = oneBusySlot();
      Job b = job(fx, "b");
      b.inBound = false;
      assertBroken(fx, "F1 groups count their jobs", b + " is not counted as held");
    }

    @Test
    void F1_a_group_counts_its_running_and_its_held_jobs() {
      Fixture fx = oneBusySlot();
      FlowGroup group = job(fx, "a").group;
      group.running++;
      assertBroken(fx, "F1 groups count their jobs", group + " holds 1 and runs 1");
      group.running--;
      group.held++;
      assertBroken(fx, "F1 groups count their jobs", group + " holds 1 and runs 1");
    }

    @Test
    void F1_a_group_with_nothing_to_keep_is_forgotten() {
      Fixture fx = Fixture.pool(1).running();
      fx.pause("g");
      FlowGroup g = fx.pool.data().groups.all().get(1);
      g.pausedSince = null;
      assertBroken(fx, "F1 idle groups are forgotten", g + " is kept with nothing to keep");
    }

    @Test
    void F1_every_held_job_is_of_a_group_the_pool_knows() {
      Fixture fx = oneBusySlot();
      PoolData d = fx.pool.data();
      FlowGroup unknown = new FlowGroup("gone", null);
      Job ghost = new Job("ghost", 0, "p", "r", null, 0, 0, null, null, unknown, 0, 0);
      ghost.inBound = true;
      List<Job> queued = new ArrayList<>(d.backlog.inOrder(d.slots));
      queued.add(ghost);
      assertBroken(() -> PoolInvariants.groupsCountTheirJobs(d, queued),
          "F1 groups count their jobs", "jobs of unknown groups: [" + unknown + "]");
    }
  }

  @Nested
  class Suspects {

    @Test
    void J2_a_slot_counts_the_suspects_it_runs() {
      Fixture fx = oneBusySlot();
      Slot w0 = slot(fx, "w-0");
      w0.suspectsRunning = 1;
      assertBroken(fx, "J2 suspects run alone", w0 + " counts 1 suspects, runs 0");
    }

    @Test
    void J2_a_suspect_runs_alone() {
      Fixture fx = Fixture.pool(1).capacity(2).running();
      fx.submitAll("a", "b");
      Slot w0 = slot(fx, "w-0");
      job(fx, "a").fate().stops = 1;
      w0.suspectsRunning = 1;
      assertBroken(fx, "J2 suspects run alone", w0 + " runs a suspect beside other jobs");
    }
  }

  @Nested
  class Futures {

    @Test
    void P10_no_queued_job_waits_for_a_retired_slot() {
      Fixture fx = Fixture.pool(2).running();
      fx.submit("a", "w-1/k");
      fx.submit("b", "w-1/k");
      Slot w1 = slot(fx, "w-1");
      w1.life = Slot.Life.RETIRED;
      fx.pool.data().notRetired--;
      // The job as the checker describes it: place, backlog order, attempts and what it waits for.
      assertBroken(fx, "P10 no job waits for a retired slot",
          "b[QUEUED order=1 attempts=0 target=w-1]");
    }

    @Test
    void P16_a_stopping_pool_queues_nothing() {
      Fixture fx = oneBusySlot();
      fx.pool.data().state = PoolState.DRAINING;
      assertBroken(fx, "P11/P16 nothing queued without a future",
          "1 queued while DRAINING with 1 live slots");
    }

    @Test
    void P11_a_pool_without_a_live_slot_queues_nothing() {
      Fixture fx = oneBusySlot();
      slot(fx, "w-0").life = Slot.Life.RETIRED;
      fx.pool.data().notRetired = 0;
      assertBroken(fx, "P11/P16 nothing queued without a future",
          "1 queued while RUNNING with 0 live slots");
    }
  }

  @Nested
  class Bytes {

    @Test
    void P3_the_backlog_counts_the_bytes_of_its_jobs() {
      Fixture fx = Fixture.pool(1).running();
      fx.submitBytes("a", null, 5);
      fx.submitBytes("b", null, 7);
      poke(fx.pool.data().backlog, "bytes", 8);
      assertBroken(fx, "backlog bytes add up", "queued jobs hold 7 bytes, backlog counts 8");
    }

    @Test
    void J4_the_waiting_jobs_are_counted_with_their_bytes() {
      Fixture fx = Fixture.pool(1).jobs(JobSettings.DEFAULT).running();
      fx.apply(new PoolEvent.Submit("w", "p", null, "r", 0, 9, 1_000, null, 0));
      Waiting waiting = fx.pool.data().waiting;
      poke(waiting, "bytes", 10);
      assertBroken(fx, "backlog bytes add up",
          "waiting jobs hold 9 bytes, 1 jobs; counted 10, 1");
      poke(waiting, "bytes", 9);
      poke(waiting, "live", 2);
      assertBroken(fx, "backlog bytes add up",
          "waiting jobs hold 9 bytes, 1 jobs; counted 9, 2");
    }
  }

  @Nested
  class KeyBindings {
    private static final String INVARIANT = "bindings count their jobs";

    private Bindings.Binding binding(Fixture fx, String key) {
      return fx.pool.data().bindings.sorted().get(key);
    }

    @Test
    void P4_a_binding_counts_the_held_jobs_of_its_key() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("a", "w-0/k");
      binding(fx, "w-0/k").jobs = 2;
      assertBroken(fx, INVARIANT, "key w-0/k has 1 held jobs, binding counts 2");
    }

    @Test
    void P4_a_binding_of_a_key_without_jobs_counts_none() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("a", "w-0/k");
      fx.complete("a");
      binding(fx, "w-0/k").jobs = 1;
      assertBroken(fx, INVARIANT, "binding w-0/k counts 1 jobs");
    }

    @Test
    void P4_exactly_the_bindings_without_jobs_are_idle() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("a", "w-0/idle");
      fx.complete("a");
      fx.submit("b", "w-0/busy");
      Bindings.Binding idle = binding(fx, "w-0/idle");
      Bindings.IdleList list = idle.list;
      idle.list = null;
      assertBroken(fx, INVARIANT, "binding w-0/idle with 0 jobs is not idle");
      idle.list = list;
      binding(fx, "w-0/busy").list = list;
      assertBroken(fx, INVARIANT, "binding w-0/busy with 1 jobs is idle");
    }
  }

  @Nested
  class KeptSets {
    private final Retention two = new Retention(2, 100);

    private Fixture keeping() {
      return Fixture.pool(1).jobs(JobSettings.DEFAULT.withDeadLetter(two, true)
          .withRecentOutcomes(two)).running();
    }

    private DeadLetter dead(String job, long bytes) {
      return new DeadLetter(job, null, "p", bytes, 0, List.of(), new Outcome.Cancelled(job), 0);
    }

    private RecentOutcome recent(String job, long bytes) {
      return new RecentOutcome(job, new Outcome.Cancelled(job), 0, bytes);
    }

    @Test
    void J5_the_dead_letter_set_holds_at_most_its_capacity() {
      Fixture fx = keeping();
      DeadLetters set = fx.pool.data().dead;
      set.restore(dead("x", 10));
      set.restore(dead("y", 10));
      assertHolds(fx);
      set.restore(dead("z", 10));
      assertBroken(fx, "J5 the dead-letter set is bounded",
          "3 entries of " + two + ", 30 bytes, 30 counted");
    }

    @Test
    void J5_the_dead_letter_set_counts_the_bytes_of_its_entries() {
      Fixture fx = keeping();
      DeadLetters set = fx.pool.data().dead;
      set.restore(dead("x", 100));
      assertHolds(fx);
      // A second restore of one id replaces the entry but adds its bytes: the count drifts.
      set.restore(dead("x", 1));
      assertBroken(fx, "J5 the dead-letter set is bounded",
          "1 entries of " + two + ", 1 bytes, 101 counted");
    }

    @Test
    void J5_the_dead_letter_set_holds_at_most_its_bytes() {
      Fixture fx = keeping();
      fx.pool.data().dead.restore(dead("x", 101));
      assertBroken(fx, "J5 the dead-letter set is bounded",
          "1 entries of " + two + ", 101 bytes, 101 counted");
    }

    @Test
    void J6_the_recent_outcomes_hold_at_most_their_capacity() {
      Fixture fx = keeping();
      RecentOutcomes ring = fx.pool.data().recent;
      ring.restore(recent("x", 10));
      ring.restore(recent("y", 10));
      assertHolds(fx);
      ring.restore(recent("z", 10));
      assertBroken(fx, "J6 the recent outcomes are bounded",
          "3 entries of " + two + ", 30 bytes, 30 counted");
    }

    @Test
    void J6_the_recent_outcomes_count_their_bytes_and_hold_at_most_their_bytes() {
      Fixture fx = keeping();
      RecentOutcomes ring = fx.pool.data().recent;
      ring.restore(recent("x", 100));
      assertHolds(fx);
      poke(ring, "bytes", 99);
      assertBroken(fx, "J6 the recent outcomes are bounded",
          "1 entries of " + two + ", 100 bytes, 99 counted");
      poke(ring, "bytes", 100);
      ring.restore(recent("y", 1));
      assertBroken(fx, "J6 the recent outcomes are bounded",
          "2 entries of " + two + ", 101 bytes, 101 counted");
    }
  }

  @Nested
  class Checkpoints {
    private static final String INVARIANT = "T2 checkpoints are bounded";

    /** {@code a} running with a checkpoint "cp" of 10 bytes reported at t=5, now 7. */
    private Fixture reported() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("a");
      fx.at(5).progress("a", "cp");
      fx.at(7).apply(new PoolEvent.Cancel("nobody", 7));
      return fx;
    }

    private void assertReported(Fixture fx, Object checkpoint, long bytes, long at) {
      assertBroken(fx, INVARIANT, job(fx, "a") + " holds checkpoint " + checkpoint + " of "
          + bytes + " bytes, reported at " + at + " (now 7)");
    }

    @Test
    void T2_a_checkpoint_costs_between_zero_and_its_limit() {
      Fixture fx = reported();
      Job.Fate fate = job(fx, "a").fate;
      fate.checkpointBytes = JobProgress.MAX_BYTES;
      assertHolds(fx);
      fate.checkpointBytes = JobProgress.MAX_BYTES + 1;
      assertReported(fx, "cp", JobProgress.MAX_BYTES + 1, 5);
      fate.checkpointBytes = 0;
      assertHolds(fx);
      fate.checkpointBytes = -1;
      assertReported(fx, "cp", -1, 5);
    }

    @Test
    void T2_a_job_without_a_checkpoint_counts_no_bytes_and_no_report() {
      Fixture fx = reported();
      Job.Fate fate = job(fx, "a").fate;
      fate.checkpoint = null;
      assertReported(fx, null, 10, 5);
      fate.checkpointBytes = 0;
      assertReported(fx, null, 0, 5);
      fate.progressAt = 0;
      assertHolds(fx);
    }

    @Test
    void T2_a_checkpoint_is_reported_no_later_than_now() {
      Fixture fx = reported();
      Job.Fate fate = job(fx, "a").fate;
      fate.progressAt = 7;
      assertHolds(fx);
      fate.progressAt = 8;
      assertReported(fx, "cp", 10, 8);
    }
  }
}
