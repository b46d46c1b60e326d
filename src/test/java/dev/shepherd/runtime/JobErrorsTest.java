package dev.shepherd.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.slot.JobErrors;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The one reading of a job's failure as its {@link JobError} (J1): the exception's class name as
 * {@code type}, 500 unless the failure chose a code, its message (or its string form).
 */
class JobErrorsTest {

  @Test
  void J1_an_exception_gives_code_500_its_message_and_its_class_name() {
    assertThat(JobErrors.of(new IllegalStateException("bad state")))
        .isEqualTo(new JobError(500, "bad state", "java.lang.IllegalStateException"));
    assertThat(JobErrors.of(new IOException("disk")))
        .isEqualTo(new JobError(500, "disk", "java.io.IOException"));
  }

  @Test
  void J1_any_throwable_is_read_the_same_way_an_Error_too() {
    assertThat(JobErrors.of(new StackOverflowError("deep")))
        .isEqualTo(new JobError(500, "deep", "java.lang.StackOverflowError"));
  }

  @Test
  void J1_an_exception_without_a_message_gives_its_string_form() {
    assertThat(JobErrors.of(new NullPointerException()))
        .isEqualTo(new JobError(500, "java.lang.NullPointerException",
            "java.lang.NullPointerException"));
  }

  @Test
  void J1_a_ReplyException_keeps_its_failure_code_and_a_BadRequest_is_400() {
    assertThat(JobErrors.of(new ReplyException(ReplyFailure.RECIPIENT_FAILURE, 418, "teapot")))
        .isEqualTo(new JobError(418, "teapot", "io.vertx.core.eventbus.ReplyException"));
    assertThat(JobErrors.of(new BadRequest("payload: not JSON")))
        .isEqualTo(new JobError(400, "payload: not JSON", "dev.shepherd.runtime.payload.BadRequest"));
  }

  @Test
  void J1_a_failure_made_from_a_bare_message_names_no_type() {
    assertThat(JobErrors.of(Future.failedFuture("plain").cause()))
        .isEqualTo(new JobError(500, "plain"));
    Promise<Object> promise = Promise.promise();
    promise.fail("also plain");
    assertThat(JobErrors.of(promise.future().cause())).isEqualTo(new JobError(500, "also plain"));
  }

  @Test
  void J1_a_relayed_job_failure_keeps_the_error_it_carries() {
    JobError inner = new JobError(409, "conflict", "com.example.Conflict");
    JobFailedException relayed =
        (JobFailedException) JobException.of(new Outcome.Failed("j", inner, "w-1", 1));

    assertThat(JobErrors.of(relayed)).isEqualTo(inner);
  }
}
