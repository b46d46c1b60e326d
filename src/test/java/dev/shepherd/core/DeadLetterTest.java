package dev.shepherd.core;

import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The dead-letter set (J5) and the lookup of jobs and their recent outcomes (J6). */
class DeadLetterTest {

  static final JobSettings RULES = PoisonTest.AT_ONCE;

  /** Poisons {@code job} on a one-slot pool (two crashes) and leaves the slot IDLE. */
  static void poison(Fixture fx, String job) {
    fx.submit(job);
    fx.crash("w-0");
    fx.created("w-0");
    fx.crash("w-0");
    fx.created("w-0");
    assertThat(fx.interruptionOf(job)).isInstanceOf(Interruption.Poison.class);
  }

  @Nested
  class Kept {

    @Test
    void J5_poison_exhausted_and_last_failures_are_kept_with_their_attempts_and_answer() {
      Fixture fx = Fixture.pool(1).jobs(RULES).retry(1).running();
      fx.submit("crashes");
      fx.stopped("w-0", Exit.NORMAL);
      fx.created("w-0");
      fx.submit("fails");
      fx.failJob("fails", new JobError(422, "bad input", "java.lang.IllegalArgumentException"));
      DeadLetter exhausted = fx.pool.deadLetter("crashes");
      assertThat(exhausted.reason()).isEqualTo("ATTEMPTS_EXHAUSTED");
      assertThat(exhausted.payload()).isEqualTo(Fixture.payload("crashes"));
      assertThat(exhausted.attempts()).containsExactly(
          new Attempt(1, "w-0", 1, 0, 0, "NORMAL", "cause"));
      DeadLetter failed = fx.pool.deadLetter("fails");
      assertThat(failed.reason()).isEqualTo("FAILED");
      assertThat(failed.answer()).isEqualTo(fx.terminal("fails"));
      assertThat(fx.pool.deadLetters(0, 10)).extracting(DeadLetter::job)
          .as("newest first").containsExactly("fails", "crashes");
      assertThat(fx.snapshot().deadLetters()).isEqualTo(2);
    }

    @Test
    void J5_failed_jobs_are_not_kept_when_that_is_turned_off() {
      Fixture fx = Fixture.pool(1)
          .jobs(RULES.withDeadLetter(RULES.deadLetter(), false)).running();
      fx.submit("fails");
      fx.failJob("fails", new JobError(500, "no"));
      assertThat(fx.pool.deadLetterCount()).isZero();
    }

    @Test
    void J5_the_set_is_bounded_by_count_and_bytes_and_evicts_the_oldest() {
      Fixture fx = Fixture.pool(1).jobs(RULES.withDeadLetter(new Retention(2, 10), true))
          .running();
      for (String job : List.of("a", "b", "c")) {
        fx.submitBytes(job, null, 4);
        fx.failJob(job, new JobError(500, "no"));
      }
      assertThat(fx.pool.deadLetters(0, 10)).extracting(DeadLetter::job).containsExactly("c", "b");
      fx.submitBytes("big", null, 9);
      List<Effect> effects = fx.failJob("big", new JobError(500, "no"));
      assertThat(Fixture.notices(effects, Notice.DeadLetterRemoved.class))
          .extracting(Notice.DeadLetterRemoved::job).containsExactly("b", "c");
      assertThat(fx.pool.deadLetters(0, 10)).extracting(DeadLetter::job).containsExactly("big");
      assertThat(fx.counters().deadLetterEvicted()).isEqualTo(3);
    }

    @Test
    void J5_a_job_kept_again_replaces_its_earlier_entry_as_the_newest() {
      Fixture fx = Fixture.pool(1).jobs(RULES.withDeadLetter(new Retention(3, 10), true))
          .running();
      for (String job : List.of("x", "y", "x")) {
        fx.submitBytes(job, null, 4);
        fx.failJob(job, new JobError(500, "no"));
      }
      assertThat(fx.pool.deadLetters(0, 10)).extracting(DeadLetter::job).containsExactly("x", "y");
      assertThat(fx.counters().deadLetterEvicted()).as("8 of 10 bytes: x counted once").isZero();
    }

    @Test
    void J5_the_list_is_paged_newest_first() {
      Fixture fx = Fixture.pool(1).jobs(RULES).running();
      for (String job : List.of("a", "b", "c", "d")) {
        fx.submit(job);
        fx.failJob(job, new JobError(500, "no"));
      }
      assertThat(fx.pool.deadLetters(1, 2)).extracting(DeadLetter::job).containsExactly("c", "b");
      assertThat(fx.pool.deadLetters(4, 2)).isEmpty();
    }
  }

  @Nested
  class Operators {

