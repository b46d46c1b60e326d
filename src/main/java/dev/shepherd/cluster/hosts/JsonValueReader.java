package dev.shepherd.cluster.hosts;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Values read from a Jackson parser as Vert.x decodes and hands them out: what {@code
 * Json.decodeValue} builds (objects as maps and arrays as lists inside, numbers as the parser
 * gives them), wrapped at the top as {@code JsonObject.getValue} wraps them. The batch readers
 * ({@link HostReportReader}, {@link HostCommandReader}) read items field by field with it and give
 * what decoding the batch whole would.
 */
final class JsonValueReader {
  private JsonValueReader() {}

  /** Reads one item of a batch, its START_OBJECT read: the item, or null where it is not one. */
  interface ItemReader<T> {
    T read(JsonParser parser) throws IOException;
  }

  /**
   * A batch's items and its end, the items' START_ARRAY read: each object of the array by {@code
   * item}, then the end of the array, of the batch object and of the input. Null where an item is
   * not one or anything else follows: the batch is then not the common one.
   */
  static <T> List<T> itemsToEnd(JsonParser parser, ItemReader<? extends T> item)
      throws IOException {
    List<T> items = new ArrayList<>();
    JsonToken token;
    while ((token = parser.nextToken()) == JsonToken.START_OBJECT) {
      T read = item.read(parser);
      if (read == null) {
        return null;
      }
      items.add(read);
    }
    if (token != JsonToken.END_ARRAY || parser.nextToken() != JsonToken.END_OBJECT
        || parser.nextToken() != null) {
      return null;
    }
    return items;
  }

  /** The value whose first token {@code token} is, as {@code JsonObject.getValue} gives it. */
  static Object value(JsonParser parser, JsonToken token) throws IOException {
    return top(any(parser, token));
  }

  /** A whole number that fits a long and is not negative, or -1. */
  static long whole(JsonParser parser, JsonToken value) throws IOException {
    if (value != JsonToken.VALUE_NUMBER_INT) {
      return -1;
    }
    JsonParser.NumberType type = parser.getNumberType();
    if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
      return -1;
    }
    long number = parser.getLongValue();
    return number < 0 ? -1 : number;
  }

  private static Object any(JsonParser parser, JsonToken token) throws IOException {
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        String name;
        while ((name = parser.nextFieldName()) != null) {
          map.put(name, any(parser, parser.nextToken()));
        }
        return map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        JsonToken next;
        while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
          list.add(any(parser, next));
        }
        return list;
      }
      case VALUE_STRING -> {
        return parser.getText();
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return parser.getNumberValue();
      }
      case VALUE_TRUE -> {
        return Boolean.TRUE;
      }
      case VALUE_FALSE -> {
        return Boolean.FALSE;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new IllegalStateException("unexpected " + token);
    }
  }

  @SuppressWarnings("unchecked")
  private static Object top(Object value) {
    if (value instanceof Map<?, ?> map) {
      return new JsonObject((Map<String, Object>) map);
    }
    if (value instanceof List<?> list) {
      return new JsonArray(list);
    }
    return value;
  }
}
