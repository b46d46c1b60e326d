package dev.shepherd.cluster.hosts;

import static dev.shepherd.cluster.hosts.HostWire.ASSIGNMENT;
import static dev.shepherd.cluster.hosts.HostWire.ATTEMPT;
import static dev.shepherd.cluster.hosts.HostWire.CHECKPOINT;
import static dev.shepherd.cluster.hosts.HostWire.INCARNATION;
import static dev.shepherd.cluster.hosts.HostWire.ITEMS;
import static dev.shepherd.cluster.hosts.HostWire.JOB;
import static dev.shepherd.cluster.hosts.HostWire.KEY;
import static dev.shepherd.cluster.hosts.HostWire.OP;
import static dev.shepherd.cluster.hosts.HostWire.OP_ASSIGN;
import static dev.shepherd.cluster.hosts.HostWire.PAYLOAD;
import static dev.shepherd.cluster.hosts.HostWire.TERM;
import static dev.shepherd.cluster.hosts.HostWire.TRACEPARENT;
import static dev.shepherd.cluster.hosts.HostWire.TRACESTATE;
import static dev.shepherd.cluster.hosts.HostWire.WORKER;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;
import java.util.List;

/**
 * Reads the common batch of commands, assignments as {@link HostBatchWriter} writes them,
 * straight from the bytes: no {@code JsonObject} per item is built and then read field by field,
 * which was half of a worker host's event loop under load. It answers only what it reads exactly
 * as {@link HostCodec#decodeCommands} would (the same term, items and payloads of the same
 * types): for anything else (another command, an unknown, repeated or misplaced field, a value of
 * another type or out of range, bad JSON) it answers null, and the codec decodes the batch whole
 * and says what is wrong.
 */
final class HostCommandReader {
  private HostCommandReader() {}

  /** The batch {@code json} holds if it is the common kind, else null (see above). */
  static HostCommand.Batch assignments(Buffer json) {
    try (JsonParser parser = JacksonCodec.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT || !TERM.equals(parser.nextFieldName())) {
        return null;
      }
      long term = JsonValueReader.whole(parser, parser.nextToken());
      if (term < 0 || !ITEMS.equals(parser.nextFieldName())
          || parser.nextToken() != JsonToken.START_ARRAY) {
        return null;
      }
      List<HostCommand> items =
          JsonValueReader.<HostCommand>itemsToEnd(parser, HostCommandReader::assign);
      return items == null ? null : new HostCommand.Batch(term, items);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** One item, its START_OBJECT read: an assignment, or null. */
  private static HostCommand.Assign assign(JsonParser parser) throws IOException {
    boolean op = false;
    String worker = null;
    long incarnation = -1;
    long assignment = -1;
    String job = null;
    boolean hasPayload = false;
    Object payload = null;
    long attempt = -1;
    String key = null;
    boolean hasCheckpoint = false;
    Object checkpoint = null;
    String traceparent = null;
    String tracestate = null;
    String name;
    while ((name = parser.nextFieldName()) != null) {
      JsonToken value = parser.nextToken();
      switch (name) {
        case OP -> {
          if (op || value != JsonToken.VALUE_STRING || !OP_ASSIGN.equals(parser.getText())) {
            return null;
          }
          op = true;
        }
        case WORKER -> {
          if (worker != null || (worker = id(parser, value)) == null) {
            return null;
          }
        }
        case JOB -> {
          if (job != null || (job = id(parser, value)) == null) {
            return null;
          }
        }
        case KEY -> {
          if (key != null || (key = id(parser, value)) == null) {
            return null;
          }
        }
        case TRACEPARENT -> {
          if (traceparent != null || (traceparent = id(parser, value)) == null) {
            return null;
          }
        }
        case TRACESTATE -> {
          if (tracestate != null || value != JsonToken.VALUE_STRING) {
            return null;
          }
          tracestate = parser.getText();
        }
        case INCARNATION -> {
          if (incarnation >= 0 || (incarnation = JsonValueReader.whole(parser, value)) < 1
              || incarnation > Integer.MAX_VALUE) {
            return null;
          }
        }
        case ATTEMPT -> {
          if (attempt >= 0 || (attempt = JsonValueReader.whole(parser, value)) < 1
              || attempt > Integer.MAX_VALUE) {
            return null;
          }
        }
        case ASSIGNMENT -> {
          if (assignment >= 0 || (assignment = JsonValueReader.whole(parser, value)) < 0) {
            return null;
          }
        }
        case PAYLOAD -> {
          if (hasPayload) {
            return null;
          }
          hasPayload = true;
          payload = JsonValueReader.value(parser, value);
        }
        case CHECKPOINT -> {
          if (hasCheckpoint) {
            return null;
          }
          hasCheckpoint = true;
          checkpoint = JsonValueReader.value(parser, value);
        }
        default -> {
          return null;
        }
      }
    }
    if (parser.currentToken() != JsonToken.END_OBJECT || !op || worker == null
        || incarnation < 1 || assignment < 0 || job == null || !hasPayload || attempt < 1) {
      return null;
    }
    return new HostCommand.Assign(worker, (int) incarnation, assignment, job, payload,
        (int) attempt, key, checkpoint, traceparent, tracestate);
  }

  /** A string of 1 to {@link HostCodec#MAX_ID_LENGTH} characters, or null. */
  private static String id(JsonParser parser, JsonToken value) throws IOException {
    if (value != JsonToken.VALUE_STRING) {
      return null;
    }
    String text = parser.getText();
    return text.isEmpty() || text.length() > HostCodec.MAX_ID_LENGTH ? null : text;
  }
}
