package dev.shepherd.runtime.ha;

import static org.assertj.core.api.Assertions.assertThat;

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
}
