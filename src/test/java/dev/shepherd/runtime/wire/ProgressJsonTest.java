package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Effect;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * The JSON of a job's progress (T2): the message to the submitter carries the report whole, an
 * event carries it up to {@link ProgressJson#EVENT_BYTES} bytes and only its size beyond, and a
 * progress message is told apart from an answer.
 */
class ProgressJsonTest {
  private static final JsonObject REPORT = new JsonObject().put("step", 3);

  private static Effect.Progress progress(long bytes) {
    return new Effect.Progress("reply.1", "j1", "w-0", 7, 2, REPORT, bytes);
  }

  @Test
  void T2_the_message_to_the_submitter_carries_the_report_whole() {
    assertThat(ProgressJson.message(progress(ProgressJson.EVENT_BYTES + 1))).isEqualTo(
        new JsonObject().put("type", "progress").put("job", "j1").put("worker", "w-0")
            .put("attempt", 2).put("progress", REPORT));
  }

  @Test
  void T2_an_event_carries_a_report_of_up_to_its_limit_whole() {
    assertThat(ProgressJson.event("jobs", progress(ProgressJson.EVENT_BYTES), 1_000L)).isEqualTo(
        new JsonObject().put("pool", "jobs").put("at", 1_000L).put("type", "progress")
            .put("job", "j1").put("worker", "w-0").put("attempt", 2).put("progress", REPORT));
  }

  @Test
  void T2_an_event_leaves_out_a_report_over_its_limit_and_says_its_size() {
    JsonObject event = ProgressJson.event("jobs", progress(ProgressJson.EVENT_BYTES + 1), 1_000L);

    assertThat(event.containsKey("progress")).isTrue();
    assertThat(event.getValue("progress")).isNull();
    assertThat(event.getLong("progressBytes")).isEqualTo(ProgressJson.EVENT_BYTES + 1);
    assertThat(event.fieldNames()).containsExactly("pool", "at", "type", "job", "worker",
        "attempt", "progress", "progressBytes");
  }

  @Test
  void T2_a_progress_message_is_told_apart_from_an_answer() {
    assertThat(ProgressJson.isProgress(ProgressJson.message(progress(1)))).isTrue();
    assertThat(ProgressJson.isProgress(new JsonObject().put("type", "completed"))).isFalse();
    assertThat(ProgressJson.isProgress(new JsonObject())).isFalse();
    assertThat(ProgressJson.isProgress("progress")).isFalse();
    assertThat(ProgressJson.isProgress(null)).isFalse();
  }
}
