package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The id table at its edges (P15, P17 and A3 in docs/rules.md): a straggler that outlives a long
 * run of generated ids is still found by its id, and generated numbers parse and count exactly.
 */
class JobTableEdgesTest {

  private static Job job(String id, long generated) {
    return new Job(id, generated, null, null, null, 0, 0, null, null, new FlowGroup(null, null), 5,
        0);
  }

  private static Job generated(JobTable table) {
    long number = table.nextGenerated();
    Job job = job(JobTable.PREFIX + number, number);
    table.add(job);
    return job;
  }

  @Test
  void P15_a_straggler_holding_a_long_ring_open_is_still_found_after_the_ring_compacts() {
    JobTable table = new JobTable();
    Job straggler = generated(table);
    List<Job> later = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      Job next = generated(table);
      later.add(next);
      if (later.size() > 2) {
        table.remove(later.remove(0));
      }
    }
    assertThat(table.size()).isEqualTo(3);
    assertThat(table.get(straggler.id)).isSameAs(straggler);
    assertThat(table.contains(straggler.id)).isTrue();
    assertThat(table.values()).containsExactlyInAnyOrder(straggler, later.get(0), later.get(1));
    for (Job job : later) {
      assertThat(table.get(job.id)).isSameAs(job);
    }
    table.remove(straggler);
    assertThat(table.get(straggler.id)).isNull();
    assertThat(table.size()).isEqualTo(2);
  }

  @Test
  void P15_every_job_held_when_the_ring_compacts_is_still_found_wherever_it_sat() {
    JobTable table = new JobTable();
    List<Job> kept = new ArrayList<>();
    Job previous = null;
    // job-1, -2, -3 and -700 outlive the run; every other job is answered once the next comes.
    // The ring compacts at job-1026, when it spans 1025 positions of 2048 and holds 5 jobs.
    for (int i = 1; i <= 1100; i++) {
      Job job = generated(table);
      if (previous != null) {
        table.remove(previous);
      }
      previous = i <= 3 || i == 700 ? null : job;
      if (previous == null) {
        kept.add(job);
      }
    }
    assertThat(table.size()).isEqualTo(5);
    for (Job job : kept) {
      assertThat(table.get(job.id)).as(job.id).isSameAs(job);
    }
    assertThat(table.get(previous.id)).isSameAs(previous);
    assertThat(table.get("job-1025")).as("answered before the ring compacted").isNull();
    assertThat(table.values()).hasSize(5).containsAll(kept).contains(previous);
  }

  @Test
  void P15_a_number_handed_out_to_no_job_is_not_found_when_a_full_ring_grows_past_it() {
    JobTable table = new JobTable();
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      jobs.add(generated(table));
    }
    // job-17's submit was refused after its number was taken: job-18 grows the full ring.
    long refused = table.nextGenerated();
    jobs.add(generated(table));
    assertThat(table.get(JobTable.PREFIX + refused)).as("never added").isNull();
    assertThat(table.get("job-18")).isSameAs(jobs.get(16));
    assertThat(table.values()).hasSize(17).doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(jobs);
  }

  @Test
  void P15_a_ring_that_grows_past_its_first_capacity_keeps_every_job() {
    JobTable table = new JobTable();
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      jobs.add(generated(table));
    }
    table.remove(jobs.get(0));
    for (int i = 0; i < 40; i++) {
      jobs.add(generated(table));
    }
    assertThat(table.size()).isEqualTo(139);
    for (Job job : jobs.subList(1, jobs.size())) {
      assertThat(table.get(job.id)).isSameAs(job);
    }
    assertThat(table.values()).hasSize(139).doesNotContain(jobs.get(0));
  }

  @Test
  void P15_a_full_ring_lists_each_job_once() {
    JobTable table = new JobTable();
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      jobs.add(generated(table));
    }
    assertThat(table.values()).hasSize(16).containsExactlyInAnyOrderElementsOf(jobs);
  }

  @Test
  void P15_an_id_outside_the_rings_window_is_not_found_where_its_position_wraps_onto_a_held_job() {
    JobTable table = new JobTable();
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      jobs.add(generated(table));
    }
    // job-1 .. job-16 fill the ring of 16: job-17 and job-33 would sit where job-1 is.
    assertThat(table.get("job-17")).as("one past a full ring").isNull();
    assertThat(table.get("job-33")).as("two rings past").isNull();
    assertThat(table.contains("job-17")).isFalse();
    table.remove(jobs.get(0));
    Job seventeenth = generated(table);
    // job-2 .. job-17 fill it now, job-17 where job-1 was.
    assertThat(seventeenth.id).isEqualTo("job-17");
    assertThat(table.get("job-1")).as("answered, before the window").isNull();
    assertThat(table.get("job-17")).isSameAs(seventeenth);
    assertThat(table.get("job-18")).as("one past the window").isNull();
    table.remove(job("job-1", 1));
    assertThat(table.get("job-17")).as("removing an answered id removes nothing").isSameAs(seventeenth);
    assertThat(table.size()).isEqualTo(16);
  }

  @Test
  void A3_generated_numbers_count_from_one_and_continue_after_a_recovered_one() {
    JobTable table = new JobTable();
    assertThat(table.generatedSoFar()).isZero();
    assertThat(table.nextGenerated()).isEqualTo(1);
    assertThat(table.generatedSoFar()).isEqualTo(1);
    table.continueAfter(41);
    assertThat(table.nextGenerated()).isEqualTo(42);
    table.continueAfter(7);
    assertThat(table.generatedSoFar()).isEqualTo(42);
  }

  @Test
  void P15_only_a_canonical_job_N_of_up_to_18_digits_is_a_generated_id() {
    assertThat(JobTable.generatedNumber("job-1")).isEqualTo(1);
    assertThat(JobTable.generatedNumber("job-" + "9".repeat(18))).isEqualTo(999_999_999_999_999_999L);
    assertThat(JobTable.generatedNumber("job-" + "1".repeat(19))).isZero();
    assertThat(JobTable.generatedNumber("job-")).isZero();
    assertThat(JobTable.generatedNumber("job-0")).isZero();
    assertThat(JobTable.generatedNumber("job-01")).isZero();
    assertThat(JobTable.generatedNumber("job-1a")).isZero();
    assertThat(JobTable.generatedNumber("job-/")).isZero();
    assertThat(JobTable.generatedNumber("job-:")).isZero();
    assertThat(JobTable.generatedNumber("jab-1")).isZero();
    assertThat(JobTable.generatedNumber("job-90")).isEqualTo(90);
  }

  @Test
  void P17_a_caller_chosen_id_shaped_like_a_generated_one_is_skipped_and_removed_exactly() {
    JobTable table = new JobTable();
    Job chosen = job("job-1", 0);
    table.add(chosen);
    assertThat(table.nextGenerated()).isEqualTo(2);
    table.remove(job("job-1", 0));
    assertThat(table.get("job-1")).as("only that very job is removed").isSameAs(chosen);
    table.remove(chosen);
    assertThat(table.get("job-1")).isNull();
  }
}
