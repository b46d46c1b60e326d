package dev.shepherd.cluster.hosts;

import static dev.shepherd.cluster.hosts.HostWire.ASSIGNMENT;
import static dev.shepherd.cluster.hosts.HostWire.HOST;
import static dev.shepherd.cluster.hosts.HostWire.ITEMS;
import static dev.shepherd.cluster.hosts.HostWire.RESULT;
import static dev.shepherd.cluster.hosts.HostWire.RUN_NANOS;
import static dev.shepherd.cluster.hosts.HostWire.WORKER;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the common batch of reports, completions with results as {@link HostBatchWriter} writes
 * them, straight from the bytes: no {@code JsonObject} per item is built and then read field by
 * field, which made decoding a batch a fifth of the coordinator's event loop under load. It
 * answers only what it reads exactly as {@link HostCodec#decodeReports} would (the same host,
 * items, results of the same types): for anything else (a fact, a failure, progress, an unknown,
 * repeated or misplaced field, a value out of range, bad JSON) it answers null, and the codec
 * decodes the batch whole and says what is wrong.
 */
final class HostReportReader {
  private HostReportReader() {}

  /** The batch {@code json} holds if it is the common kind, else null (see above). */
  static HostReport.Batch completions(Buffer json) {
    try (JsonParser parser = JacksonCodec.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT || !HOST.equals(parser.nextFieldName())
          || parser.nextToken() != JsonToken.VALUE_STRING) {
        return null;
      }
      String host = parser.getText();
      if (host.length() > HostCodec.MAX_ID_LENGTH || !HostCodec.HOST_PATTERN.matcher(host).matches()
          || !ITEMS.equals(parser.nextFieldName()) || parser.nextToken() != JsonToken.START_ARRAY) {
        return null;
      }
      List<HostReport> items = new ArrayList<>();
      JsonToken token;
      while ((token = parser.nextToken()) == JsonToken.START_OBJECT) {
        HostReport.Completion completion = completion(parser);
        if (completion == null) {
          return null;
        }
        items.add(completion);
      }
      if (token != JsonToken.END_ARRAY || parser.nextToken() != JsonToken.END_OBJECT
          || parser.nextToken() != null) {
        return null;
      }
      return new HostReport.Batch(host, items);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** One item, its START_OBJECT read: a completion with a result, or null. */
  private static HostReport.Completion completion(JsonParser parser) throws IOException {
    String worker = null;
    long assignment = -1;
    boolean hasResult = false;
    Object result = null;
    long runNanos = -1;
    String name;
    while ((name = parser.nextFieldName()) != null) {
      JsonToken value = parser.nextToken();
      switch (name) {
        case WORKER -> {
          if (worker != null || value != JsonToken.VALUE_STRING) {
            return null;
          }
          worker = parser.getText();
          if (worker.isEmpty() || worker.length() > HostCodec.MAX_ID_LENGTH) {
            return null;
          }
        }
        case ASSIGNMENT -> {
          if (assignment >= 0 || (assignment = whole(parser, value)) < 0) {
            return null;
          }
        }
        case RUN_NANOS -> {
          if (runNanos >= 0 || (runNanos = whole(parser, value)) < 0) {
            return null;
          }
        }
        case RESULT -> {
          if (hasResult) {
            return null;
          }
          hasResult = true;
          result = top(value(parser, value));
        }
        default -> {
          return null;
        }
      }
    }
    if (parser.currentToken() != JsonToken.END_OBJECT || worker == null || assignment < 0
        || !hasResult) {
      return null;
    }
    return new HostReport.Completion(worker, assignment, result, null,
        runNanos < 0 ? HostReport.Completion.UNMEASURED : runNanos);
  }

  /** A whole number that fits a long and is not negative, or -1. */
  private static long whole(JsonParser parser, JsonToken value) throws IOException {
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

  /**
   * A value as Vert.x decodes it ({@code Json.decodeValue}): objects as maps and arrays as lists
   * inside, numbers as the parser gives them.
   */
  private static Object value(JsonParser parser, JsonToken token) throws IOException {
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        String name;
        while ((name = parser.nextFieldName()) != null) {
          map.put(name, value(parser, parser.nextToken()));
        }
        return map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        JsonToken next;
        while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
          list.add(value(parser, next));
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

  /** The result as {@code JsonObject.getValue} hands it out: a map or list wrapped. */
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
