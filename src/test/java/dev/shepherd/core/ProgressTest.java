package dev.shepherd.core;

import static dev.shepherd.core.Fixture.only;
import static dev.shepherd.core.Fixture.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * T2 (docs/rules.md): progress reports are fenced like completions, become the job's checkpoint,
 * are published, reach the next attempt, and a progress timeout turns silence into a hang (P14).
 */
class ProgressTest {

  private static Fixture timed(long progressTimeoutMs) {
    return Fixture.pool(1).retry(3).jobTimeout(0)
        .jobs(JobSettings.NONE.withProgressTimeoutMs(progressTimeoutMs)).running();
  }

  @Nested
  class Reports {

    @Test
    void T2_a_report_is_published_to_the_submitter_and_kept_as_the_checkpoint() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      long token = fx.token("j1");
      List<Effect> effects = fx.progress("j1", "step 1");
      assertThat(effects).containsExactly(
          new Effect.Progress(reply("j1"), "j1", "w-0", token, 1, "step 1", 10));
      fx.progress("j1", "step 2");
      assertThat(fx.pool.lookup("j1").progress()).isEqualTo("step 2");
    }

    @Test
    void T2_the_first_attempt_has_no_checkpoint() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      assertThat(fx.assignment("j1").checkpoint()).isNull();
      assertThat(fx.pool.lookup("j1").progress()).isNull();
    }

    @Test
    void T2_a_retried_attempt_receives_the_last_progress_of_the_earlier_one() {
      Fixture fx = Fixture.pool(1).retry(3).running();
      fx.submit("j1");
      fx.progress("j1", "page 1");
      fx.progress("j1", "page 2");
      fx.crash("w-0");
      assertThat(fx.pool.lookup("j1").state()).isEqualTo(JobView.JobState.QUEUED);
      assertThat(fx.pool.lookup("j1").progress()).isEqualTo("page 2");
      fx.created("w-0");
      Effect.Assign again = fx.assignment("j1");
      assertThat(again.attempt()).isEqualTo(2);
      assertThat(again.checkpoint()).isEqualTo("page 2");
    }

    @Test
    void T2_a_report_with_a_stale_token_is_ignored_and_counted() {
      Fixture fx = Fixture.pool(1).retry(3).running();
      fx.submit("j1");
      long old = fx.token("j1");
      fx.progress("j1", "first");
      fx.crash("w-0");
      fx.created("w-0");
      long ignored = fx.counters().ignoredFacts();
      assertThat(fx.apply(new PoolEvent.Progress("w-0", old, "late", 4, fx.now()))).isEmpty();
      assertThat(fx.counters().ignoredFacts()).isEqualTo(ignored + 1);
      assertThat(fx.pool.lookup("j1").progress()).isEqualTo("first");
    }

    @Test
    void T2_a_report_after_the_answer_changes_nothing() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      long token = fx.token("j1");
      fx.complete("j1");
      assertThat(fx.apply(new PoolEvent.Progress("w-0", token, "late", 4, fx.now()))).isEmpty();
      assertThat(fx.outcomesFor("j1")).filteredOn(Outcome::terminal).hasSize(1);
    }

    @Test
    void T2_a_job_cancelled_while_running_reports_to_nobody() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      long token = fx.token("j1");
      fx.cancel("j1");
      assertThat(fx.apply(new PoolEvent.Progress("w-0", token, "late", 4, fx.now()))).isEmpty();
    }

    @Test
    void T2_a_report_from_an_unknown_worker_is_refused_and_changes_nothing() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("j1");
      assertThat(fx.refuse(new PoolEvent.Progress("w-9", fx.token("j1"), "x", 1, fx.now())))
          .isInstanceOf(PoolError.UnknownWorker.class);
    }

    @Test
    void T2_a_report_is_bounded_and_never_null() {
      assertThat(new PoolEvent.Progress("w-0", 1, "x", 0, 0).bytes()).isZero();
      assertThat(new PoolEvent.Progress("w-0", 1, "x", JobProgress.MAX_BYTES, 0).bytes())
          .isEqualTo(JobProgress.MAX_BYTES);
      assertThatThrownBy(() -> new PoolEvent.Progress("w-0", 1, "x", -1, 0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("progress");
      assertThatThrownBy(() -> new PoolEvent.Progress("w-0", 1, "x", JobProgress.MAX_BYTES + 1, 0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("progress");
      assertThatThrownBy(() -> new PoolEvent.Progress("w-0", 1, null, 1, 0))
          .isInstanceOf(NullPointerException.class);
    }
  }

  @Nested
  class Timeout {

    @Test
    void T2_a_silent_attempt_is_hung_after_progressTimeoutMs_as_P14_reads_it() {
      Fixture fx = timed(100);
      fx.at(10).submit("j1");
      assertThat(fx.timers()).containsEntry(
          new Timer.ProgressSilence("w-0", fx.token("j1")), 110L);
      assertThat(only(fx.tick(109), Effect.Stop.class)).isEmpty();
      assertThat(only(fx.tick(110), Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-0", 1, Exit.TIMEOUT));
    }

    @Test
    void T2_a_reporting_attempt_runs_past_its_progress_timeout() {
      Fixture fx = timed(100);
      fx.submit("j1");
      for (long t = 50; t <= 1_000; t += 50) {
        fx.at(t).progress("j1", t);
        assertThat(only(fx.tick(t + 1), Effect.Stop.class)).isEmpty();
      }
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.ASSIGNED);
      assertThat(only(fx.tick(1_100), Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-0", 1, Exit.TIMEOUT));
    }

    @Test
    void T2_a_report_moves_the_silence_timer_to_the_end_of_the_new_silence() {
      Fixture fx = timed(100);
      fx.submit("j1");
      Timer silence = new Timer.ProgressSilence("w-0", fx.token("j1"));
      fx.at(80).progress("j1", "x");
      assertThat(only(fx.tick(100), Effect.Stop.class)).isEmpty();
      assertThat(fx.timers()).containsEntry(silence, 180L);
    }

    @Test
    void T2_the_hang_interrupts_the_job_and_its_retry_gets_the_checkpoint() {
      Fixture fx = timed(100);
      fx.submit("j1");
      fx.at(40).progress("j1", "half");
      fx.tick(140);
      assertThat(fx.pool.lookup("j1").state()).isEqualTo(JobView.JobState.QUEUED);
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.INSTALLING);
      fx.created("w-0");
      assertThat(fx.assignment("j1").attempt()).isEqualTo(2);
      assertThat(fx.assignment("j1").checkpoint()).isEqualTo("half");
      fx.complete("j1");
      assertThat(fx.outcomesFor("j1")).last().isInstanceOf(Outcome.Completed.class);
    }

    @Test
    void T2_a_job_s_own_progress_timeout_overrides_the_pool_s() {
      Fixture fx = timed(1_000);
      fx.submitWithProgressTimeout("j1", 50);
      assertThat(only(fx.tick(50), Effect.Stop.class))
          .containsExactly(new Effect.Stop("w-0", 1, Exit.TIMEOUT));
    }

    @Test
    void T2_the_end_of_the_assignment_cancels_its_silence_timer() {
      Fixture fx = timed(100);
      fx.submit("j1");
      Timer silence = new Timer.ProgressSilence("w-0", fx.token("j1"));
      assertThat(only(fx.complete("j1"), Effect.CancelTimer.class))
          .contains(new Effect.CancelTimer(silence));
      assertThat(fx.timers()).isEmpty();
      long ignored = fx.counters().ignoredFacts();
      assertThat(fx.apply(new PoolEvent.TimerFired(silence, 200))).isEmpty();
      assertThat(fx.counters().ignoredFacts()).isEqualTo(ignored + 1);
    }

    @Test
    void T2_without_a_progress_timeout_no_silence_timer_starts() {
      Fixture fx = timed(0);
      fx.submit("j1");
      assertThat(fx.timers()).isEmpty();
    }

    @Test
    void T2_a_negative_progress_timeout_is_refused_naming_the_field() {
      assertThatThrownBy(() -> JobSettings.NONE.withProgressTimeoutMs(-1))
          .isInstanceOf(ConfigException.class).hasMessageContaining("progressTimeoutMs");
    }
  }
}
