package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static dev.shepherd.core.ResizeTest.PREFIX_OR_FIRST;
import static dev.shepherd.core.ResizeTest.resize;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The backlog's fair queues at their edges (F2, F3, F5, F6 in docs/rules.md): a queue that
 * empties is let go, so the group's next job joins its ring at the ring's virtual time and ties
 * go to the queue made first; a group's turn is charged to the queue it starts from; jobs that
 * move keep their backlog order; and the backlog's own checks see a job out of place. Every slot
 * runs one job at a time, so each completion starts the next job the rules pick.
 */
class BacklogEdgesTest {

  /** An override that changes nothing but keeps a group known while it holds no job (F1). */
  private static final GroupSettings KEPT = new GroupSettings(null, null, 1, null, null);

  @Test
  void F2_a_queue_emptied_by_a_start_is_let_go_and_the_groups_next_job_joins_at_the_rings_time() {
    Fixture fx = Fixture.pool(1).running();
    fx.submit("x");
    fx.submitIn("a1", "A", 5);
    assertThat(placed(fx.complete("x"))).containsExactly("a1@w-0");
    fx.submitIn("a2", "A", 5);
    fx.submitIn("b1", "B", 5);
    // A paid for a1 with its old queue; its new one joins at the ring's time, made before B's.
    assertThat(placed(fx.complete("a1"))).containsExactly("a2@w-0");
  }

  @Test
  void F2_a_queue_emptied_by_a_cancel_is_let_go_with_what_it_used() {
    Fixture fx = Fixture.pool(1).running();
    fx.setGroup("A", KEPT);
    fx.setGroup("B", new GroupSettings(null, null, 2, null, null));
    fx.submit("x");
    fx.submitIn("a1", "A", 5);
    fx.submitIn("a2", "A", 5);
    fx.submitIn("b1", "B", 5);
    fx.submitIn("b2", "B", 5);
    assertThat(placed(fx.complete("x"))).containsExactly("a1@w-0");
    assertThat(placed(fx.complete("a1"))).containsExactly("b1@w-0");
    fx.cancel("a2");
    fx.submitIn("a3", "A", 5);
    // B used half a start (weight 2), A's new queue none.
    assertThat(placed(fx.complete("b1"))).containsExactly("a3@w-0");
  }

  @Test
  void F5_F2_a_parked_queue_emptied_while_its_group_is_paused_is_let_go_when_it_resumes() {
    Fixture fx = Fixture.pool(1).running();
    fx.setGroup("A", KEPT);
    fx.submit("x");
    fx.submitIn("a1", "A", 5);
    fx.submit("y");
    fx.pause("A");
    assertThat(placed(fx.complete("x"))).containsExactly("y@w-0");
    fx.cancel("a1");
    fx.resume("A");
    fx.submitIn("b1", "B", 5);
    fx.submitIn("a2", "A", 5);
    // Equal virtual time: B's queue was made before A's new one.
    assertThat(placed(fx.complete("y"))).containsExactly("b1@w-0");
  }

  @Test
  void F2_F3_a_groups_turn_is_charged_to_the_queue_it_starts_from() {
    Fixture fx = Fixture.pool(1).running();
    fx.submit("x");
    fx.submitIn("a1", "A", 0);
    fx.submitIn("b1", "B", 0);
    fx.submitIn("k1", "A", "w-0/k", 9);
    fx.submitIn("a2", "A", 0);
    // A's better job is untargeted: its untargeted queue pays, not its keyed queue.
    assertThat(placed(fx.complete("x"))).containsExactly("a1@w-0");
    // So B's turn comes next, not A's again through its keyed queue.
    assertThat(placed(fx.complete("a1"))).containsExactly("b1@w-0");
    assertThat(placed(fx.complete("b1"))).containsExactly("a2@w-0");
  }

