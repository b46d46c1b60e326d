package dev.shepherd.runtime.wire;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Strict reads of JSON a coordinator sent, for the codecs of replies: each refusal is an {@link
 * IllegalArgumentException} naming the field, which the caller turns into "the pool answered
 * something that is not protocol v1".
 */
final class JsonReads {
  private JsonReads() {}

  static JsonObject object(JsonObject json, String field) {
    if (json.getValue(field) instanceof JsonObject object) {
      return object;
    }
    throw new IllegalArgumentException(field + ": must be an object");
  }

  static List<JsonObject> objects(JsonObject json, String field) {
    if (!(json.getValue(field) instanceof JsonArray array)) {
      throw new IllegalArgumentException(field + ": must be an array");
    }
    List<JsonObject> out = new ArrayList<>(array.size());
    for (Object item : array) {
      if (!(item instanceof JsonObject object)) {
        throw new IllegalArgumentException(field + ": must hold objects");
      }
      out.add(object);
    }
    return out;
  }

  static long number(JsonObject json, String field) {
    if (json.getValue(field) instanceof Number n) {
      return n.longValue();
    }
    throw new IllegalArgumentException(field + ": must be a number");
  }

  /** The number at {@code field}, or null when it is absent. */
  static Long optionalNumber(JsonObject json, String field) {
    return json.getValue(field) == null ? null : number(json, field);
  }

  static String string(JsonObject json, String field) {
    if (json.getValue(field) instanceof String text) {
      return text;
    }
    throw new IllegalArgumentException(field + ": must be a string");
  }
}
