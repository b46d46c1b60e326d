package dev.shepherd.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import org.junit.jupiter.api.Test;

/**
 * {@link FailureCauses}: a kept throwable goes to the answer that is its failure, and with any
 * terminal answer of its job; a rejection of a submit with the same id leaves it.
 */
class FailureCausesTest {
  private static final JobError ERROR = new JobError(500, "boom", "java.io.IOException");
  private final FailureCauses causes = new FailureCauses();
  private final Throwable boom = new java.io.IOException("boom");

  @Test
  void the_failure_answer_takes_its_throwable() {
    causes.failed("j", ERROR, boom);

    assertThat(causes.answered(new Outcome.Failed("j", ERROR, "w-0", 1))).isSameAs(boom);
    assertThat(causes.size()).isZero();
  }

  @Test
  void a_failure_with_another_error_a_worker_hosts_takes_none_and_drops_the_kept_one() {
    causes.failed("j", ERROR, boom);

    assertThat(causes.answered(new Outcome.Failed("j", new JobError(500, "elsewhere"), "h1/w-0",
        2))).isNull();
    assertThat(causes.size()).isZero();
  }

  @Test
  void any_other_terminal_answer_drops_it() {
    causes.failed("a", ERROR, boom);
    causes.failed("b", ERROR, boom);
    causes.failed("c", ERROR, boom);

    assertThat(causes.answered(new Outcome.Completed("a", "ok", "w-0", 2))).isNull();
    assertThat(causes.answered(new Outcome.Cancelled("b"))).isNull();
    assertThat(causes.answered(new Outcome.Interrupted("c", null, 2,
        new Interruption.PoolStopped()))).isNull();
    assertThat(causes.size()).isZero();
  }

  @Test
  void the_admission_and_a_rejection_of_a_submit_with_the_same_id_leave_it() {
    causes.failed("j", ERROR, boom);

    assertThat(causes.answered(new Outcome.Accepted("j"))).isNull();
    assertThat(causes.answered(new Outcome.Rejected("j", RejectionReason.DUPLICATE_JOB, null,
        "already held"))).isNull();
    assertThat(causes.size()).isEqualTo(1);
  }
}
