package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.core.Retirement;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Protocol v1's outcome bodies (section 6) as {@link OutcomeJson} writes them: a payload handed
 * back in the bytes it arrived in is spliced in as they are, the reasons that carry no detail are
 * their kind alone, and an answer is written whatever its result holds.
 */
class OutcomeJsonTest {
  /** A payload larger than the rest of the answer, as the bytes a body held. */
  private static final String PAYLOAD_TEXT = "{\"big\":\"" + "x".repeat(1_000) + "\"}";

  private static RawJson raw() {
    return new RawJson(PAYLOAD_TEXT.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void P3_a_refused_payload_kept_as_bytes_is_handed_back_byte_for_byte() {
    Outcome rejected = new Outcome.Rejected("j1", RejectionReason.BACKLOG_FULL, raw(), "full");

    assertThat(OutcomeJson.toBuffer(rejected).toString()).isEqualTo("{\"type\":\"rejected\","
        + "\"job\":\"j1\",\"reason\":\"BACKLOG_FULL\",\"message\":\"full\",\"payload\":"
        + PAYLOAD_TEXT + "}");
  }

  @Test
  void P9_an_interrupted_payload_kept_as_bytes_is_handed_back_byte_for_byte() {
    Outcome interrupted = new Outcome.Interrupted("j1", raw(), 2,
        new Interruption.WorkerStopped("w-0", Exit.CRASH, "boom"));

    assertThat(OutcomeJson.toBuffer(interrupted).toString()).isEqualTo("{\"type\":"
        + "\"interrupted\",\"job\":\"j1\",\"attempts\":2,\"reason\":{\"kind\":\"WORKER_STOPPED\","
        + "\"worker\":\"w-0\",\"exit\":\"CRASH\",\"cause\":\"boom\"},\"payload\":" + PAYLOAD_TEXT
        + "}");
  }

  @Test
  void P3_a_payload_that_is_not_bytes_is_written_as_the_tree_is() {
    Outcome rejected = new Outcome.Rejected("j1", RejectionReason.BACKLOG_FULL,
        new JsonObject().put("n", 1), "full");

    assertThat(OutcomeJson.toBuffer(rejected)).isEqualTo(OutcomeJson.encode(rejected).toBuffer());
    assertThat(OutcomeJson.toBuffer(new Outcome.Cancelled("j1")).toString())
        .isEqualTo("{\"type\":\"cancelled\",\"job\":\"j1\"}");
  }

  @Test
  void P11_P16_a_reason_without_details_is_its_kind_alone() {
    for (Interruption reason : new Interruption[] {new Interruption.NoRecoverableWorkers(),
        new Interruption.PoolStopped()}) {
      JsonObject json = OutcomeJson.encode(reason);

      assertThat(json).isEqualTo(new JsonObject().put("kind", reason.kind()));
      assertThat(OutcomeJson.decodeReason(json)).isEqualTo(reason);
    }
  }

  @Test
  void P10_a_job_bound_to_a_retired_slot_is_told_which_slot_and_why() {
    Interruption reason = new Interruption.AffinityRetired("w-1", Retirement.CREATION_REJECTED);
    JsonObject json = OutcomeJson.encode(reason);

    assertThat(json).isEqualTo(new JsonObject().put("kind", "AFFINITY_RETIRED").put("worker", "w-1")
        .put("retirement", "CREATION_REJECTED"));
    assertThat(OutcomeJson.decodeReason(json)).isEqualTo(reason);
  }

  @Test
  void P8_a_result_that_cannot_be_encoded_is_answered_failed() {
    Object unwritable = new Object() {
      @Override
      public String toString() {
        throw new IllegalStateException("no text");
      }
    };

    JsonObject answer = OutcomeJson.encodeSafely(new Outcome.Completed("j1", unwritable, "w-0", 1));

    assertThat(answer.getString("type")).isEqualTo("failed");
    assertThat(answer.getJsonObject("error").getString("message"))
        .startsWith("RESULT_NOT_ENCODABLE: ").contains("no text");
    assertThat(answer.getString("worker")).isEqualTo("w-0");
  }

  @Test
  void every_outcome_is_typed_by_its_kinds_name_in_lower_case() {
    java.util.List<Outcome> each = java.util.List.of(new Outcome.Accepted("j"),
        new Outcome.Rejected("j", RejectionReason.BACKLOG_FULL, null, "full"),
        new Outcome.Completed("j", 1, "w-0", 1),
        new Outcome.Failed("j", new dev.shepherd.core.JobError(500, "m"), "w-0", 1),
        new Outcome.Interrupted("j", null, 1, new Interruption.PoolStopped()),
        new Outcome.Cancelled("j"));
    assertThat(each).<Object>extracting(o -> o.getClass())
        .containsExactlyInAnyOrder((Object[]) Outcome.class.getPermittedSubclasses());
    for (Outcome outcome : each) {
      assertThat(OutcomeJson.type(outcome))
          .isEqualTo(outcome.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT));
    }
  }
}
