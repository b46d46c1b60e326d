package dev.shepherd.runtime.slot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.Job;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link AssignedJobs}: jobs held until their completion hands them back, positions reused. */
class AssignedJobsTest {
  private final AssignedJobs assigned = new AssignedJobs();

  private static Job job(long assignment) {
    return new Job("job-" + assignment, "payload", 1, null, "w-0", 1, assignment);
  }

  /** A job of {@code assignment}, handed over. */
  private Job handed(long assignment) {
    Job job = job(assignment);
    assigned.add(job);
    return job;
  }

  @Test
  void a_held_job_is_found_by_its_assignment_until_it_completes() {
    Job a = handed(7);
    Job b = handed(8);

    assertThat(assigned.get(8)).isSameAs(b);
    assertThat(assigned.all()).containsExactlyInAnyOrder(a, b);

    assigned.remove(b);
    assertThat(assigned.get(8)).isNull();
    assertThat(assigned.get(7)).isSameAs(a);
    assertThat(assigned.size()).isEqualTo(1);
  }

  @Test
  void a_completion_handed_back_twice_or_for_a_job_never_held_changes_nothing() {
    Job a = handed(1);
    Job b = handed(2);
    assigned.remove(a);
    Job c = handed(3); // takes a's position

    assigned.remove(a);
    assigned.remove(job(4));

    assertThat(assigned.all()).containsExactlyInAnyOrder(b, c);
    assertThat(assigned.size()).isEqualTo(2);
  }

  @Test
  void whoever_waits_for_it_to_hold_none_is_answered_at_the_last_completion() {
    Job a = handed(1);
    Job b = handed(2);
    Promise<Void> idle = Promise.promise();
    assigned.whenIdle(idle, false);

    assigned.remove(a);
    assertThat(idle.future().isComplete()).isFalse();
    assigned.remove(b);
    assertThat(idle.future().succeeded()).isTrue();
  }

  @Test
  void a_wait_is_answered_at_once_when_none_is_held_or_when_told_to() {
    Promise<Void> empty = Promise.promise();
    assigned.whenIdle(empty, false);
    assertThat(empty.future().succeeded()).isTrue();

    handed(1);
    Promise<Void> stopped = Promise.promise();
    assigned.whenIdle(stopped, true);
    assertThat(stopped.future().succeeded()).isTrue();

    Promise<Void> released = Promise.promise();
    assigned.whenIdle(released, false);
    assigned.released();
    assertThat(released.future().succeeded()).isTrue();
  }

  /** Seeded: random hand-overs and completions against a list that holds the same jobs. */
  @Test
  void it_holds_exactly_the_jobs_handed_over_and_not_completed() {
    for (long seed = 1; seed <= 50; seed++) {
      Random rnd = new Random(seed);
      AssignedJobs held = new AssignedJobs();
      List<Job> model = new ArrayList<>();
      long next = 1;
      for (int step = 0; step < 400; step++) {
        if (model.isEmpty() || rnd.nextInt(3) > 0 && model.size() < 100) {
          Job job = job(next++);
          held.add(job);
          model.add(job);
        } else {
          Job done = model.remove(rnd.nextInt(model.size()));
          held.remove(done);
        }
        assertThat(held.size()).as("seed %d step %d", seed, step).isEqualTo(model.size());
      }
      assertThat(held.all()).as("seed %d", seed).containsExactlyInAnyOrderElementsOf(model);
      for (Job job : model) {
        assertThat(held.get(job.assignment())).isSameAs(job);
      }
    }
  }
}