    @Test
    void J5_a_replay_submits_the_payload_again_and_leaves_the_set_once_accepted() {
      Fixture fx = Fixture.pool(1).jobs(RULES).running();
      poison(fx, "bad");
      List<Effect> replayed = fx.replay("bad");
      assertThat(Fixture.outcomes(replayed)).startsWith(new Outcome.Accepted("bad"));
      assertThat(placed(replayed)).containsExactly("bad@w-0");
      assertThat(fx.assignment("bad").attempt()).as("a new submission").isEqualTo(1);
      assertThat(Fixture.notices(replayed, Notice.DeadLetterRemoved.class)).containsExactly(
          new Notice.DeadLetterRemoved("bad", Notice.DeadLetterRemoval.REPLAYED, 0));
      assertThat(fx.lookup("bad").state()).isEqualTo(JobView.JobState.RUNNING);
    }

    @Test
    void J5_a_replay_keeps_the_group_priority_and_failure_retry_the_job_was_submitted_with() {
      Fixture fx = Fixture.pool(1).jobs(RULES).retry(3).running();
      FailureRetry once = new FailureRetry(1, Backoff.NONE);
      fx.apply(new PoolEvent.Submit("tenant-job", Fixture.payload("tenant-job"), null,
          Fixture.reply("tenant-job"), 0, 0, 0, once, "tenant-a", 2, fx.now()));
      fx.failJob("tenant-job", new JobError(500, "no"));
      DeadLetter kept = fx.pool.deadLetter("tenant-job");
      assertThat(kept.group()).isEqualTo("tenant-a");
      assertThat(kept.priority()).isEqualTo(2);
      assertThat(kept.retry()).isEqualTo(once);

      fx.replay("tenant-job");
      assertThat(fx.group("tenant-a").running()).as("F1: replayed into its group").isEqualTo(1);
      fx.failJob("tenant-job", new JobError(500, "again"));
      assertThat(fx.pool.deadLetter("tenant-job"))
          .as("J3: its own single attempt, not the pool's three").isNotNull()
          .extracting(DeadLetter::group, DeadLetter::priority, DeadLetter::retry)
          .containsExactly("tenant-a", 2, once);
    }

    @Test
    void J5_a_replay_the_backlog_cannot_hold_is_rejected_and_stays_in_the_set() {
      Fixture fx = Fixture.pool(1).jobs(RULES).backlog(0).running();
      poison(fx, "bad");
      fx.submit("busy");
      Outcome.Rejected rejected = Fixture.rejection(fx.replay("bad"));
      assertThat(rejected.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
      assertThat(fx.pool.deadLetter("bad")).isNotNull();
    }

    @Test
    void J5_discard_removes_a_dead_letter_and_unknown_ids_are_refused() {
      Fixture fx = Fixture.pool(1).jobs(RULES).running();
      poison(fx, "bad");
      assertThat(Fixture.notices(fx.discard("bad"), Notice.DeadLetterRemoved.class))
          .extracting(Notice.DeadLetterRemoved::why)
          .containsExactly(Notice.DeadLetterRemoval.DISCARDED);
      PoolError error = fx.refuse(new PoolEvent.DiscardDead("bad", 0));
      assertThat(error).isEqualTo(new PoolError.UnknownJob("bad", "in the dead-letter set"));
      assertThat(error.name()).isEqualTo("UNKNOWN_JOB");
      assertThat(fx.refuse(new PoolEvent.ReplayDead("nope", "r", 0)).name())
          .isEqualTo("UNKNOWN_JOB");
    }

    @Test
    void J5_a_highly_available_pool_keeps_the_set_across_a_takeover() {
      Fixture fx = Fixture.pool(1).jobs(RULES).durable().running();
      poison(fx, "bad");
      fx.submit("ok");
      fx.complete("ok");
      Fixture next = fx.takeOver();
      assertThat(next.pool.deadLetter("bad")).isEqualTo(fx.pool.deadLetter("bad"));
      assertThat(next.lookup("ok").state()).isEqualTo(JobView.JobState.ANSWERED);
      next.created("w-0");
      assertThat(placed(next.replay("bad"))).containsExactly("bad@w-0");
    }

    @Test
    void J5_a_pool_recovered_under_a_smaller_set_evicts_its_oldest_and_counts_them() {
      Fixture fx = Fixture.pool(1).jobs(RULES).durable().running();
      for (String job : List.of("a", "b", "c")) {
        poison(fx, job);
      }
      Fixture next = fx.takeOverAs(s -> s.withJobs(
          s.jobs().withDeadLetter(new Retention(1, Long.MAX_VALUE), true)));
      assertThat(next.pool.deadLetter("a")).isNull();
      assertThat(next.pool.deadLetter("b")).isNull();
      assertThat(next.pool.deadLetter("c")).isEqualTo(fx.pool.deadLetter("c"));
      assertThat(Fixture.notices(next.recoveryEffects(), Notice.DeadLetterRemoved.class))
          .containsExactly(
              new Notice.DeadLetterRemoved("a", Notice.DeadLetterRemoval.EVICTED, 1),
              new Notice.DeadLetterRemoved("b", Notice.DeadLetterRemoval.EVICTED, 1));
      assertThat(next.records()).contains(new DurableRecord.DeadRemoved("a"),
          new DurableRecord.DeadRemoved("b"));
      assertThat(next.pool.counters().deadLetterEvicted()).isEqualTo(2);
      next.checkInvariants();
    }
  }

