package dev.shepherd.runtime.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;

/**
 * Reads a submit body from its bytes without building the payload's tree: one streaming pass
 * checks the syntax of the whole body and the payload's nesting depth, decodes the envelope's
 * small fields (the few levels of {@code retry} in full), and keeps the payload as the {@link
 * RawJson} bytes it arrived in. A payload that is refused (too deep, or the pool is full) never
 * costs more heap than its bytes.
 *
 * <p>The result is the envelope as a {@code JsonObject} for {@link RequestDecoder} to validate
 * like any other: {@code payload} holds the RawJson (or null), {@code retry} its decoded value,
 * other fields their scalar value, and a field holding an object or array an empty one (its
 * content is skipped: such a field is refused anyway, and the message only needs its kind).
 */
final class RawSubmitReader {
  /** The deepest a structured field other than the payload may be ({@code retry.backoff}). */
  static final int MAX_FIELD_DEPTH = 4;

  private RawSubmitReader() {}

  /** The envelope of {@code body}; a {@link BadRequest} naming the field when malformed. */
  static JsonObject envelope(Buffer body, int maxPayloadDepth) {
    try (JsonParser parser = JacksonCodec.createParser(body)) {
      JsonToken token = parser.nextToken();
      if (token == null) {
        throw new BadRequest("body: must be a JSON object (the body is empty)");
      }
      if (parser.currentTokenLocation().getByteOffset() < 0) {
        throw new BadRequest("body: must be JSON in UTF-8");
      }
      if (token != JsonToken.START_OBJECT) {
        throw new BadRequest("body: must be a JSON object");
      }
      JsonObject envelope = new JsonObject();
      token = parser.nextToken();
      while (token == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        if (envelope.containsKey(name)) {
          throw new BadRequest(RequestDecoder.clip(name) + ": appears twice");
        }
        JsonToken value = parser.nextToken();
        if (name.equals(BusWire.PAYLOAD)) {
          token = payload(parser, value, body, maxPayloadDepth, envelope);
        } else if (name.equals(BusWire.RETRY)) {
          envelope.put(name, tree(parser, value, 1, BusWire.RETRY));
          token = parser.nextToken();
        } else {
          envelope.put(name, scalar(parser, value));
          token = parser.nextToken();
        }
      }
      if (token != JsonToken.END_OBJECT) {
        throw new BadRequest("body: must be a JSON object");
      }
      if (parser.nextToken() != null) {
        throw new BadRequest("body: not valid JSON (content after the object)");
      }
      return envelope;
    } catch (IOException | DecodeException e) {
      throw new BadRequest("body: not valid JSON (" + RequestDecoder.firstLine(e.getMessage()) + ")");
    }
  }

  /**
   * Skips the payload, refusing it past {@code maxDepth} levels, and keeps its bytes: from its
   * first byte to the start of the next token, less the separator. Returns that next token.
   */
  private static JsonToken payload(JsonParser parser, JsonToken value, Buffer body, int maxDepth,
      JsonObject envelope) throws IOException {
    long start = parser.currentTokenLocation().getByteOffset();
    if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
      int depth = 1;
      checkDepth(depth, maxDepth);
      while (depth > 0) {
        JsonToken t = parser.nextToken();
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
          checkDepth(++depth, maxDepth);
        } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
          depth--;
        } else if (t == null) {
          throw new BadRequest("body: not valid JSON (it ends inside the payload)");
        }
      }
    }
    JsonToken next = parser.nextToken();
    if (value == JsonToken.VALUE_NULL) {
      envelope.put(BusWire.PAYLOAD, null);
      return next;
    }
    long end = next == null ? body.length() : parser.currentTokenLocation().getByteOffset();
    while (end > start && separator(body.getByte((int) end - 1))) {
      end--;
    }
    envelope.put(BusWire.PAYLOAD, new RawJson(body.getBytes((int) start, (int) end)));
    return next;
  }

  private static void checkDepth(int depth, int maxDepth) {
    if (depth > maxDepth) {
      throw new BadRequest("payload: nested more than " + maxDepth
          + " levels deep (the pool's maxPayloadDepth)");
    }
  }

  private static boolean separator(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == ',';
  }

  /**
   * The few levels of a small structured field ({@code retry}: an object holding a {@code
   * backoff} object) decoded in full, so they can be validated field by field; anything nested
   * deeper than {@link #MAX_FIELD_DEPTH} is refused, as no such field has it.
   */
  private static Object tree(JsonParser parser, JsonToken value, int depth, String field)
      throws IOException {
    if (value != JsonToken.START_OBJECT && value != JsonToken.START_ARRAY) {
      return scalar(parser, value);
    }
    if (depth > MAX_FIELD_DEPTH) {
      throw new BadRequest(field + ": nested more than " + MAX_FIELD_DEPTH + " levels deep");
    }
    if (value == JsonToken.START_ARRAY) {
      JsonArray array = new JsonArray();
      for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
        if (t == null) {
          throw new BadRequest("body: not valid JSON (it ends inside " + field + ")");
        }
        array.add(tree(parser, t, depth + 1, field));
      }
      return array;
    }
    JsonObject object = new JsonObject();
    for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
      if (t != JsonToken.FIELD_NAME) {
        throw new BadRequest("body: not valid JSON (it ends inside " + field + ")");
      }
      String name = parser.currentName();
      if (object.containsKey(name)) {
        throw new BadRequest(field + "." + RequestDecoder.clip(name) + ": appears twice");
      }
      object.put(name, tree(parser, parser.nextToken(), depth + 1,
          field + "." + RequestDecoder.clip(name)));
    }
    return object;
  }

  /** A field other than the payload: its scalar value, or an empty object or array. */
  private static Object scalar(JsonParser parser, JsonToken value) throws IOException {
    return switch (value) {
      case VALUE_STRING -> parser.getText();
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getNumberValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      case START_OBJECT -> {
        parser.skipChildren();
        yield new JsonObject();
      }
      case START_ARRAY -> {
        parser.skipChildren();
        yield new JsonArray();
      }
      default -> throw new BadRequest("body: not valid JSON (unexpected " + value + ")");
    };
  }
}
