package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Timer.JobDeadline}'s written-out equality and hash are the record's own: equal exactly
 * when both components are, and hashed as a record of the same components is.
 */
class JobDeadlineTest {
  /** A record of the same shape, with the methods Java generates. */
  private record Generated(String worker, long assignment) {}

  @Test
  void P14_a_deadline_equals_and_hashes_as_a_record_of_its_slot_and_assignment() {
    SplittableRandom rnd = new SplittableRandom(42);
    String[] workers = {"w-0", "w-1", "remote/host-a/w-0", null};
    for (int i = 0; i < 10_000; i++) {
      String w1 = workers[rnd.nextInt(workers.length)];
      String w2 = rnd.nextBoolean() ? w1 : workers[rnd.nextInt(workers.length)];
      long a1 = rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextInt(4);
      long a2 = rnd.nextBoolean() ? a1 : rnd.nextInt(4);
      Timer.JobDeadline d1 = new Timer.JobDeadline(w1, a1);
      Timer.JobDeadline d2 = new Timer.JobDeadline(w2, a2);
      assertThat(d1.equals(d2)).isEqualTo(new Generated(w1, a1).equals(new Generated(w2, a2)));
      assertThat(d1.hashCode()).isEqualTo(new Generated(w1, a1).hashCode());
    }
    Timer.JobDeadline deadline = new Timer.JobDeadline("w-0", 1);
    assertThat(deadline).isNotEqualTo(new Timer.ProgressSilence("w-0", 1)).isNotEqualTo(null);
    assertThat(deadline.toString()).isEqualTo("JobDeadline[worker=w-0, assignment=1]");
  }
}
