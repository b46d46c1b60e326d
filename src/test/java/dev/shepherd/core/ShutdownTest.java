package dev.shepherd.core;

import static dev.shepherd.core.Fixture.outcomes;
import static dev.shepherd.core.Fixture.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Graceful stop (P16): refuse new work, answer queued jobs at once, drain running ones. */
class ShutdownTest {

  private static final Interruption STOPPED = new Interruption.PoolStopped();

  @Nested
  class Request {

    @Test
    void P16_stop_answers_queued_jobs_POOL_STOPPED_at_once_and_waits_for_running_ones() {
      Fixture fx = Fixture.pool(1).drain(5000).running();
      fx.submitAll("run", "q1", "q2");
      List<Effect> effects = fx.at(100).stopRequested();
      assertThat(effects).containsExactly(
          new Effect.Publish(new Notice.PoolStateChanged(PoolState.DRAINING)),
          new Effect.Respond(Fixture.reply("q1"),
              new Outcome.Interrupted("q1", Fixture.payload("q1"), 0, STOPPED)),
          new Effect.Respond(Fixture.reply("q2"),
              new Outcome.Interrupted("q2", Fixture.payload("q2"), 0, STOPPED)),
          new Effect.StartTimer(new Timer.DrainDeadline(), 5100));
      assertThat(fx.pool.state()).isEqualTo(PoolState.DRAINING);
      assertThat(fx.pool.holds("run")).isTrue();
      assertThat(STOPPED.kind()).isEqualTo("POOL_STOPPED");
    }

    @Test
    void P16_submits_during_and_after_the_stop_are_rejected_SHUTTING_DOWN() {
      Fixture fx = Fixture.pool(1).drain(5000).running();
      fx.submit("run");
      fx.stopRequested();
      Outcome.Rejected draining = rejection(fx.submit("new"));
      assertThat(draining.reason()).isEqualTo(RejectionReason.SHUTTING_DOWN);
      assertThat(draining.payload()).isEqualTo(Fixture.payload("new"));
      assertThat(rejection(fx.submit("run")).reason())
          .as("SHUTTING_DOWN comes before DUPLICATE_JOB").isEqualTo(RejectionReason.SHUTTING_DOWN);
      fx.tick(5000);
      assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
      assertThat(rejection(fx.submit("later", "w-0/k")).reason())
          .isEqualTo(RejectionReason.SHUTTING_DOWN);
    }

    @Test
    void P16_stop_with_nothing_running_stops_at_once_undeploying_every_incarnation() {
      Fixture fx = Fixture.pool(3).started();
      fx.created("w-0");
      fx.creationFailed("w-2");
      List<Effect> effects = fx.stopRequested();
      assertThat(Fixture.only(effects, Effect.Stop.class)).containsExactly(
          new Effect.Stop("w-0", 1, Exit.NORMAL), new Effect.Stop("w-1", 1, Exit.NORMAL));
      assertThat(Fixture.notices(effects)).containsExactly(
          new Notice.PoolStateChanged(PoolState.DRAINING),
          new Notice.PoolStateChanged(PoolState.STOPPED));
      assertThat(fx.snapshot().state()).isEqualTo(PoolState.STOPPED);
    }

    @Test
    void P16_a_second_stop_request_does_nothing() {
      Fixture fx = Fixture.pool(1).running();
      fx.submit("run");
      fx.stopRequested();
      assertThat(fx.stopRequested()).isEmpty();
      fx.tick(20_000);
      assertThat(fx.stopRequested()).isEmpty();
    }
  }

  @Nested
  class Drain {

    @Test
    void P16_running_jobs_complete_normally_during_the_drain() {
      Fixture fx = Fixture.pool(2).drain(5000).running();
      fx.submitAll("a", "b");
      fx.stopRequested();
      assertThat(outcomes(fx.at(10).complete("a"))).containsExactly(
          new Outcome.Completed("a", Fixture.result("a"), "w-0", 1));
      assertThat(fx.pool.state()).isEqualTo(PoolState.DRAINING);
    }

    @Test
    void P16_the_last_running_job_ending_stops_the_pool_before_the_deadline() {
      Fixture fx = Fixture.pool(2).drain(5000).running();
      fx.submitAll("a", "b");
      fx.stopRequested();
      fx.at(10).complete("a");
      List<Effect> effects = fx.at(20).failJob("b", new JobError(1, "x"));
      assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
      assertThat(Fixture.only(effects, Effect.Stop.class)).containsExactly(
          new Effect.Stop("w-0", 1, Exit.NORMAL), new Effect.Stop("w-1", 1, Exit.NORMAL));
      assertThat(Fixture.notices(effects))
          .containsExactly(new Notice.PoolStateChanged(PoolState.STOPPED));
    }

    @Test
    void P16_drain_deadline_tick_answers_what_still_runs_POOL_STOPPED() {
      Fixture fx = Fixture.pool(2).drain(5000).running();
      fx.submitAll("a", "b");
      fx.stopRequested();
      fx.at(10).complete("a");
      assertThat(fx.tick(4999)).isEmpty();
      List<Effect> effects = fx.tick(5000);
      assertThat(outcomes(effects)).containsExactly(
          new Outcome.Interrupted("b", Fixture.payload("b"), 1, STOPPED));
      assertThat(Fixture.only(effects, Effect.Stop.class)).contains(
          new Effect.Stop("w-1", 1, Exit.NORMAL));
      assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
      assertThat(fx.pool.unanswered()).isZero();
    }

