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

  @Test
  void H5_the_fingerprint_tells_a_lost_host_from_an_up_one() {
    Fixture fx = Fixture.pool(1).running();
    fx.hostRegistered("h1", "node-a", 1, 1);
    String up = fx.pool.fingerprint();
    fx.pool.data().hosts.get("h1").state = HostState.LOST;
    assertThat(fx.pool.fingerprint()).isNotEqualTo(up);
  }

  @Test
  void F6_the_fingerprint_shows_the_pools_own_size_and_slots() {
    Fixture fx = Fixture.pool(2).running();
    assertThat(fx.pool.fingerprint()).contains(
        "\nlocal: instances=2 maxConcurrency=1 resized=false draining=0 slots=[w-0, w-1]\n");
  }

  @Test
  void S2_the_fingerprint_shows_the_restarts_the_budget_counts() {
    Fixture fx = Fixture.pool(1).running();
    String before = fx.pool.fingerprint();
    fx.pool.data().supervisor.budget().record(1, 42);
    assertThat(fx.pool.fingerprint()).isNotEqualTo(before).contains("budget=[42]");
  }

  @Test
  void S5_the_fingerprint_tells_restart_jitter_states_apart() {
    String[] fingerprints = new String[2];
    for (int seed = 1; seed <= 2; seed++) {
      fingerprints[seed - 1] = Fixture.pool(1)
          .backoff(new BackoffSettings(100, 1_000, 2.0, 0.5, 60_000, seed)).running()
          .pool.fingerprint();
    }
    assertThat(fingerprints[0]).as("the next restart's delay differs")
        .isNotEqualTo(fingerprints[1]);
  }
}
