package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The fingerprint a refused event is checked against ("a refusal leaves the pool exactly as it
 * was", {@link Fixture#refuse}): it must tell apart states that differ only in what a later event
 * would act on.
 */
class FingerprintsTest {

  @Test
  void T2_the_fingerprint_tells_checkpoints_of_different_cost_apart() {
    Fixture fx = Fixture.pool(1).running();
    fx.submit("a");
    fx.progress("a", "cp");
    String reported = fx.pool.fingerprint();
    assertThat(reported).contains("checkpoint=cp/10");
    fx.pool.data().jobs.get("a").fate.checkpointBytes = 11;
    assertThat(fx.pool.fingerprint()).isNotEqualTo(reported).contains("checkpoint=cp/11");
  }

  @Test
  void J3_J4_the_fingerprint_says_where_a_waiting_job_resumes() {
    Fixture fx = Fixture.pool(1).jobs(JobSettings.DEFAULT).running();
    fx.submitDelayed("w", 1_000);
    String back = fx.pool.fingerprint();
    assertThat(back).contains("[w@1000#0B ]");
    fx.pool.data().jobs.get("w").fate.resumeAtFront = true;
    assertThat(fx.pool.fingerprint()).isNotEqualTo(back).contains("[w@1000#0F ]");
  }
}
