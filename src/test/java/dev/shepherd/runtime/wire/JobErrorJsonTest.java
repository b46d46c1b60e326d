package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * The one JSON codec of a {@link JobError} (J1): the tree and the streaming writer write the same
 * bytes, what is written reads back the same, and a malformed error is refused naming its field.
 */
class JobErrorJsonTest {
  private static final JobError TYPED = new JobError(503, "disk full", "java.io.IOException");
  private static final JobError UNTYPED = new JobError(500, "boom");

  @Test
  void J1_an_error_is_code_message_and_type_only_when_known() {
    assertThat(JobErrorJson.encode(TYPED).encode())
        .isEqualTo("{\"code\":503,\"message\":\"disk full\",\"type\":\"java.io.IOException\"}");
    assertThat(JobErrorJson.encode(UNTYPED).encode())
        .isEqualTo("{\"code\":500,\"message\":\"boom\"}");
  }

  @Test
  void J1_the_streaming_writer_writes_the_bytes_the_tree_does() throws Exception {
    for (JobError error : new JobError[] {TYPED, UNTYPED}) {
      StringWriter out = new StringWriter();
      try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
        JobErrorJson.write(json, error);
      }
      assertThat(out).hasToString(JobErrorJson.encode(error).encode());
    }
  }

  @Test
  void J1_what_is_written_reads_back_the_same_strictly_and_leniently() {
    for (JobError error : new JobError[] {TYPED, UNTYPED}) {
      JsonObject json = new JsonObject(JobErrorJson.encode(error).encode());
      assertThat(JobErrorJson.decode(json, "error.")).isEqualTo(error);
      assertThat(JobErrorJson.read(json)).isEqualTo(error);
    }
  }

  @Test
  void J1_a_failed_answer_carries_the_error_as_the_codec_writes_it() {
    Outcome failed = new Outcome.Failed("j", TYPED, "w-0", 2);

    assertThat(OutcomeJson.encode(failed).getJsonObject("error"))
        .isEqualTo(JobErrorJson.encode(TYPED));
    assertThat(OutcomeJson.decode(OutcomeJson.encode(failed))).isEqualTo(failed);
  }

  @Test
  void an_event_clips_the_error_s_texts_and_keeps_its_shape() {
    String longText = "x".repeat(EventJson.MAX_TEXT + 100);
    JsonObject summary = EventJson.summary(
        new Outcome.Failed("j", new JobError(500, longText, longText), "w-0", 1));

    assertThat(summary.getJsonObject("error").fieldNames())
        .containsExactly("code", "message", "type");
    assertThat(summary.getJsonObject("error").getString("message"))
        .isEqualTo(EventJson.clip(longText)).hasSizeLessThan(longText.length());
    assertThat(summary.getJsonObject("error").getString("type")).isEqualTo(EventJson.clip(longText));
  }

  @Test
  void a_lenient_read_stands_in_for_what_is_missing() {
    assertThat(JobErrorJson.read(null)).isEqualTo(new JobError(500, ""));
    assertThat(JobErrorJson.read(new JsonObject().put("message", "m")))
        .isEqualTo(new JobError(500, "m"));
  }

  @Test
  void J1_a_code_is_any_int_even_as_a_long() {
    for (long code : new long[] {503, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
      assertThat(JobErrorJson.decode(new JsonObject().put("code", code).put("message", "m"),
          "error.")).isEqualTo(new JobError((int) code, "m"));
    }
  }

  @Test
  void a_malformed_error_is_refused_naming_the_field_under_its_path() {
    String type = "items[0].error.type: must be a non-empty string, the exception's class name,"
        + " or left out when there is none (was ";
    assertRefused("boom", "items[0].error: must be an object {\"code\": int, \"message\": str,"
        + " \"type\"?: str} (was a string)");
    assertRefused(new JsonObject().put("code", "500").put("message", "m"),
        "items[0].error.code: must be an integer (was a string)");
    assertRefused(new JsonObject().put("code", 1L << 40).put("message", "m"),
        "items[0].error.code: must be an integer (was 1099511627776)");
    assertRefused(new JsonObject().put("code", Integer.MIN_VALUE - 1L).put("message", "m"),
        "items[0].error.code: must be an integer (was -2147483649)");
    assertRefused(new JsonObject().put("message", "m"),
        "items[0].error.code: must be an integer (was missing)");
    assertRefused(new JsonObject().put("code", 500),
        "items[0].error.message: must be a string (was missing)");
    assertRefused(new JsonObject().put("code", 500).put("message", false),
        "items[0].error.message: must be a string (was false)");
    assertRefused(new JsonObject().put("code", 500).put("message", "m").put("type", ""),
        type + "a string)");
    assertRefused(new JsonObject().put("code", 500).put("message", "m").put("type", 7),
        type + "7)");
    assertRefused(new JsonObject().put("code", 500).put("message", "m").put("type",
        new JsonArray()), type + "an array)");
    assertRefused(new JsonObject().put("code", 500).put("message", "m").put("type",
        new JsonObject()), type + "an object)");
    assertRefused(new JsonObject().put("code", 500).put("message", "m").put("stack", "…"),
        "items[0].error.stack: unknown field; expected [code, message, type]");
  }

  private static void assertRefused(Object error, String message) {
    assertThatThrownBy(() -> JobErrorJson.decode(error, "items[0].error."))
        .isInstanceOf(BadRequest.class).hasMessage(message);
  }
}
