package dev.shepherd.runtime.payload;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * Turns payloads and what workers return into values the event bus and HTTP can carry as JSON.
 * Every payload or result that goes into a {@code JsonObject} passes through {@link #toJson}.
 */
public final class JsonValues {
  private JsonValues() {}

  /**
   * JSON values pass as they are; a {@link RawJson} payload is decoded; maps and lists become
   * objects and arrays; anything else becomes its string form (results that cross the bus must
   * be JSON). Values that went through {@link JsonCheck} cannot be too deep here.
   */
  public static Object toJson(Object value) {
    if (value == null || value instanceof String || value instanceof Number
        || value instanceof Boolean || value instanceof JsonObject || value instanceof JsonArray) {
      return value;
    }
    if (value instanceof RawJson raw) {
      return raw.decode();
    }
    if (value instanceof Map<?, ?> map) {
      JsonObject object = new JsonObject();
      map.forEach((k, v) -> object.put(String.valueOf(k), toJson(v)));
      return object;
    }
    if (value instanceof List<?> list) {
      JsonArray array = new JsonArray();
      list.forEach(v -> array.add(toJson(v)));
      return array;
    }
    if (value instanceof Buffer buffer) {
      return buffer.toString();
    }
    return String.valueOf(value);
  }
}