  @Test
  void F6_F2_a_slot_that_comes_back_queues_its_keyed_jobs_in_new_queues() {
    Fixture fx = Fixture.pool(2).selector(PREFIX_OR_FIRST).running();
    fx.submit("x", "w-1/x");
    fx.submit("w", "w-0/w");
    fx.submitIn("a1", "A", "w-1/ka", 5);
    fx.submitIn("b1", "B", "w-1/kb", 5);
    resize(fx, 1, 1);
    fx.complete("x");
    assertThat(fx.pool.slotIds()).containsExactly("w-0");
    resize(fx, 2, 1);
    fx.submitIn("b2", "B", "w-1/kc", 5);
    fx.submitIn("a2", "A", "w-1/kd", 5);
    // The queues of w-1's first life were let go when it left: B's new queue is the older one.
    assertThat(placed(fx.created("w-1"))).containsExactly("b2@w-1");
  }

  @Test
  void F6_A3_the_queued_jobs_of_a_leaving_slot_move_in_backlog_order() {
    Fixture fx = Fixture.pool(2).durable().selector(PREFIX_OR_FIRST).running();
    fx.submit("x", "w-1/k");
    fx.submitIn("a", null, "w-1/k", 5);
    fx.submitIn("b", null, "w-1/k", 0);
    resize(fx, 1, 1);
    assertThat(fx.records().stream().filter(DurableRecord.Retargeted.class::isInstance))
        .containsExactly(new DurableRecord.Retargeted("a", "w-0"),
            new DurableRecord.Retargeted("b", "w-0"), new DurableRecord.Retargeted("x", "w-0"));
  }

  @Test
  void F6_F2_a_moved_job_takes_its_place_by_order_between_the_jobs_already_there() {
    Fixture fx = Fixture.pool(2).selector(PREFIX_OR_FIRST).running();
    fx.submit("x", "w-0/x");
    fx.submit("y", "w-1/y");
    fx.submit("a", "w-0/a");
    fx.submit("b", "w-1/b");
    fx.submit("c", "w-0/c");
    resize(fx, 1, 1);
    assertThat(placed(fx.complete("x"))).containsExactly("a@w-0");
    assertThat(placed(fx.complete("a"))).containsExactly("b@w-0");
    assertThat(placed(fx.complete("b"))).containsExactly("c@w-0");
  }

  @Test
  void F3_F4_at_equal_levels_a_job_back_at_the_front_goes_before_an_aged_one() {
    Fixture fx = Fixture.pool(1).flow(FlowSettings.NONE.withPriorityAgingMs(100)).running();
    fx.submit("x");
    fx.submitIn("old", "A", 5);
    fx.at(50).submitIn("back", "A", 4);
    assertThat(placed(fx.at(60).complete("x"))).containsExactly("back@w-0");
    fx.at(70).rateLimited("back", 30);
    // At 100 both are at level 4 (old lifted once, back not yet): back is first by order.
    assertThat(placed(fx.tick(100))).containsExactly("back@w-0");
  }

  @Test
  void F3_J2_the_backlogs_checks_see_a_job_out_of_its_lane_and_a_queue_left_out() {
    Fixture fx = Fixture.pool(1).running();
    fx.submit("x");
    fx.submit("a", "w-0/k");
    PoolData d = fx.pool.data();
    assertThat(d.backlog.lanesHoldTheirJobs(d.slots)).isTrue();
    assertThat(d.backlog.lanesHoldTheirJobs(List.of())).as("w-0's queue left out").isFalse();
    assertThat(d.backlog.fingerprint()).startsWith("length=1 bytes=0 suspects=0")
        .endsWith("\n  -/w-0 live=1 pass=0 ringed L5[a:QUEUED:1 ]");
    Job a = d.jobs.get("a");
    int lane = a.lane;
    a.lane = GroupQueue.SUSPECTS;
    assertThat(d.backlog.lanesHoldTheirJobs(d.slots)).isFalse();
    a.lane = lane;
    fx.checkInvariants();
  }
}
