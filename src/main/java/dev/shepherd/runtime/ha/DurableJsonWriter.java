package dev.shepherd.runtime.ha;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.RecentOutcome;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.payload.JsonValues;
import dev.shepherd.runtime.wire.OutcomeJson;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;

/**
 * Writes a durable pool's batches and bases as UTF-8 JSON straight into bytes: the text {@link
 * DurableJson#encode(DurableGate.Batch, Map)} and {@link DurableJson#encode(DurableLog.Base, Map)}
 * describe (same fields, same order), read back by {@link DurableJson}'s decoders. The records a
 * job's life writes ({@code accepted}, {@code assigned}, {@code answered}, {@code forgotten}), a
 * completed outcome, an image's jobs and its recent outcomes are written field by field; the
 * rarer ones go through their {@code JsonObject} form. Building that tree for every record, then
 * encoding it as a string and the string as bytes, was half of an HA leader's event loop under
 * load (docs/benchmarks.md, HA section).
 */
public final class DurableJsonWriter {
  /**
   * A character outside the BMP is written as its four UTF-8 bytes, as the tree encoder's text
   * turned into UTF-8 has it, not as two escaped surrogates: the same bytes, and fewer.
   */
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

  private DurableJsonWriter() {}

  /** {@code batch}, its accepted records with the trace {@code traces} holds for their job. */
  public static byte[] write(DurableGate.Batch batch, Map<String, JournalTrace> traces) {
    ByteArrayBuilder out = new ByteArrayBuilder(256 + 200 * batch.records().size());
    try (JsonGenerator json = FACTORY.createGenerator(out)) {
      json.writeStartObject();
      json.writeNumberField("id", batch.id());
      json.writeArrayFieldStart("records");
      for (DurableRecord record : batch.records()) {
        record(json, record, traces);
      }
      json.writeEndArray();
      json.writeArrayFieldStart("delivered");
      for (String job : batch.delivered()) {
        json.writeString(job);
      }
      json.writeEndArray();
      json.writeBooleanField("checkpoint", batch.checkpoint());
      json.writeArrayFieldStart("undelivered");
      for (DurableRecord.Answered answered : batch.undelivered()) {
        answered(json, answered);
      }
      json.writeEndArray();
      json.writeFieldName("counters");
      tree(json, DurableValueJson.encode(batch.counters()));
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** {@code base}, its image's jobs with the trace {@code traces} holds for them. */
  public static byte[] write(DurableLog.Base base, Map<String, JournalTrace> traces) {
    DurableImage image = base.image();
    ByteArrayBuilder out = new ByteArrayBuilder(1024 + 200 * image.jobs().size()
        + 120 * image.recent().size());
    try (JsonGenerator json = FACTORY.createGenerator(out)) {
      json.writeStartObject();
      json.writeFieldName("image");
      image(json, image, traces);
      json.writeArrayFieldStart("undelivered");
      for (DurableRecord.Answered answered : base.undelivered()) {
        answered(json, answered);
      }
      json.writeEndArray();
      json.writeFieldName("counters");
      tree(json, DurableValueJson.encode(base.counters()));
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  // ---- records --------------------------------------------------------------------------------

  private static void record(JsonGenerator json, DurableRecord record,
      Map<String, JournalTrace> traces) throws IOException {
    if (record instanceof DurableRecord.Accepted a) {
      json.writeStartObject();
      json.writeStringField("t", "accepted");
      json.writeStringField("job", a.job());
      json.writeNumberField("generated", a.generated());
      json.writeNumberField("order", a.order());
      json.writeStringField("payload", DurableValueJson.payload(a.payload()));
      json.writeStringField("key", a.key());
      json.writeStringField("replyTo", DurableRecordJson.address(a.replyTo()));
      json.writeNumberField("timeoutMs", a.timeoutMs());
      json.writeNumberField("bytes", a.bytes());
      json.writeStringField("target", a.target());
      positive(json, "dueAt", a.dueAt());
      if (a.retry() != null) {
        json.writeFieldName("retry");
        tree(json, DurableValueJson.encode(a.retry()));
      }
      flow(json, a.group(), a.priority());
      positive(json, "progressTimeoutMs", a.progressTimeoutMs());
      if (!traces.isEmpty()) {
        trace(json, traces.get(a.job()));
      }
      json.writeEndObject();
    } else if (record instanceof DurableRecord.Assigned a) {
      json.writeStartObject();
      json.writeStringField("t", "assigned");
      json.writeStringField("job", a.job());
      json.writeStringField("worker", a.worker());
      json.writeNumberField("attempt", a.attempt());
      json.writeEndObject();
    } else if (record instanceof DurableRecord.Answered a) {
      answered(json, a);
    } else if (record instanceof DurableRecord.Forgotten f) {
      json.writeStartObject();
      json.writeStringField("t", "forgotten");
      json.writeStringField("job", f.job());
      json.writeEndObject();
    } else {
      tree(json, DurableRecordJson.encode(record));
    }
  }

  private static void answered(JsonGenerator json, DurableRecord.Answered a) throws IOException {
    json.writeStartObject();
    json.writeStringField("t", "answered");
    json.writeStringField("job", a.job());
    json.writeStringField("replyTo", DurableRecordJson.address(a.replyTo()));
    json.writeFieldName("outcome");
    outcome(json, a.outcome());
    RecentOutcome r = a.remembered();
    if (r != null) {
      json.writeFieldName("remembered");
      // Almost always the answer itself: only when it is not is it written a second time.
      if (r.job().equals(a.job()) && Objects.equals(r.outcome(), a.outcome())) {
        json.writeStartObject();
        json.writeNumberField("at", r.at());
        json.writeNumberField("bytes", r.bytes());
        json.writeEndObject();
      } else {
        tree(json, DurableValueJson.encode(r));
      }
    }
    json.writeEndObject();
  }

  /** {@link DurableValueJson#encode(Outcome, Object)} with nothing known around it. */
  private static void outcome(JsonGenerator json, Outcome outcome) throws IOException {
    if (outcome instanceof Outcome.Completed c) {
      json.writeStartObject();
      json.writeStringField("type", OutcomeJson.type(c));
      json.writeStringField("job", c.job());
      json.writeFieldName("result");
      tree(json, JsonValues.toJson(c.result()));
      json.writeStringField("worker", c.worker());
      json.writeNumberField("attempts", c.attempts());
      json.writeEndObject();
    } else {
      tree(json, DurableValueJson.encode(outcome, null));
    }
  }

  // ---- images ---------------------------------------------------------------------------------

  private static void image(JsonGenerator json, DurableImage image,
      Map<String, JournalTrace> traces) throws IOException {
    json.writeStartObject();
    json.writeNumberField("term", image.term());
    json.writeNumberField("generated", image.generated());
    json.writeArrayFieldStart("jobs");
    for (DurableImage.JobImage j : image.jobs()) {
      job(json, j, traces);
    }
    json.writeEndArray();
    json.writeArrayFieldStart("bindings");
    for (DurableImage.BindingImage b : image.bindings()) {
      json.writeStartObject();
      json.writeStringField("key", b.key());
      json.writeStringField("worker", b.worker());
      json.writeBooleanField("rebalanced", b.rebalanced());
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeArrayFieldStart("hosts");
    for (DurableImage.HostImage h : image.hosts()) {
      json.writeStartObject();
      json.writeStringField("host", h.host());
      json.writeStringField("node", h.node());
      json.writeArrayFieldStart("slots");
      for (String slot : h.slots()) {
        json.writeString(slot);
      }
      json.writeEndArray();
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeArrayFieldStart("dead");
    for (DeadLetter entry : image.dead()) {
      tree(json, DurableValueJson.encode(entry));
    }
    json.writeEndArray();
    json.writeArrayFieldStart("recent");
    for (RecentOutcome r : image.recent()) {
      json.writeStartObject();
      json.writeStringField("job", r.job());
      json.writeFieldName("outcome");
      outcome(json, r.outcome());
      json.writeNumberField("at", r.at());
      json.writeNumberField("bytes", r.bytes());
      json.writeEndObject();
    }
    json.writeEndArray();
    if (!image.groups().isEmpty()) {
      json.writeArrayFieldStart("groups");
      for (DurableImage.GroupImage g : image.groups()) {
        json.writeStartObject();
        json.writeStringField("group", g.group());
        if (g.settings() != null) {
          json.writeFieldName("settings");
          tree(json, DurableRecordJson.encode(g.settings()));
        }
        if (g.pausedSince() != null) {
          json.writeNumberField("pausedSince", g.pausedSince());
        }
        json.writeEndObject();
      }
      json.writeEndArray();
    }
    if (image.pausedSince() != null) {
      json.writeNumberField("pausedSince", image.pausedSince());
    }
    if (image.size() != null) {
      json.writeObjectFieldStart("size");
      json.writeNumberField("instances", image.size().instances());
      json.writeNumberField("maxConcurrency", image.size().maxConcurrency());
      json.writeEndObject();
    }
    json.writeEndObject();
  }

  private static void job(JsonGenerator json, DurableImage.JobImage j,
      Map<String, JournalTrace> traces) throws IOException {
    json.writeStartObject();
    json.writeStringField("job", j.job());
    json.writeNumberField("generated", j.generated());
    json.writeNumberField("order", j.order());
    json.writeStringField("payload", DurableValueJson.payload(j.payload()));
    json.writeStringField("key", j.key());
    json.writeStringField("replyTo", DurableRecordJson.address(j.replyTo()));
    json.writeNumberField("timeoutMs", j.timeoutMs());
    json.writeNumberField("bytes", j.bytes());
    json.writeStringField("target", j.target());
    json.writeNumberField("attempts", j.attempts());
    json.writeStringField("worker", j.worker());
    json.writeFieldName("interruption");
    tree(json, DurableValueJson.interruption(j.interruption()));
    positive(json, "dueAt", j.dueAt());
    if (j.front()) {
      json.writeBooleanField("front", true);
    }
    positive(json, "stops", j.stops());
    positive(json, "failures", j.failures());
    if (j.retry() != null) {
      json.writeFieldName("retry");
      tree(json, DurableValueJson.encode(j.retry()));
    }
    flow(json, j.group(), j.priority());
    if (j.checkpoint() != null) {
      json.writeFieldName("checkpoint");
      tree(json, j.checkpoint());
      positive(json, "checkpointBytes", j.checkpointBytes());
    }
    positive(json, "progressTimeoutMs", j.progressTimeoutMs());
    trace(json, traces.get(j.job()));
    json.writeEndObject();
  }

  // ---- fields ---------------------------------------------------------------------------------

  private static void positive(JsonGenerator json, String field, long value) throws IOException {
    if (value != 0) {
      json.writeNumberField(field, value);
    }
  }

  private static void flow(JsonGenerator json, String group, int priority) throws IOException {
    if (group != null) {
      json.writeStringField("group", group);
    }
    if (priority != PoolEvent.Submit.DEFAULT_PRIORITY) {
      json.writeNumberField("priority", priority);
    }
  }

  private static void trace(JsonGenerator json, JournalTrace trace) throws IOException {
    if (trace != null) {
      json.writeStringField("trace", trace.traceparent());
      if (trace.tracestate() != null) {
        json.writeStringField("tracestate", trace.tracestate());
      }
      positive(json, "admittedAt", trace.admittedAt());
    }
  }

  /** A value as its JSON tree is written (null as null), by Vert.x's own encoder. */
  private static void tree(JsonGenerator json, Object value) throws IOException {
    try {
      JacksonCodec.encodeJson(value, json);
    } catch (EncodeException e) {
      throw new IllegalStateException("a value of a durable record could not be written", e);
    }
  }
}