    @Test
    void P16_drain_timeout_zero_stops_without_waiting() {
      Fixture fx = Fixture.pool(1).drain(0).running();
      fx.submitAll("a", "q");
      List<Effect> effects = fx.stopRequested();
      assertThat(outcomes(effects)).extracting(Outcome::job).containsExactly("q", "a");
      assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
    }

    @Test
    void P16_a_worker_stopping_during_the_drain_is_not_replaced_and_RETRY_jobs_end_POOL_STOPPED() {
      Fixture fx = Fixture.pool(2).retry(3).drain(5000).running();
      fx.submitAll("a", "b");
      fx.stopRequested();
      List<Effect> effects = fx.crash("w-0");
      assertThat(outcomes(effects)).containsExactly(
          new Outcome.Interrupted("a", Fixture.payload("a"), 1, STOPPED));
      assertThat(Fixture.only(effects, Effect.Deploy.class)).isEmpty();
      assertThat(fx.pool.state()).isEqualTo(PoolState.DRAINING);
    }

    @Test
    void P16_a_worker_stopping_during_the_drain_answers_FAIL_jobs_WORKER_STOPPED() {
      Fixture fx = Fixture.pool(1).failPolicy().drain(5000).running();
      fx.submit("a");
      fx.stopRequested();
      fx.crash("w-0");
      assertThat(fx.interruptionOf("a"))
          .isEqualTo(new Interruption.WorkerStopped("w-0", Exit.CRASH, "cause"));
      assertThat(fx.pool.state()).as("nothing left to drain").isEqualTo(PoolState.STOPPED);
    }
  }

  @Nested
  class Afterwards {

    @Test
    void P16_nothing_accepted_goes_unanswered() {
      Fixture fx = Fixture.pool(3).capacity(2).retry(3).drain(1000).backlog(50).running();
      for (int i = 0; i < 20; i++) {
        fx.submit("j" + i, i % 4 == 0 ? "w-1/k" : null);
      }
      fx.complete("j1");
      fx.cancel("j2");
      fx.cancel("j10");
      fx.crash("w-2");
      fx.stopRequested();
      fx.complete("j3");
      fx.tick(1000);
      assertThat(fx.pool.unanswered()).isZero();
      assertThat(fx.open()).isEmpty();
      for (int i = 0; i < 20; i++) {
        fx.terminal("j" + i);
      }
    }

    @Test
    void P16_facts_after_the_stop_are_ignored_and_counted() {
      Fixture fx = Fixture.pool(1).running();
      fx.stopRequested();
      assertThat(fx.crash("w-0")).isEmpty();
      assertThat(fx.apply(new PoolEvent.CreationFailed("w-0", 1, "x", 0))).isEmpty();
      assertThat(fx.counters().ignoredFacts()).isEqualTo(2);
    }

    @Test
    void P16_an_incarnation_created_after_the_stop_is_undeployed() {
      Fixture fx = Fixture.pool(1).started();
      fx.stopRequested();
      assertThat(fx.created("w-0")).containsExactly(new Effect.Stop("w-0", 1, Exit.NORMAL));
    }

    @Test
    void P16_a_late_completion_after_the_stop_answers_nobody() {
      Fixture fx = Fixture.pool(1).drain(100).running();
      fx.submit("a");
      long token = fx.token("a");
      fx.stopRequested();
      fx.tick(100);
      fx.refuse(new PoolEvent.Completed("w-0", token, "late", null, 200));
      assertThat(fx.terminal("a")).isInstanceOf(Outcome.Interrupted.class);
    }

    @Test
    void P16_H5_jobs_a_lost_host_ran_while_draining_are_answered_in_backlog_order() {
      // The key names the slot it binds to: a (first) runs on the host's second slot.
      Fixture fx = Fixture.hostsOnly().selector((key, slots) -> key).running();
      fx.hostUp("h1", 2, 1);
      fx.submit("a", "h1/w-1");
      fx.submit("b");
      assertThat(fx.workerOf("b")).isEqualTo("h1/w-0");
      fx.stopRequested();
      assertThat(outcomes(fx.hostLost("h1"))).containsExactly(
          new Outcome.Interrupted("a", Fixture.payload("a"), 1, STOPPED),
          new Outcome.Interrupted("b", Fixture.payload("b"), 1, STOPPED));
    }

    @Test
    void P16_H5_a_lost_host_that_ran_the_last_running_job_ends_the_drain_at_once() {
      Fixture fx = Fixture.hostsOnly().drain(5000).running();
      fx.hostUp("h1", 1, 1);
      fx.submit("a");
      fx.stopRequested();
      assertThat(fx.pool.state()).isEqualTo(PoolState.DRAINING);
      List<Effect> effects = fx.at(100).hostLost("h1");
      assertThat(fx.pool.state()).as("stopped with no drain deadline").isEqualTo(PoolState.STOPPED);
      assertThat(effects)
          .contains(new Effect.Publish(new Notice.PoolStateChanged(PoolState.STOPPED)));
    }
  }
}