  @Nested
  class Lookup {

    @Test
    void J6_lookup_says_where_a_job_is() {
      Fixture fx = Fixture.pool(1).jobs(RULES).running();
      fx.submitAll("a", "b", "c");
      fx.submitDelayed("d", 50);
      assertThat(fx.lookup("a")).isEqualTo(new JobView("a", JobView.JobState.RUNNING, null, null,
          null, "w-0", 1, null, null, null));
      assertThat(fx.lookup("c").position()).isEqualTo(1);
      assertThat(fx.lookup("d").dueAt()).isEqualTo(50);
      fx.at(7).complete("a");
      JobView answered = fx.lookup("a");
      assertThat(answered.state()).isEqualTo(JobView.JobState.ANSWERED);
      assertThat(answered.outcome()).isEqualTo(fx.terminal("a"));
      assertThat(answered.at()).isEqualTo(7);
      assertThat(fx.lookup("never")).isNull();
    }

    @Test
    void J6_a_pool_recovered_remembering_fewer_outcomes_forgets_its_oldest() {
      Fixture fx = Fixture.pool(1).jobs(RULES).durable().running();
      for (String job : List.of("a", "b", "c")) {
        fx.submit(job);
        fx.complete(job);
      }
      Fixture next = fx.takeOverAs(s -> s.withJobs(
          s.jobs().withRecentOutcomes(new Retention(2, Long.MAX_VALUE))));
      assertThat(next.lookup("a")).isNull();
      assertThat(next.lookup("b").state()).isEqualTo(JobView.JobState.ANSWERED);
      assertThat(next.lookup("c").outcome()).isEqualTo(fx.terminal("c"));
      assertThat(next.records()).containsExactly(new DurableRecord.Forgotten("a"));
      next.checkInvariants();
    }

    @Test
    void J6_a_pool_recovered_remembering_nothing_forgets_every_outcome() {
      Fixture fx = Fixture.pool(1).jobs(RULES).durable().running();
      fx.submit("a");
      fx.complete("a");
      Fixture next = fx.takeOverAs(s -> s.withJobs(s.jobs().withRecentOutcomes(Retention.NONE)));
      assertThat(next.lookup("a")).isNull();
      assertThat(next.records()).containsExactly(new DurableRecord.Forgotten("a"));
      next.checkInvariants();
    }

    @Test
    void J6_a_dead_letter_is_looked_up_as_DEAD_until_a_later_job_reuses_its_id() {
      Fixture fx = Fixture.pool(1).jobs(RULES).running();
      poison(fx, "x");
      assertThat(fx.lookup("x").state()).isEqualTo(JobView.JobState.DEAD);
      assertThat(fx.lookup("x").deadLetter()).isEqualTo(fx.pool.deadLetter("x"));
      fx.submit("x");
      fx.complete("x");
      assertThat(fx.lookup("x").state()).isEqualTo(JobView.JobState.ANSWERED);
    }

    @Test
    void J6_recent_outcomes_are_bounded_and_the_oldest_forgotten() {
      Fixture fx = Fixture.pool(1).jobs(RULES.withRecentOutcomes(new Retention(2, 1_000)))
          .running();
      for (String job : List.of("a", "b", "c")) {
        fx.submit(job);
        fx.complete(job);
      }
      assertThat(fx.lookup("a")).as("forgotten").isNull();
      assertThat(fx.lookup("b")).isNotNull();
      assertThat(fx.lookup("c")).isNotNull();
    }

    @Test
    void J6_every_answer_within_the_bound_is_remembered_however_many() {
      Fixture fx = Fixture.pool(1).jobs(RULES.withRecentOutcomes(new Retention(100, 1_000_000)))
          .running();
      for (int i = 0; i < 40; i++) {
        fx.submit("j" + i);
        fx.complete("j" + i);
      }
      for (int i = 0; i < 40; i++) {
        assertThat(fx.lookup("j" + i).state()).as("j" + i).isEqualTo(JobView.JobState.ANSWERED);
      }
    }
  }
}
