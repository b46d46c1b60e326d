package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
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
  void P17_the_fingerprint_shows_every_held_job_and_what_each_slot_runs() {
    Fixture fx = Fixture.pool(1).capacity(2).running();
    fx.submitAll("a", "b", "c");
    fx.cancel("b");
    String fingerprint = fx.pool.fingerprint();
    assertThat(fingerprint).as("a job cancelled while running is still on its slot")
        .contains("running=[{a RUNNING", "{b CANCELLED_RUNNING");
    assertThat(fingerprint).contains("\njob a -> {a RUNNING", "\njob c -> {c QUEUED");
    fx.pool.data().jobs.get("c").attempts++;
    assertThat(fx.pool.fingerprint()).as("a queued job's attempts").isNotEqualTo(fingerprint);
  }

  @Test
  void H2_the_fingerprint_shows_the_slots_of_each_host() {
    Fixture fx = Fixture.pool(1).running();
    fx.hostRegistered("h1", "node-a", 2, 1);
    assertThat(fx.pool.fingerprint().lines().filter(line -> line.startsWith("host ")))
        .singleElement().asString().endsWith(" h1/w-0 h1/w-1");
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

  @Test
  void F2_the_fingerprint_shows_each_queues_virtual_time_in_its_ring() {
    Fixture fx = Fixture.pool(1).running();
    fx.submitIn("busy", null, 5);
    fx.submitIn("a0", "a", 5);
    fx.submitIn("a1", "a", 5);
    fx.submitIn("b0", "b", 5);
    assertThat(fx.pool.fingerprint()).contains("any=vt=0 [a@0 b@0 ]");
    fx.complete("busy");
    assertThat(fx.pool.fingerprint()).as("a0 started: its queue paid one stride")
        .contains("any=vt=0 [b@0 a@" + FairRing.STRIDE + " ]");
  }

  @Test
  void F4_the_fingerprint_shows_each_buckets_level() {
    RateLimit limit = new RateLimit(2, 1000);
    Fixture fx = Fixture.pool(1).flow(FlowSettings.NONE.withPoolRateLimit(limit)
        .withGroups(Map.of("a", new GroupSettings(null, null, null, limit, null)))).running();
    fx.at(100).submitIn("a0", "a", 5);
    // Both buckets started full (2 tokens of 1000 units) and gave one token at 100.
    String taken = limit + " level=1000/2000@100";
    assertThat(fx.pool.fingerprint()).contains("bucket=" + taken + " journaled=")
        .contains("\ngroup a[").contains(" bucket=" + taken + " runtime=");
  }
}
