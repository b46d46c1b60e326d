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
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;
import java.util.List;

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
      List<HostReport> items =
          JsonValueReader.<HostReport>itemsToEnd(parser, HostReportReader::completion);
      return items == null ? null : new HostReport.Batch(host, items);
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
          if (assignment >= 0 || (assignment = JsonValueReader.whole(parser, value)) < 0) {
            return null;
          }
        }
        case RUN_NANOS -> {
          if (runNanos >= 0 || (runNanos = JsonValueReader.whole(parser, value)) < 0) {
            return null;
          }
        }
        case RESULT -> {
          if (hasResult) {
            return null;
          }
          hasResult = true;
          result = JsonValueReader.value(parser, value);
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
}
