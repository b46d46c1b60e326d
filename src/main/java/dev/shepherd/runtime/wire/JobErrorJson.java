package dev.shepherd.runtime.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.shepherd.core.JobError;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The one JSON codec of a job's {@link JobError} (J1 in docs/rules.md), wherever it crosses JSON: a
 * submit's answer, a worker's completion over the bus, a worker host's report, an event, a lookup,
 * the dead-letter set and the journal. Its form is {@code {"code": int, "message": str, "type"?:
 * str}}, {@code type} (the exception's class name) written only when known.
 */
public final class JobErrorJson {
  /** The error's code: 500 unless the handler chose one. */
  public static final String CODE = "code";
  /** The error's message. */
  public static final String MESSAGE = "message";
  /** The class name of the exception behind the error; absent when there was none. */
  public static final String TYPE = "type";
  /** Every field an error may have. */
  public static final Set<String> FIELDS = Set.of(CODE, MESSAGE, TYPE);

  private JobErrorJson() {}

  /** The error's JSON. */
  public static JsonObject encode(JobError error) {
    return encode(error, UnaryOperator.identity());
  }

  /**
   * The error's JSON with its texts (message and type) passed through {@code text}: an event
   * clips them ({@link EventJson#MAX_TEXT}), as it clips every text that comes from outside.
   */
  static JsonObject encode(JobError error, UnaryOperator<String> text) {
    JsonObject json = new JsonObject().put(CODE, error.code())
        .put(MESSAGE, text.apply(error.message()));
    return error.type() == null ? json : json.put(TYPE, text.apply(error.type()));
  }

  /** Writes the error's JSON, the same fields in the same order, to a streaming generator. */
  public static void write(JsonGenerator json, JobError error) throws IOException {
    json.writeStartObject();
    json.writeNumberField(CODE, error.code());
    json.writeStringField(MESSAGE, error.message());
    if (error.type() != null) {
      json.writeStringField(TYPE, error.type());
    }
    json.writeEndObject();
  }

  /**
   * Reads an error that a worker or a worker host sent, refusing what is malformed with a
   * {@link BadRequest} that names the field under {@code path} (e.g. {@code "items[0].error."}):
   * an object of {@link #FIELDS} only, an integer code, a string message, and a type that is
   * absent or a non-empty string.
   */
  public static JobError decode(Object value, String path) {
    if (!(value instanceof JsonObject error)) {
      throw new BadRequest(path.substring(0, path.length() - 1)
          + ": must be an object {\"code\": int, \"message\": str, \"type\"?: str} (was "
          + render(value) + ")");
    }
    for (String name : error.fieldNames()) {
      if (!FIELDS.contains(name)) {
        throw new BadRequest(path + RequestDecoder.clip(name) + ": unknown field; expected "
            + new TreeSet<>(FIELDS));
      }
    }
    Object code = error.getValue(CODE);
    if (!(code instanceof Integer
        || code instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE)) {
      throw new BadRequest(path + CODE + ": must be an integer (was " + render(code) + ")");
    }
    Object message = error.getValue(MESSAGE);
    if (!(message instanceof String text)) {
      throw new BadRequest(path + MESSAGE + ": must be a string (was " + render(message) + ")");
    }
    Object type = error.getValue(TYPE);
    if (type != null && !(type instanceof String name && !name.isEmpty())) {
      throw new BadRequest(path + TYPE + ": must be a non-empty string, the exception's class"
          + " name, or left out when there is none (was " + render(type) + ")");
    }
    return new JobError(((Number) code).intValue(), text, (String) type);
  }

  /**
   * Reads an error a pool wrote (an answer, a dead letter, the journal): what this codec wrote,
   * read leniently, 500 and an empty message standing in for what is missing.
   */
  public static JobError read(JsonObject json) {
    JsonObject error = json == null ? new JsonObject() : json;
    return new JobError(error.getInteger(CODE, 500), error.getString(MESSAGE, ""),
        error.getString(TYPE));
  }

  private static String render(Object value) {
    return value == null ? "missing"
        : value instanceof String ? "a string"
        : value instanceof Number || value instanceof Boolean ? String.valueOf(value)
        : value instanceof JsonObject ? "an object"
        : value instanceof JsonArray ? "an array" : value.getClass().getSimpleName();
  }
}
