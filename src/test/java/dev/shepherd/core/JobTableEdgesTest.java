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
    List<Job> all = new ArrayList<>();
    // job-1 ... job-1100 are held at once, so the ring grows to 2048 positions; then all but
    // job-1, -2, -3 and -700 are answered. The next job would make the ring span 1101 positions
    // for 5 jobs, so the ring compacts first, while it spans 1100 positions of 2048.
    for (int i = 1; i <= 1100; i++) {
      all.add(generated(table));
    }
    List<Job> kept = new ArrayList<>();
    for (Job job : all) {
      if (job.generated <= 3 || job.generated == 700) {
        kept.add(job);
      } else {
        table.remove(job);
      }
    }
    Job next = generated(table);
    assertThat(table.size()).isEqualTo(5);
    for (Job job : kept) {
      assertThat(table.get(job.id)).as(job.id).isSameAs(job);
    }
    assertThat(table.get(next.id)).isSameAs(next);
    assertThat(table.get("job-1025")).as("answered before the ring compacted").isNull();
    assertThat(table.values()).hasSize(5).containsAll(kept).contains(next);
    assertThat(table.ringCapacity()).isEqualTo(2048);
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

  @Test
  void P15_a_straggler_behind_a_long_run_keeps_the_ring_short_not_as_long_as_the_run() {
    JobTable table = new JobTable();
    Job straggler = generated(table);
    Job previous = null;
    for (int i = 0; i < 20_000; i++) {
      Job next = generated(table);
      if (previous != null) {
        table.remove(previous);
      }
      previous = next;
    }
    assertThat(table.get(straggler.id)).isSameAs(straggler);
    assertThat(table.get(previous.id)).isSameAs(previous);
    // It compacts once the span passes 1,024 positions: the ring never doubles past 2,048.
    assertThat(table.ringCapacity()).isLessThanOrEqualTo(2048);
  }

  @Test
  void A3_jobs_added_far_apart_in_one_step_move_to_the_map_and_the_ring_stays_small() {
    JobTable table = new JobTable();
    Job near = job("job-1", 1);
    Job far = job("job-100000000", 100_000_000);
    Job farther = job("job-4000000000", 4_000_000_000L);
    table.add(near);
    table.add(far);
    table.add(farther);
    assertThat(table.ringCapacity()).isEqualTo(16);
    assertThat(table.size()).isEqualTo(3);
    assertThat(table.values()).containsExactlyInAnyOrder(near, far, farther);
    assertThat(table.get("job-1")).isSameAs(near);
    assertThat(table.get("job-100000000")).isSameAs(far);
    assertThat(table.get("job-4000000000")).isSameAs(farther);
    table.remove(far);
    assertThat(table.get("job-100000000")).isNull();
    assertThat(table.size()).isEqualTo(2);
  }

  @Test
  void P15_a_dense_run_stays_in_the_ring_however_long_it_grows() {
    JobTable table = new JobTable();
    List<Job> all = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      all.add(generated(table));
    }
    assertThat(table.ringCapacity()).isEqualTo(8192);
    for (Job job : all) {
      assertThat(table.get(job.id)).isSameAs(job);
    }
  }

  @Test
  void P15_the_ring_compacts_when_an_add_would_make_it_span_over_1024_positions() {
    JobTable table = new JobTable();
    generated(table);
    Job previous = generated(table);
    while (table.generatedSoFar() < 1023) {
      Job next = generated(table);
      table.remove(previous);
      previous = next;
    }
    generated(table);
    assertThat(table.inRing()).as("job-1024: the ring spans 1024 positions").isEqualTo(3);
    table.remove(previous);
    generated(table);
    assertThat(table.inRing()).as("job-1025 would make it span 1025: compacted").isEqualTo(1);
    assertThat(table.size()).isEqualTo(3);
  }

  @Test
  void P15_the_ring_compacts_when_an_add_would_leave_over_four_positions_per_job() {
    JobTable table = new JobTable();
    List<Job> answered = new ArrayList<>();
    generated(table);
    for (int n = 2; n < 1200; n++) {
      Job job = generated(table);
      if (n % 4 != 0 || n > 1192) {
        answered.add(job);
      }
    }
    answered.forEach(table::remove);
    assertThat(table.inRing()).as("job-1 and 298 of the multiples of 4").isEqualTo(299);
    Job exactlyFour = generated(table);
    assertThat(table.inRing()).as("job-1200: 1200 positions for 300 jobs").isEqualTo(300);
    table.remove(exactlyFour);
    generated(table);
    assertThat(table.inRing()).as("job-1201: 1201 positions for 300 jobs").isEqualTo(1);
    assertThat(table.size()).isEqualTo(300);
  }
}
