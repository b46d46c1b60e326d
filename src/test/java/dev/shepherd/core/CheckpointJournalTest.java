package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * T2 with A3 (docs/rules.md): a durable pool journals a running job's checkpoint, at most once per
 * job per {@link Pool#CHECKPOINT_WRITE_MS}, the latest held back written with the next report past
 * that or before the job goes back; a retry on the next leader resumes from it.
 */
class CheckpointJournalTest {
  private static final long N = Pool.CHECKPOINT_WRITE_MS;

  private static List<DurableRecord.Checkpointed> checkpoints(Fixture fx) {
    return fx.records().stream().filter(DurableRecord.Checkpointed.class::isInstance)
        .map(DurableRecord.Checkpointed.class::cast).toList();
  }

  @Test
  void T2_the_first_report_of_a_durable_pools_job_is_journaled() {
    Fixture fx = Fixture.pool(1).durable().running();
    fx.submit("j1");
    fx.progress("j1", "page 1");
    assertThat(checkpoints(fx)).containsExactly(new DurableRecord.Checkpointed("j1", "page 1", 10));
    assertThat(fx.storedImage().jobs().get(0).checkpoint()).isEqualTo("page 1");
    assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());
  }

  @Test
  void T2_a_pool_that_is_not_durable_journals_no_checkpoint() {
    Fixture fx = Fixture.pool(1).running();
    fx.submit("j1");
    fx.progress("j1", "page 1");
    assertThat(fx.records()).isEmpty();
  }

  @Test
  void T2_reports_within_the_write_interval_are_coalesced_the_next_past_it_writes_the_latest() {
    Fixture fx = Fixture.pool(1).durable().jobTimeout(0).running();
    fx.submit("j1");
    fx.progress("j1", "p1");
    for (int i = 2; i <= 50; i++) {
      fx.at(fx.now() + N / 100).progress("j1", "p" + i);
    }
    assertThat(checkpoints(fx)).hasSize(1);
    // The store is behind by the reports held back; the pool's image says the same.
    assertThat(fx.storedImage().jobs().get(0).checkpoint()).isEqualTo("p1");
    assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());
    assertThat(fx.pool.lookup("j1").progress()).isEqualTo("p50");
    fx.at(fx.now() + N).progress("j1", "p51");
    assertThat(checkpoints(fx)).extracting(DurableRecord.Checkpointed::progress)
        .containsExactly("p1", "p51");
    assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());
  }

  @Test
  void T2_a_report_a_whole_write_interval_after_the_last_write_is_journaled() {
    Fixture fx = Fixture.pool(1).durable().jobTimeout(0).running();
    fx.submit("j1");
    fx.progress("j1", "p1");
    fx.at(N - 1).progress("j1", "p2");
    fx.at(N).progress("j1", "p3");
    assertThat(checkpoints(fx)).extracting(DurableRecord.Checkpointed::progress)
        .containsExactly("p1", "p3");
    fx.at(2 * N - 1).progress("j1", "p4");
    assertThat(checkpoints(fx)).as("within the interval of the write at N").hasSize(2);
  }

  @Test
  void T2_a_checkpoint_held_back_is_written_before_the_job_goes_back() {
    Fixture fx = Fixture.pool(1).durable().retry(3).running();
    fx.submit("j1");
    fx.progress("j1", "p1");
    fx.at(fx.now() + 1).progress("j1", "p2");
    int before = fx.records().size();
    fx.crash("w-0");
    List<DurableRecord> after = fx.records().subList(before, fx.records().size());
    int checkpoint = after.indexOf(new DurableRecord.Checkpointed("j1", "p2", 10));
    assertThat(checkpoint).isNotNegative();
    assertThat(after.subList(checkpoint, after.size()))
        .anyMatch(r -> r instanceof DurableRecord.Requeued q && q.job().equals("j1"));
    assertThat(fx.storedImage().jobs().get(0).checkpoint()).isEqualTo("p2");
    assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());
  }

  @Test
  void T2_a_retry_on_the_next_leader_resumes_from_the_journaled_checkpoint() {
    Fixture fx = Fixture.pool(1).durable().retry(3).running();
    fx.submit("j1");
    fx.progress("j1", "page 7");
    Fixture next = fx.takeOver();
    next.created("w-0");
    Effect.Assign again = next.assignment("j1");
    assertThat(again.attempt()).isEqualTo(2);
    assertThat(again.checkpoint()).isEqualTo("page 7");
    assertThat(next.pool.lookup("j1").progress()).isEqualTo("page 7");
    assertThat(next.storedImage()).isEqualTo(next.pool.durableImage());
  }

  @Test
  void T2_a_job_s_own_progress_timeout_is_journaled_and_guards_its_retry_on_the_next_leader() {
    Fixture fx = Fixture.pool(1).durable().retry(3).jobTimeout(0)
        .jobs(JobSettings.NONE.withProgressTimeoutMs(10_000)).running();
    fx.submitWithProgressTimeout("j1", 50);
    fx.submit("j2");
    assertThat(fx.records()).filteredOn(DurableRecord.Accepted.class::isInstance)
        .extracting(r -> ((DurableRecord.Accepted) r).progressTimeoutMs()).containsExactly(50L, 0L);
    assertThat(fx.storedImage().jobs()).extracting(DurableImage.JobImage::progressTimeoutMs)
        .containsExactly(50L, 0L);
    assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());
    Fixture next = fx.takeOver();
    assertThat(next.storedImage()).isEqualTo(next.pool.durableImage());
    next.created("w-0");
    long started = next.now();
    assertThat(next.assignment("j1").attempt()).isEqualTo(2);
    assertThat(Fixture.only(next.tick(started + 49), Effect.Stop.class)).isEmpty();
    assertThat(Fixture.only(next.tick(started + 50), Effect.Stop.class))
        .containsExactly(new Effect.Stop("w-0", 1, Exit.TIMEOUT));
  }

  @Test
  void T2_a_checkpoint_survives_two_failovers_and_a_new_report_replaces_it() {
    Fixture fx = Fixture.pool(1).durable().retry(5).running();
    fx.submit("j1");
    fx.progress("j1", "first");
    Fixture second = fx.takeOver();
    second.created("w-0");
    assertThat(second.assignment("j1").checkpoint()).isEqualTo("first");
    second.progress("j1", "second");
    Fixture third = second.takeOver();
    third.created("w-0");
    assertThat(third.assignment("j1").checkpoint()).isEqualTo("second");
  }

  @Test
  void T2_an_answered_job_leaves_no_checkpoint_behind() {
    Fixture fx = Fixture.pool(1).durable().running();
    fx.submit("j1");
    fx.progress("j1", "p1");
    fx.at(fx.now() + 1).progress("j1", "p2");
    fx.complete("j1");
    assertThat(fx.storedImage().jobs()).isEmpty();
    assertThat(checkpoints(fx)).hasSize(1);
    assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());
  }

  @Test
  void T2_a_stale_report_journals_nothing() {
    Fixture fx = Fixture.pool(1).durable().retry(3).running();
    fx.submit("j1");
    long old = fx.token("j1");
    fx.crash("w-0");
    fx.created("w-0");
    int before = fx.records().size();
    fx.apply(new PoolEvent.Progress("w-0", old, "late", 4, fx.now()));
    assertThat(fx.records()).hasSize(before);
  }

  @Test
  void T2_a_ledger_keeps_only_the_latest_checkpoint_per_job() {
    Ledger ledger = new Ledger(DurableImage.empty(1));
    ledger.apply(new DurableRecord.Accepted("j1", 1, 1, "x", null, null, 0, 1, null));
    ledger.apply(new DurableRecord.Assigned("j1", "w-0", 1));
    ledger.apply(new DurableRecord.Checkpointed("j1", "a", 1));
    ledger.apply(new DurableRecord.Checkpointed("j1", "b", 2));
    ledger.apply(new DurableRecord.Requeued("j1", 0, null));
    ledger.apply(new DurableRecord.Assigned("j1", "w-0", 2));
    DurableImage.JobImage job = ledger.image(1).jobs().get(0);
    assertThat(job.checkpoint()).isEqualTo("b");
    assertThat(job.checkpointBytes()).isEqualTo(2);
  }
}
