package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Jobs that wait before they run again (J3) or before they run at all (J4): in the bound, never
 * early, cancellable, visible with their due time, journaled.
 */
class RetryDelayTest {

  /** Suspects wait 100 ms, then 200 ms, … (no jitter); poison after 3 stops. */
  static final JobSettings WAITING = JobSettings.DEFAULT
      .withRetryBackoff(new Backoff(100, 2.0, 1_000, 0.0)).withPoisonAfter(3);

  @Nested
  class SuspectDelays {

    @Test
    void J3_a_suspect_waits_its_retry_backoff_then_goes_first_in_line() {
      Fixture fx = Fixture.pool(1).jobs(WAITING).running();
      fx.submit("bad");
      fx.at(10).crash("w-0");
      fx.created("w-0");
      fx.submit("next");
      assertThat(fx.workerOf("next")).as("the slot does not idle while the suspect waits")
          .isEqualTo("w-0");
      JobView view = fx.lookup("bad");
      assertThat(view.state()).isEqualTo(JobView.JobState.WAITING);
      assertThat(view.dueAt()).isEqualTo(110);
      assertThat(fx.snapshot().backlogWaiting()).isEqualTo(1);
      assertThat(fx.snapshot().nextDue()).isEqualTo(110);
      fx.submit("later");
      assertThat(placed(fx.tick(109))).isEmpty();
      assertThat(fx.lookup("bad").state()).isEqualTo(JobView.JobState.WAITING);
      fx.tick(110);
      assertThat(placed(fx.complete("next"))).as("due, it runs before 'later'")
          .containsExactly("bad@w-0");
    }

    @Test
    void J3_the_delay_grows_with_each_stop_of_the_suspect() {
      Fixture fx = Fixture.pool(1).jobs(WAITING).running();
      fx.submit("bad");
      fx.crash("w-0");
      fx.created("w-0");
      assertThat(fx.lookup("bad").dueAt()).isEqualTo(100);
      fx.tick(100);
      fx.crash("w-0");
      fx.created("w-0");
      assertThat(fx.lookup("bad").dueAt()).isEqualTo(300);
    }

    @Test
    void J3_jitter_comes_from_the_seeded_source_so_a_run_replays_exactly() {
      JobSettings jittered = WAITING.withRetryBackoff(new Backoff(1_000, 2.0, 60_000, 0.5));
      List<Long> first = dues(jittered);
      assertThat(dues(jittered)).isEqualTo(first);
      assertThat(first).allSatisfy(due -> assertThat(due).isBetween(500L, 1_500L));
      assertThat(first).doesNotHaveDuplicates();
    }

    private List<Long> dues(JobSettings jobs) {
      Fixture fx = Fixture.pool(new SlotSpec("w-0", 3)).jobs(jobs).running();
      fx.submitAll("a", "b", "c");
      fx.crash("w-0");
      return List.of(fx.lookup("a").dueAt(), fx.lookup("b").dueAt(), fx.lookup("c").dueAt());
    }

    @Test
    void J3_a_job_interrupted_through_no_fault_of_its_own_does_not_wait() {
      Fixture fx = Fixture.pool(2).strategy(Strategy.ONE_FOR_ALL).jobs(WAITING).running();
      fx.submitAll("a", "b");
      fx.crash("w-0");
      assertThat(fx.lookup("a").state()).isEqualTo(JobView.JobState.WAITING);
      assertThat(fx.lookup("b").state()).as("its sibling's crash is not b's fault")
          .isEqualTo(JobView.JobState.QUEUED);
    }
  }

  @Nested
  class FailureRetries {

    @Test
    void J3_failures_are_retried_only_when_asked() {
      Fixture fx = Fixture.pool(1).jobs(WAITING).running();
      fx.submit("a");
      List<Effect> failed = fx.failJob("a", new JobError(500, "no"));
      assertThat(Fixture.outcomes(failed)).singleElement().isInstanceOf(Outcome.Failed.class);
    }

    @Test
    void J3_a_retried_failure_is_not_answered_and_the_last_is_answered_failed_with_attempts() {
      Fixture fx = Fixture.pool(1).jobs(WAITING.withRetryFailures(
          new FailureRetry(3, new Backoff(50, 2.0, 1_000, 0.0)))).running();
      fx.submit("a");
      assertThat(Fixture.outcomes(fx.failJob("a", new JobError(500, "one")))).isEmpty();
      assertThat(fx.lookup("a").dueAt()).isEqualTo(50);
      fx.tick(50);
      assertThat(Fixture.outcomes(fx.failJob("a", new JobError(500, "two")))).isEmpty();
      assertThat(fx.lookup("a").dueAt()).isEqualTo(150);
      fx.tick(150);
      JobError last = new JobError(500, "three", "java.io.IOException");
      assertThat(Fixture.outcomes(fx.failJob("a", last)))
          .containsExactly(new Outcome.Failed("a", last, "w-0", 3));
      assertThat(fx.pool.deadLetter("a").attempts()).extracting(Attempt::detail)
          .containsExactly("one", "two", "three");
      assertThat(fx.counters().restarts()).isZero();
    }

