package dev.shepherd.runtime.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.JobSettings;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.Retention;
import dev.shepherd.core.Transition;
import dev.shepherd.core.ha.DurableLog;
import org.junit.jupiter.api.Test;

/**
 * {@link RecoveryWarmUp} runs the whole of a takeover's reading (A3): its made-up log replays
 * into a pool with the jobs it left queued and the outcomes it remembered, so the code a real
 * takeover runs is the code it compiled.
 */
class RecoveryWarmUpTest {
  @Test
  void A3_the_made_up_log_replays_into_queued_jobs_and_remembered_outcomes() {
    DurableLog.Recovered recovered = RecoveryWarmUp.run(1);

    assertThat(recovered.image().jobs()).hasSize(RecoveryWarmUp.JOBS / 2);
    assertThat(recovered.image().recent()).isNotEmpty();
    assertThat(recovered.undelivered()).as("the last batch's answers, never reported")
        .hasSize(RecoveryWarmUp.PER_BATCH / 2);
  }

  @Test
  void A3_a_pool_of_the_next_term_recovers_from_the_made_up_log() {
    DurableLog.Recovered recovered = RecoveryWarmUp.run(1);
    PoolSettings settings = PoolSettings.defaults("warm", 4).withDurable(true)
        .withJobs(JobSettings.DEFAULT.withRecentOutcomes(new Retention(10_000, 1 << 24)));

    assertThat(RecoveryWarmUp.takeOver(recovered, settings))
        .isInstanceOf(Transition.Applied.class);
    assertThat(RecoveryWarmUp.run(2, settings).image().jobs()).hasSize(RecoveryWarmUp.JOBS / 2);
  }
}
