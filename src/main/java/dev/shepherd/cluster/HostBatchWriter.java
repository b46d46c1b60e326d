package dev.shepherd.cluster;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.shepherd.runtime.JobErrorJson;
import dev.shepherd.runtime.JsonValues;
import dev.shepherd.runtime.RawJson;
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

  private HostBatchWriter() {}

  /** {@code {"term": …, "items": [command, …]}}. */
  public static Buffer write(HostCommand.Batch batch) {
    Buffer out = Buffer.buffer(64 + 160 * batch.items().size());
    try (JsonGenerator json = FACTORY.createGenerator(new BufferOutput(out))) {
      json.writeStartObject();
      json.writeNumberField("term", batch.term());
      json.writeArrayFieldStart("items");
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

  /** {@code {"host": …, "items": [report, …]}}. */
  public static Buffer write(HostReport.Batch batch) {
    Buffer out = Buffer.buffer(64 + 96 * batch.items().size());
    try (JsonGenerator json = FACTORY.createGenerator(new BufferOutput(out))) {
      json.writeStartObject();
      json.writeStringField("host", batch.host());
      json.writeArrayFieldStart("items");
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
      json.writeStringField("op", "assign");
      json.writeStringField("worker", a.worker());
      json.writeNumberField("incarnation", a.incarnation());
      json.writeNumberField("assignment", a.assignment());
      json.writeStringField("job", a.job());
      json.writeFieldName("payload");
      value(json, a.payload());
      json.writeNumberField("attempt", a.attempt());
      if (a.key() != null) {
        json.writeStringField("key", a.key());
      }
    } else if (command instanceof HostCommand.Deploy d) {
      json.writeStringField("op", "deploy");
      json.writeStringField("worker", d.worker());
      json.writeNumberField("incarnation", d.incarnation());
    } else if (command instanceof HostCommand.Stop s) {
      json.writeStringField("op", "stop");
      json.writeStringField("worker", s.worker());
      json.writeNumberField("incarnation", s.incarnation());
      json.writeStringField("reason", s.reason().name());
    } else if (command instanceof HostCommand.Cancel c) {
      json.writeStringField("op", "cancel");
      json.writeStringField("worker", c.worker());
      json.writeNumberField("incarnation", c.incarnation());
      json.writeNumberField("assignment", c.assignment());
    } else if (command instanceof HostCommand.Reregister) {
      json.writeStringField("op", "reregister");
    } else {
      throw new AssertionError("unhandled " + command);
    }
    json.writeEndObject();
  }

  private static void write(JsonGenerator json, HostReport report) throws IOException {
    json.writeStartObject();
    json.writeStringField("worker", report.worker());
    if (report instanceof HostReport.Completion c) {
      json.writeNumberField("assignment", c.assignment());
      if (c.error() == null) {
        json.writeFieldName("result");
        value(json, c.result());
      } else {
        json.writeFieldName("error");
        JobErrorJson.write(json, c.error());
      }
    } else if (report instanceof HostReport.Created c) {
      json.writeNumberField("incarnation", c.incarnation());
      json.writeStringField("fact", "created");
    } else if (report instanceof HostReport.CreationFailed f) {
      json.writeNumberField("incarnation", f.incarnation());
      json.writeStringField("fact", "failed");
      if (f.cause() != null) {
        json.writeStringField("cause", f.cause());
      }
    } else if (report instanceof HostReport.Stopped s) {
      json.writeNumberField("incarnation", s.incarnation());
      json.writeStringField("fact", "stopped");
      json.writeStringField("exit", s.exit().name());
      if (s.cause() != null) {
        json.writeStringField("cause", s.cause());
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