    @Test
    void J3_a_submit_may_ask_for_its_own_failure_retries() {
      Fixture fx = Fixture.pool(1).jobs(WAITING).running();
      fx.submitRetrying("a", new FailureRetry(2, Backoff.NONE));
      List<Effect> first = fx.failJob("a", new JobError(500, "one"));
      assertThat(Fixture.outcomes(first)).isEmpty();
      assertThat(placed(first)).as("no backoff: again at once").containsExactly("a@w-0");
      assertThat(Fixture.outcomes(fx.failJob("a", new JobError(500, "two"))))
          .singleElement().isInstanceOf(Outcome.Failed.class);
    }
  }

  @Nested
  class Waiting {

    @Test
    void J3_a_waiting_job_keeps_its_place_in_the_bound() {
      Fixture fx = Fixture.pool(1).jobs(WAITING).backlog(1).running();
      fx.submit("bad");
      fx.crash("w-0");
      fx.created("w-0");
      fx.submit("busy");
      Outcome.Rejected rejected = Fixture.rejection(fx.submit("more"));
      assertThat(rejected.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
      assertThat(fx.snapshot().backlogLength()).isEqualTo(1);
    }

    @Test
    void J3_a_waiting_job_can_be_cancelled() {
      Fixture fx = Fixture.pool(1).jobs(WAITING).running();
      fx.submit("bad");
      fx.crash("w-0");
      fx.created("w-0");
      assertThat(Fixture.outcomes(fx.cancel("bad"))).containsExactly(new Outcome.Cancelled("bad"));
      assertThat(fx.snapshot().backlogWaiting()).isZero();
      assertThat(placed(fx.tick(1_000))).isEmpty();
    }

    @Test
    void J3_waiting_jobs_are_journaled_with_their_due_time_and_wait_on_after_a_takeover() {
      Fixture fx = Fixture.pool(1).jobs(WAITING).durable().running();
      fx.submit("bad");
      fx.at(5).crash("w-0");
      fx.submitDelayed("later", 400);
      Fixture next = fx.takeOver();
      assertThat(next.lookup("bad").dueAt()).isEqualTo(105);
      assertThat(next.lookup("later").dueAt()).isEqualTo(405);
      next.created("w-0");
      assertThat(placed(next.tick(104))).isEmpty();
      assertThat(placed(next.tick(105))).containsExactly("bad@w-0");
      next.complete("bad");
      assertThat(placed(next.tick(405))).containsExactly("later@w-0");
    }
  }

  @Nested
  class DelayedSubmits {

    @Test
    void J4_a_delayed_job_is_accepted_now_and_dispatched_no_earlier_than_its_delay() {
      Fixture fx = Fixture.pool(1).jobs(WAITING).running();
      List<Effect> submitted = fx.at(10).submitDelayed("a", 500);
      assertThat(Fixture.outcomes(submitted)).containsExactly(new Outcome.Accepted("a"));
      assertThat(placed(submitted)).as("the slot is idle, the job waits").isEmpty();
      assertThat(fx.lookup("a").dueAt()).isEqualTo(510);
      assertThat(placed(fx.tick(509))).isEmpty();
      assertThat(placed(fx.tick(510))).containsExactly("a@w-0");
    }

    @Test
    void J4_a_delayed_job_needs_room_in_the_bound_even_when_workers_are_free() {
      Fixture fx = Fixture.pool(1).jobs(WAITING).backlog(0).running();
      Outcome.Rejected rejected = Fixture.rejection(fx.submitDelayed("a", 500));
      assertThat(rejected.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
    }

    @Test
    void J4_a_delayed_job_goes_to_the_back_when_it_is_due() {
      Fixture fx = Fixture.pool(1).jobs(WAITING).running();
      fx.submitDelayed("delayed", 100);
      fx.submit("running");
      fx.submit("queued");
      fx.tick(100);
      List<String> order = new java.util.ArrayList<>(placed(fx.complete("running")));
      order.addAll(placed(fx.complete("queued")));
      assertThat(order).containsExactly("queued@w-0", "delayed@w-0");
    }

    @Test
    void J4_a_delay_is_held_at_most_maxDelayMs() {
      Fixture fx = Fixture.pool(1).jobs(WAITING.withMaxDelayMs(1_000)).running();
      fx.submitDelayed("a", 5_000);
      assertThat(fx.lookup("a").dueAt()).isEqualTo(1_000);
    }
  }
}
