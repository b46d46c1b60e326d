package dev.shepherd.cluster.hosts;

import static dev.shepherd.cluster.hosts.HostWire.*;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.shepherd.runtime.wire.JobErrorJson;
import dev.shepherd.runtime.payload.JsonValues;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Writes the batches a pool and its hosts exchange as JSON text straight into a buffer: the same
 * text as {@link HostCodec#encode(HostCommand.Batch)} and {@link HostCodec#encode(HostReport.Batch)}
 * give, without building a {@code JsonObject} per item first. Batches are what a clustered pool
 * sends most (one per host per turn, with up to hundreds of items), and building, then encoding,
 * that tree was the largest cost of the coordinator's event loop under load. Receivers read these
 * buffers with {@link HostCodec}, which takes a JSON object body as well.
 */
public final class HostBatchWriter {
  private static final JsonFactory FACTORY = new JsonFactory();
  // The names of the items written most (assignments, completions), quoted and encoded once:
  // Jackson copies their bytes instead of checking each character of each name again.
  private static final SerializedString Q_OP = new SerializedString(OP);
  private static final SerializedString Q_ASSIGN = new SerializedString(OP_ASSIGN);
  private static final SerializedString Q_WORKER = new SerializedString(WORKER);
  private static final SerializedString Q_INCARNATION = new SerializedString(INCARNATION);
  private static final SerializedString Q_ASSIGNMENT = new SerializedString(ASSIGNMENT);
  private static final SerializedString Q_JOB = new SerializedString(JOB);
  private static final SerializedString Q_PAYLOAD = new SerializedString(PAYLOAD);
  private static final SerializedString Q_ATTEMPT = new SerializedString(ATTEMPT);
  private static final SerializedString Q_RUN_NANOS = new SerializedString(RUN_NANOS);
  private static final SerializedString Q_RESULT = new SerializedString(RESULT);

  private HostBatchWriter() {}

  /** {@code {TERM: …, ITEMS: [command, …]}}. */
  public static Buffer write(HostCommand.Batch batch) {
    Buffer out = Buffer.buffer(64 + 160 * batch.items().size());
    try (JsonGenerator json = FACTORY.createGenerator(new BufferOutput(out))) {
      json.writeStartObject();
      json.writeNumberField(TERM, batch.term());
      json.writeArrayFieldStart(ITEMS);
      for (HostCommand command : batch.items()) {
        write(json, command);
      }
      json.writeEndArray();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** {@code {HOST: …, ITEMS: [report, …]}}. */
  public static Buffer write(HostReport.Batch batch) {
    Buffer out = Buffer.buffer(64 + 96 * batch.items().size());
    try (JsonGenerator json = FACTORY.createGenerator(new BufferOutput(out))) {
      json.writeStartObject();
      json.writeStringField(HOST, batch.host());
      json.writeArrayFieldStart(ITEMS);
      for (HostReport report : batch.items()) {
        write(json, report);
      }
      json.writeEndArray();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static void write(JsonGenerator json, HostCommand command) throws IOException {
    json.writeStartObject();
    if (command instanceof HostCommand.Assign a) {
      json.writeFieldName(Q_OP);
      json.writeString(Q_ASSIGN);
      json.writeFieldName(Q_WORKER);
      json.writeString(a.worker());
      json.writeFieldName(Q_INCARNATION);
      json.writeNumber(a.incarnation());
      json.writeFieldName(Q_ASSIGNMENT);
      json.writeNumber(a.assignment());
      json.writeFieldName(Q_JOB);
      json.writeString(a.job());
      json.writeFieldName(Q_PAYLOAD);
      value(json, a.payload());
      json.writeFieldName(Q_ATTEMPT);
      json.writeNumber(a.attempt());
      if (a.checkpoint() != null) {
        json.writeFieldName(CHECKPOINT);
        value(json, a.checkpoint());
      }
      if (a.key() != null) {
        json.writeStringField(KEY, a.key());
      }
      if (a.traceparent() != null) {
        json.writeStringField(TRACEPARENT, a.traceparent());
        if (a.tracestate() != null) {
          json.writeStringField(TRACESTATE, a.tracestate());
        }
      }
    } else if (command instanceof HostCommand.Deploy d) {
      json.writeStringField(OP, OP_DEPLOY);
      json.writeStringField(WORKER, d.worker());
      json.writeNumberField(INCARNATION, d.incarnation());
    } else if (command instanceof HostCommand.Stop s) {
      json.writeStringField(OP, OP_STOP);
      json.writeStringField(WORKER, s.worker());
      json.writeNumberField(INCARNATION, s.incarnation());
      json.writeStringField(REASON, s.reason().name());
    } else if (command instanceof HostCommand.Cancel c) {
      json.writeStringField(OP, OP_CANCEL);
      json.writeStringField(WORKER, c.worker());
      json.writeNumberField(INCARNATION, c.incarnation());
      json.writeNumberField(ASSIGNMENT, c.assignment());
    } else if (command instanceof HostCommand.Reregister r) {
      json.writeStringField(OP, OP_REREGISTER);
      if (r.round() != 0) {
        json.writeNumberField(ROUND, r.round());
      }
    } else {
      throw new AssertionError("unhandled " + command);
    }
    json.writeEndObject();
  }

  private static void write(JsonGenerator json, HostReport report) throws IOException {
    json.writeStartObject();
    json.writeFieldName(Q_WORKER);
    json.writeString(report.worker());
    if (report instanceof HostReport.Completion c) {
      json.writeFieldName(Q_ASSIGNMENT);
      json.writeNumber(c.assignment());
      if (c.runNanos() != HostReport.Completion.UNMEASURED) {
        json.writeFieldName(Q_RUN_NANOS);
        json.writeNumber(c.runNanos());
      }
      if (c.error() == null) {
        json.writeFieldName(Q_RESULT);
        value(json, c.result());
      } else {
        json.writeFieldName(ERROR);
        JobErrorJson.write(json, c.error());
      }
    } else if (report instanceof HostReport.RateLimited r) {
      json.writeNumberField(ASSIGNMENT, r.assignment());
      json.writeNumberField(RATE_LIMITED_MS, r.holdMs());
    } else if (report instanceof HostReport.Progress p) {
      json.writeNumberField(ASSIGNMENT, p.assignment());
      json.writeFieldName(PROGRESS);
      value(json, p.progress());
    } else if (report instanceof HostReport.Created c) {
      json.writeNumberField(INCARNATION, c.incarnation());
      json.writeStringField(FACT, FACT_CREATED);
    } else if (report instanceof HostReport.CreationFailed f) {
      json.writeNumberField(INCARNATION, f.incarnation());
      json.writeStringField(FACT, FACT_FAILED);
      if (f.cause() != null) {
        json.writeStringField(CAUSE, f.cause());
      }
    } else if (report instanceof HostReport.Stopped s) {
      json.writeNumberField(INCARNATION, s.incarnation());
      json.writeStringField(FACT, FACT_STOPPED);
      json.writeStringField(EXIT, s.exit().name());
      if (s.cause() != null) {
        json.writeStringField(CAUSE, s.cause());
      }
    } else {
      throw new AssertionError("unhandled " + report);
    }
    json.writeEndObject();
  }

  /**
   * A payload or result: a payload kept as JSON bytes is spliced in as it is; anything else is
   * written as {@link JsonValues#toJson} makes it, by Vert.x's own JSON encoder.
   */
  private static void value(JsonGenerator json, Object value) throws IOException {
    if (value instanceof RawJson raw) {
      json.writeRawValue(raw.text());
      return;
    }
    try {
      JacksonCodec.encodeJson(JsonValues.toJson(value), json);
    } catch (EncodeException e) {
      throw new IllegalStateException("a value of a batch could not be written as JSON", e);
    }
  }

  /** Jackson's output into a Vert.x buffer (Jackson buffers itself, then writes in chunks). */
  private static final class BufferOutput extends OutputStream {
    private final Buffer out;

    BufferOutput(Buffer out) {
      this.out = out;
    }

    @Override
    public void write(int b) {
      out.appendByte((byte) b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      out.appendBytes(bytes, offset, length);
    }
  }
}
