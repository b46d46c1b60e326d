package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.Attempt;
import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.DeadLetterPage;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JSON of J5's dead letters and J6's job views ({@link DeadLetterJson}, {@link
 * JobViewJson}): the documented fields, and a decode of what was encoded gives the value back
 * (a pool reached over the bus answers with them).
 */
class JobJsonTest {
  private static final Interruption.WorkerStopped CRASHED =
      new Interruption.WorkerStopped("w-1", Exit.CRASH, "boom");
  private static final JsonObject PAYLOAD = new JsonObject().put("crash", true);
  private static final Outcome POISONED = new Outcome.Interrupted("j1", PAYLOAD, 2,
      new Interruption.Poison(2, CRASHED));
  private static final DeadLetter ENTRY = new DeadLetter("j1", "tenant-7", PAYLOAD, 130, 30_000,
      List.of(new Attempt(1, "w-0", 1, 100, 110, "CRASH", "boom"),
          new Attempt(2, "w-1", 3, 140, 150, "CRASH", null)), POISONED, 150, "tenants", 2, null);

  @Test
  void J5_an_entry_has_the_documented_fields_and_decodes_to_itself() {
    JsonObject json = DeadLetterJson.encode(ENTRY);

    assertThat(json.fieldNames()).containsExactly("job", "key", "reason", "payload", "bytes",
        "timeoutMs", "attempts", "answer", "at", "group", "priority");
    assertThat(json.getString("reason")).isEqualTo("POISON");
    assertThat(json.getJsonObject("answer")).isEqualTo(OutcomeJson.encode(POISONED));
    assertThat(json.getJsonArray("attempts").getJsonObject(1)).isEqualTo(new JsonObject()
        .put("attempt", 2).put("worker", "w-1").put("incarnation", 3).put("startedAt", 140)
        .put("endedAt", 150).put("ended", "CRASH").putNull("detail"));
    assertThat(DeadLetterJson.decode(new JsonObject(json.encode()))).isEqualTo(ENTRY);
  }

  @Test
  void J5_a_payload_kept_as_the_bytes_it_arrived_in_is_written_as_json() {
    RawJson raw = RequestDecoder.submit(Buffer.buffer("{\"payload\":{\"a\":[1,2]}}"))
        .payload() instanceof RawJson r ? r : null;
    assertThat(raw).as("an HTTP submit keeps its payload as bytes").isNotNull();
    DeadLetter entry = new DeadLetter("j2", null, raw, 10, 0, List.of(),
        new Outcome.Failed("j2", new JobError(500, "no", "java.lang.IllegalStateException"),
            "w-0", 1), 5);

    JsonObject json = DeadLetterJson.encode(entry);

    assertThat(json.getJsonObject("payload"))
        .isEqualTo(new JsonObject().put("a", new JsonArray().add(1).add(2)));
    assertThat(json.getString("reason")).isEqualTo("FAILED");
    assertThat(json.containsKey("key")).isTrue();
    assertThat(json.getJsonObject("answer").getJsonObject("error").getString("type"))
        .isEqualTo("java.lang.IllegalStateException");
  }

  @Test
  void J5_a_page_decodes_to_itself() {
    DeadLetterPage page = new DeadLetterPage("jobs", 3, 7, 1, 1, List.of(ENTRY));

    JsonObject json = DeadLetterJson.encode(page);

    assertThat(json.fieldNames()).containsExactly("pool", "size", "evicted", "offset", "limit",
        "entries");
    assertThat(DeadLetterJson.decodePage(new JsonObject(json.encode()))).isEqualTo(page);
  }

  @Test
  void J6_a_view_has_only_the_fields_that_apply_and_decodes_to_itself() {
    List<JobView> views = List.of(
        new JobView("q", JobView.JobState.QUEUED, "k", 3, null, null, 0, null, null, null),
        new JobView("w", JobView.JobState.WAITING, null, null, 1_000L, null, 1, null, null, null),
        new JobView("r", JobView.JobState.RUNNING, null, null, null, "w-0", 2, null, null, null),
        new JobView("p", JobView.JobState.RUNNING, null, null, null, "w-0", 1, null, null, null,
            new JsonObject().put("step", 3)),
        new JobView("a", JobView.JobState.ANSWERED, null, null, null, "w-0", 1,
            new Outcome.Completed("a", new JsonObject().put("x", 1), "w-0", 1), 99L, null),
        new JobView("j1", JobView.JobState.DEAD, "tenant-7", null, null, "w-1", 2, POISONED,
            150L, ENTRY));

    for (JobView view : views) {
      assertThat(JobViewJson.decode(new JsonObject(JobViewJson.encode(view).encode())))
          .isEqualTo(view);
    }
    assertThat(JobViewJson.encode(views.get(0))).isEqualTo(new JsonObject().put("job", "q")
        .put("state", "QUEUED").put("key", "k").put("position", 3).put("attempts", 0));
    assertThat(JobViewJson.encode(views.get(1)).fieldNames())
        .containsExactly("job", "state", "dueAt", "attempts");
    assertThat(JobViewJson.encode(views.get(3)).fieldNames())
        .containsExactly("job", "state", "worker", "attempts", "progress");
    assertThat(JobViewJson.encode(views.get(5)).fieldNames()).containsExactly("job", "state",
        "key", "worker", "attempts", "outcome", "at", "deadLetter");
    assertThat(JobViewJson.encodeWaited(views.get(2)).getBoolean("waited")).isTrue();
  }

  @Test
  void J6_a_reply_that_is_not_a_view_is_refused_naming_the_field() {
    assertThatThrownBy(() -> JobViewJson.decode(new JsonObject().put("job", "j")))
        .hasMessageStartingWith("state");
    assertThatThrownBy(() -> JobViewJson.decode(new JsonObject().put("job", "j")
        .put("state", "LOST"))).hasMessageStartingWith("state");
    assertThatThrownBy(() -> DeadLetterJson.decode(DeadLetterJson.encode(ENTRY)
        .put("attempts", "none"))).hasMessageStartingWith("attempts");
    assertThatThrownBy(() -> DeadLetterJson.decodePage(new JsonObject().put("pool", "p")))
        .hasMessageStartingWith("entries");
  }
}
