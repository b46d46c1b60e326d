package dev.shepherd.runtime.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * T1 with A3 (docs/rules.md) in the journal's text: an accepted record and a job image carry the
 * submitter's trace beside them when the leader has one, the decoders hand it back by job id, and
 * what was written without one (tracing off, or a version before traces were journaled) reads
 * as before, with no trace.
 */
class DurableJsonTraceTest {
  private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  private static final JournalTrace TRACED = new JournalTrace(PARENT, "vendor=opaque",
      1_767_225_600_123L);
  private static final JournalTrace PLAIN = new JournalTrace(
      "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", null);

  private static RawJson raw(String text) {
    return new RawJson(text.getBytes(StandardCharsets.UTF_8));
  }

  private static DurableRecord.Accepted accepted(String job, long order) {
    return new DurableRecord.Accepted(job, 0, order, raw("{}"), null, "r", 0, 2, null);
  }

  private static DurableGate.Batch batch(DurableRecord... records) {
    return new DurableGate.Batch(3, List.of(records), List.of(), false, List.of(), null);
  }

  private static DurableLog.Base base(String... jobs) {
    List<DurableImage.JobImage> images = new java.util.ArrayList<>();
    for (int i = 0; i < jobs.length; i++) {
      images.add(new DurableImage.JobImage(jobs[i], 0, i + 1, raw("1"), null, "r", 0, 1, null,
          1, "w-0", null));
    }
    return new DurableLog.Base(new DurableImage(2, 0, images, List.of(), List.of()), List.of());
  }

  @Test
  void T1_an_accepted_record_keeps_its_trace_and_reads_back_the_same_record() {
    DurableGate.Batch batch = batch(accepted("a", 1), accepted("b", 2), accepted("c", 3),
        new DurableRecord.Assigned("a", "w-0", 1));
    String text = DurableJson.encode(batch, Map.of("a", TRACED, "b", PLAIN));

    Map<String, JournalTrace> traces = new HashMap<>();
    DurableGate.Batch read = DurableJson.decodeBatch(text, traces);

    assertThat(read).isEqualTo(DurableJson.decodeBatch(DurableJson.encode(batch)));
    assertThat(read.records()).isEqualTo(batch.records());
    assertThat(traces).containsOnly(Map.entry("a", TRACED), Map.entry("b", PLAIN));
    JsonObject a = new JsonObject(text).getJsonArray("records").getJsonObject(0);
    assertThat(a.getLong("admittedAt")).isEqualTo(TRACED.admittedAt());
    JsonObject b = new JsonObject(text).getJsonArray("records").getJsonObject(1);
    assertThat(b.getString("trace")).isEqualTo(PLAIN.traceparent());
    assertThat(b.containsKey("tracestate")).as("no tracestate: left out").isFalse();
    assertThat(b.containsKey("admittedAt")).as("admission not known: left out").isFalse();
    assertThat(new JsonObject(text).getJsonArray("records").getJsonObject(2).containsKey("trace"))
        .isFalse();
  }

  @Test
  void T1_a_batch_without_traces_writes_no_trace_field_and_reads_none() {
    DurableGate.Batch batch = batch(accepted("a", 1));
    String text = DurableJson.encode(batch);
    assertThat(text).doesNotContain("trace");
    assertThat(DurableJson.encode(batch, Map.of())).isEqualTo(text);
    Map<String, JournalTrace> traces = new HashMap<>();
    assertThat(DurableJson.decodeBatch(text, traces)).isEqualTo(DurableJson.decodeBatch(text));
    assertThat(traces).isEmpty();
  }

  @Test
  void T1_a_record_written_before_traces_were_journaled_reads_as_before_with_no_trace() {
    // As an earlier version wrote it: no "trace" field anywhere.
    String old = "{\"id\":7,\"records\":[{\"t\":\"accepted\",\"job\":\"old\",\"generated\":0,"
        + "\"order\":1,\"payload\":\"{}\",\"key\":null,\"replyTo\":\"r\",\"timeoutMs\":0,"
        + "\"bytes\":2,\"target\":null}],\"delivered\":[],\"checkpoint\":false,"
        + "\"undelivered\":[]}";
    Map<String, JournalTrace> traces = new HashMap<>();
    DurableGate.Batch read = DurableJson.decodeBatch(old, traces);
    assertThat(read.records()).containsExactly(accepted("old", 1));
    assertThat(traces).isEmpty();
  }

  @Test
  void T1_a_trace_written_before_admissions_were_journaled_reads_with_its_admission_unknown() {
    JsonObject record = DurableRecordJson.encode(accepted("a", 1)).put("trace", PARENT);
    JsonObject odd = DurableRecordJson.encode(accepted("b", 2)).put("trace", PARENT)
        .put("admittedAt", "yesterday");
    String text = new JsonObject().put("id", 1).put("records", new io.vertx.core.json.JsonArray()
            .add(record).add(odd)).put("delivered", new io.vertx.core.json.JsonArray())
        .put("checkpoint", false).put("undelivered", new io.vertx.core.json.JsonArray()).encode();
    Map<String, JournalTrace> traces = new HashMap<>();
    DurableJson.decodeBatch(text, traces);
    assertThat(traces).containsOnly(Map.entry("a", new JournalTrace(PARENT, null)),
        Map.entry("b", new JournalTrace(PARENT, null)));
  }

  @Test
  void T1_a_checkpoint_images_jobs_keep_their_traces() {
    DurableLog.Base base = base("x", "y", "z");
    String text = DurableJson.encode(base, Map.of("x", TRACED, "z", PLAIN, "gone", PLAIN));

    Map<String, JournalTrace> traces = new HashMap<>();
    DurableLog.Base read = DurableJson.decodeBase(text, traces);

    assertThat(read.image()).isEqualTo(base.image());
    assertThat(traces).containsOnly(Map.entry("x", TRACED), Map.entry("z", PLAIN));
    assertThat(traces.get("x").admittedAt()).isEqualTo(1_767_225_600_123L);
    assertThat(DurableJson.encode(base)).doesNotContain("trace").doesNotContain("admittedAt");
    Map<String, JournalTrace> none = new HashMap<>();
    assertThat(DurableJson.decodeBase(DurableJson.encode(base), none).image())
        .isEqualTo(base.image());
    assertThat(none).isEmpty();
  }

  @Test
  void T1_a_trace_field_that_is_not_text_reads_as_no_trace_and_a_job_accepted_again_untraced_has_none() {
    JsonObject record = DurableRecordJson.encode(accepted("a", 1)).put("trace", 12);
    String odd = new JsonObject().put("id", 1).put("records", new io.vertx.core.json.JsonArray()
            .add(record)).put("delivered", new io.vertx.core.json.JsonArray())
        .put("checkpoint", false).put("undelivered", new io.vertx.core.json.JsonArray()).encode();
    Map<String, JournalTrace> traces = new HashMap<>();
    assertThat(DurableJson.decodeBatch(odd, traces).records()).containsExactly(accepted("a", 1));
    assertThat(traces).isEmpty();

    Map<String, JournalTrace> later = new HashMap<>();
    DurableJson.decodeBase(DurableJson.encode(base("a"), Map.of("a", TRACED)), later);
    DurableJson.decodeBatch(DurableJson.encode(batch(new DurableRecord.Forgotten("a"),
        accepted("a", 9))), later);
    assertThat(later).isEmpty();
  }
}
