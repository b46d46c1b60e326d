package dev.shepherd.cluster.hosts;

import static dev.shepherd.cluster.hosts.HostWire.*;

import dev.shepherd.core.Exit;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.JobErrorJson;
import dev.shepherd.runtime.payload.JsonValues;
import dev.shepherd.runtime.wire.RequestDecoder;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The JSON of the worker-host protocol, both directions ({@code docs/protocol.md}, "Worker
 * hosts"). Every {@code decode…} refuses a malformed body with a {@link BadRequest} whose message
 * names the field ({@code items[3].assignment: …}), to be answered {@code fail(400, message)}
 * where the body came as a request; unknown fields are refused too, so a typo never passes as a
 * default. Encoding turns worker results into JSON values the bus can carry.
 */
public final class HostCodec {
  /** Longest id (host, node, worker, job, key, address) a body may carry. */
  public static final int MAX_ID_LENGTH = 256;
  static final Pattern HOST_PATTERN = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Set<Exit> HOST_EXITS = Set.of(Exit.CRASH, Exit.NORMAL);
  private static final Set<Exit> ALL_EXITS = Set.of(Exit.values());
  // The fields each body and item may have, made once: batches are decoded item by item.
  private static final Set<String> COMMAND_BATCH_FIELDS = Set.of(TERM, ITEMS);
  private static final Set<String> ASSIGN_FIELDS = Set.of(OP, WORKER, INCARNATION,
      ASSIGNMENT, JOB, PAYLOAD, ATTEMPT, KEY, CHECKPOINT, TRACEPARENT, TRACESTATE);
  private static final Set<String> DEPLOY_FIELDS = Set.of(OP, WORKER, INCARNATION);
  private static final Set<String> STOP_FIELDS = Set.of(OP, WORKER, INCARNATION, REASON);
  private static final Set<String> CANCEL_FIELDS =
      Set.of(OP, WORKER, INCARNATION, ASSIGNMENT);
  private static final Set<String> REPORT_BATCH_FIELDS = Set.of(HOST, ITEMS);
  private static final Set<String> COMPLETION_FIELDS =
      Set.of(WORKER, ASSIGNMENT, RESULT, ERROR, RUN_NANOS);
  private static final Set<String> RATE_LIMITED_FIELDS = Set.of(WORKER, ASSIGNMENT, RATE_LIMITED_MS);
  private static final Set<String> PROGRESS_FIELDS = Set.of(WORKER, ASSIGNMENT, PROGRESS);
  private static final Set<String> CREATED_FIELDS = Set.of(WORKER, INCARNATION, FACT);
  private static final Set<String> FAILED_FIELDS =
      Set.of(WORKER, INCARNATION, FACT, CAUSE);
  private static final Set<String> STOPPED_FIELDS =
      Set.of(WORKER, INCARNATION, FACT, EXIT, CAUSE);

  private HostCodec() {}

  // ---- register / registered -----------------------------------------------------------------

  public static JsonObject encode(HostMessages.Register register) {
    JsonArray slots = new JsonArray();
    for (HostMessages.SlotOffer slot : register.slots()) {
      JsonObject json = new JsonObject().put(ID, slot.id());
      if (slot.maxConcurrency() != null) {
        json.put(MAX_CONCURRENCY, slot.maxConcurrency());
      }
      slots.add(json);
    }
    return new JsonObject().put(HOST, register.host()).put(NODE, register.node())
        .put(ADDRESS, register.address()).put(SLOTS, slots)
        .put(HEARTBEAT_MS, register.heartbeatMs());
  }

  public static HostMessages.Register decodeRegister(Object body) {
    JsonObject json = RequestDecoder.object(body);
    only(json, "", HOST, NODE, ADDRESS, SLOTS, HEARTBEAT_MS);
    String host = host(json);
    String node = id(json, "", NODE, true);
    String address = id(json, "", ADDRESS, true);
    Object value = json.getValue(SLOTS);
    if (!(value instanceof JsonArray array) || array.isEmpty()) {
      throw new BadRequest("slots: is required, a non-empty array of {\"id\", \"maxConcurrency\"}"
          + " (was " + render(value) + ")");
    }
    List<HostMessages.SlotOffer> slots = new ArrayList<>(array.size());
    List<String> ids = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      String path = "slots[" + i + "].";
      JsonObject slot = item(array, i, SLOTS);
      only(slot, path, ID, MAX_CONCURRENCY);
      String id = id(slot, path, ID, true);
      if (!id.startsWith(host + "/") || id.length() == host.length() + 1) {
        throw new BadRequest(path + "id: must be \"" + host + "/<slot>\" (was \"" + clip(id)
            + "\")");
      }
      int earlier = ids.indexOf(id);
      if (earlier >= 0) {
        throw new BadRequest(path + "id: is used by slots[" + earlier + "] (was \"" + clip(id)
            + "\")");
      }
      ids.add(id);
      Integer capacity = null;
      if (slot.getValue(MAX_CONCURRENCY) != null) {
        capacity = (int) number(slot, path, MAX_CONCURRENCY, 1, Integer.MAX_VALUE);
      }
      slots.add(new HostMessages.SlotOffer(id, capacity));
    }
    long heartbeatMs = number(json, "", HEARTBEAT_MS, 1, Integer.MAX_VALUE);
    return new HostMessages.Register(host, node, address, slots, heartbeatMs);
  }

  public static JsonObject encode(HostMessages.Registered registered) {
    return new JsonObject().put(HOST, registered.host()).put(TERM, registered.term())
        .put(HEARTBEAT_TIMEOUT_MS, registered.heartbeatTimeoutMs());
  }

  public static HostMessages.Registered decodeRegistered(Object body) {
    JsonObject json = RequestDecoder.object(body);
    only(json, "", HOST, TERM, HEARTBEAT_TIMEOUT_MS);
    return new HostMessages.Registered(host(json), number(json, "", TERM, 0, Long.MAX_VALUE),
        number(json, "", HEARTBEAT_TIMEOUT_MS, 1, Integer.MAX_VALUE));
  }

  // ---- heartbeat / deregister ----------------------------------------------------------------

  public static JsonObject encode(HostMessages.Heartbeat heartbeat) {
    JsonObject json = new JsonObject().put(HOST, heartbeat.host()).put(NODE, heartbeat.node())
        .put(ADDRESS, heartbeat.address());
    return heartbeat.round() == 0 ? json : json.put(ROUND, heartbeat.round());
  }

  public static HostMessages.Heartbeat decodeHeartbeat(Object body) {
    JsonObject json = RequestDecoder.object(body);
    only(json, "", HOST, NODE, ADDRESS, ROUND);
    int round = json.getValue(ROUND) == null ? 0
        : (int) number(json, "", ROUND, 0, Integer.MAX_VALUE);
    return new HostMessages.Heartbeat(host(json), id(json, "", NODE, true),
        id(json, "", ADDRESS, true), round);
  }

  /** A deregistration, and the coordinator's answer to it (the same body). */
  public static JsonObject encode(HostMessages.Deregister deregister) {
    return new JsonObject().put(HOST, deregister.host());
  }

  public static HostMessages.Deregister decodeDeregister(Object body) {
    JsonObject json = RequestDecoder.object(body);
    only(json, "", HOST);
    return new HostMessages.Deregister(host(json));
  }

  // ---- commands (coordinator -> host) --------------------------------------------------------

  public static JsonObject encode(HostCommand.Batch batch) {
    JsonArray items = new JsonArray(new ArrayList<>(batch.items().size()));
    for (HostCommand command : batch.items()) {
      items.add(encode(command));
    }
    return new JsonObject().put(TERM, batch.term()).put(ITEMS, items);
  }

  static JsonObject encode(HostCommand command) {
    if (command instanceof HostCommand.Assign a) {
      JsonObject json = new JsonObject().put(OP, OP_ASSIGN).put(WORKER, a.worker())
          .put(INCARNATION, a.incarnation()).put(ASSIGNMENT, a.assignment())
          .put(JOB, a.job()).put(PAYLOAD, JsonValues.toJson(a.payload()))
          .put(ATTEMPT, a.attempt());
      if (a.checkpoint() != null) {
        json.put(CHECKPOINT, JsonValues.toJson(a.checkpoint()));
      }
      if (a.traceparent() != null) {
        json.put(TRACEPARENT, a.traceparent());
        if (a.tracestate() != null) {
          json.put(TRACESTATE, a.tracestate());
        }
      }
      return a.key() == null ? json : json.put(KEY, a.key());
    } else if (command instanceof HostCommand.Deploy d) {
      return new JsonObject().put(OP, OP_DEPLOY).put(WORKER, d.worker())
          .put(INCARNATION, d.incarnation());
    } else if (command instanceof HostCommand.Stop s) {
      return new JsonObject().put(OP, OP_STOP).put(WORKER, s.worker())
          .put(INCARNATION, s.incarnation()).put(REASON, s.reason().name());
    } else if (command instanceof HostCommand.Cancel c) {
      return new JsonObject().put(OP, OP_CANCEL).put(WORKER, c.worker())
          .put(INCARNATION, c.incarnation()).put(ASSIGNMENT, c.assignment());
    } else if (command instanceof HostCommand.Reregister r) {
      JsonObject json = new JsonObject().put(OP, OP_REREGISTER);
      return r.round() == 0 ? json : json.put(ROUND, r.round());
    }
    throw new AssertionError("unhandled " + command);
  }

  public static HostCommand.Batch decodeCommands(Object body) {
    if (body instanceof Buffer buffer) {
      // The common batch, read from the bytes; anything else is decoded whole below.
      HostCommand.Batch assignments = HostCommandReader.assignments(buffer);
      if (assignments != null) {
        return assignments;
      }
    }
    JsonObject json = batchObject(body);
    only(json, "", COMMAND_BATCH_FIELDS);
    long term = number(json, "", TERM, 0, Long.MAX_VALUE);
    JsonArray array = array(json, ITEMS);
    List<HostCommand> items = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      items.add(command(item(array, i, ITEMS), "items[" + i + "]."));
    }
    return new HostCommand.Batch(term, items);
  }

  private static HostCommand command(JsonObject json, String path) {
    Object op = json.getValue(OP);
    if (OP_ASSIGN.equals(op)) {
      only(json, path, ASSIGN_FIELDS);
      if (!json.containsKey(PAYLOAD)) {
        throw new BadRequest(path + "payload: is required (any JSON value)");
      }
      return new HostCommand.Assign(id(json, path, WORKER, true), incarnation(json, path),
          number(json, path, ASSIGNMENT, 0, Long.MAX_VALUE), id(json, path, JOB, true),
          json.getValue(PAYLOAD), (int) number(json, path, ATTEMPT, 1, Integer.MAX_VALUE),
          id(json, path, KEY, false), json.getValue(CHECKPOINT),
          id(json, path, TRACEPARENT, false), text(json, path, TRACESTATE));
    } else if (OP_DEPLOY.equals(op)) {
      only(json, path, DEPLOY_FIELDS);
      return new HostCommand.Deploy(id(json, path, WORKER, true), incarnation(json, path));
    } else if (OP_STOP.equals(op)) {
      only(json, path, STOP_FIELDS);
      return new HostCommand.Stop(id(json, path, WORKER, true), incarnation(json, path),
          exit(json, path, REASON, ALL_EXITS));
    } else if (OP_CANCEL.equals(op)) {
      only(json, path, CANCEL_FIELDS);
      return new HostCommand.Cancel(id(json, path, WORKER, true), incarnation(json, path),
          number(json, path, ASSIGNMENT, 0, Long.MAX_VALUE));
    } else if (OP_REREGISTER.equals(op)) {
      only(json, path, OP, ROUND);
      return new HostCommand.Reregister(json.getValue(ROUND) == null ? 0
          : (int) number(json, path, ROUND, 0, Integer.MAX_VALUE));
    }
    throw new BadRequest(path + "op: must be one of [assign, cancel, deploy, reregister, stop] (was "
        + render(op) + ")");
  }

  // ---- reports (host -> coordinator) ---------------------------------------------------------

  public static JsonObject encode(HostReport.Batch batch) {
    JsonArray items = new JsonArray(new ArrayList<>(batch.items().size()));
    for (HostReport report : batch.items()) {
      items.add(encode(report));
    }
    return new JsonObject().put(HOST, batch.host()).put(ITEMS, items);
  }

  static JsonObject encode(HostReport report) {
    JsonObject json = new JsonObject().put(WORKER, report.worker());
    if (report instanceof HostReport.Completion c) {
      json.put(ASSIGNMENT, c.assignment());
      if (c.runNanos() != HostReport.Completion.UNMEASURED) {
        json.put(RUN_NANOS, c.runNanos());
      }
      if (c.error() == null) {
        return json.put(RESULT, JsonValues.toJson(c.result()));
      }
      return json.put(ERROR, JobErrorJson.encode(c.error()));
    } else if (report instanceof HostReport.RateLimited r) {
      return json.put(ASSIGNMENT, r.assignment()).put(RATE_LIMITED_MS, r.holdMs());
    } else if (report instanceof HostReport.Progress p) {
      return json.put(ASSIGNMENT, p.assignment()).put(PROGRESS, p.progress());
    } else if (report instanceof HostReport.Created c) {
      return json.put(INCARNATION, c.incarnation()).put(FACT, FACT_CREATED);
    } else if (report instanceof HostReport.CreationFailed f) {
      json.put(INCARNATION, f.incarnation()).put(FACT, FACT_FAILED);
      return f.cause() == null ? json : json.put(CAUSE, f.cause());
    } else if (report instanceof HostReport.Stopped s) {
      json.put(INCARNATION, s.incarnation()).put(FACT, FACT_STOPPED).put(EXIT, s.exit().name());
      return s.cause() == null ? json : json.put(CAUSE, s.cause());
    }
    throw new AssertionError("unhandled " + report);
  }

  public static HostReport.Batch decodeReports(Object body) {
    if (body instanceof Buffer buffer) {
      // The common batch, read from the bytes; anything else is decoded whole below.
      HostReport.Batch completions = HostReportReader.completions(buffer);
      if (completions != null) {
        return completions;
      }
    }
    JsonObject json = batchObject(body);
    only(json, "", REPORT_BATCH_FIELDS);
    String host = host(json);
    JsonArray array = array(json, ITEMS);
    List<HostReport> items = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      items.add(report(item(array, i, ITEMS), "items[" + i + "]."));
    }
    return new HostReport.Batch(host, items);
  }

  private static HostReport report(JsonObject json, String path) {
    if (!json.containsKey(FACT) && json.containsKey(PROGRESS)) {
      only(json, path, PROGRESS_FIELDS);
      Object progress = json.getValue(PROGRESS);
      if (!(progress instanceof JsonObject report)) {
        throw new BadRequest(path + "progress: must be a JSON object");
      }
      long bytes = report.toBuffer().length();
      if (bytes > dev.shepherd.core.JobProgress.MAX_BYTES) {
        throw new BadRequest(path + "progress: " + bytes + " bytes of JSON, more than the "
            + dev.shepherd.core.JobProgress.MAX_BYTES + " a report may have");
      }
      return new HostReport.Progress(id(json, path, WORKER, true),
          number(json, path, ASSIGNMENT, 0, Long.MAX_VALUE), report, bytes);
    }
    if (!json.containsKey(FACT) && json.containsKey(RATE_LIMITED_MS)) {
      only(json, path, RATE_LIMITED_FIELDS);
      return new HostReport.RateLimited(id(json, path, WORKER, true),
          number(json, path, ASSIGNMENT, 0, Long.MAX_VALUE),
          number(json, path, RATE_LIMITED_MS, 0, Long.MAX_VALUE));
    }
    if (!json.containsKey(FACT)) {
      only(json, path, COMPLETION_FIELDS);
      String worker = id(json, path, WORKER, true);
      long assignment = number(json, path, ASSIGNMENT, 0, Long.MAX_VALUE);
      boolean hasResult = json.containsKey(RESULT);
      boolean hasError = json.getValue(ERROR) != null;
      if (hasResult == hasError) {
        throw new BadRequest(path + "result/error: exactly one of them is required");
      }
      long runNanos = json.containsKey(RUN_NANOS)
          ? number(json, path, RUN_NANOS, 0, Long.MAX_VALUE) : HostReport.Completion.UNMEASURED;
      return new HostReport.Completion(worker, assignment, json.getValue(RESULT),
          hasError ? JobErrorJson.decode(json.getValue(ERROR), path + "error.") : null, runNanos);
    }
    Object fact = json.getValue(FACT);
    if (FACT_CREATED.equals(fact)) {
      only(json, path, CREATED_FIELDS);
      return new HostReport.Created(id(json, path, WORKER, true), incarnation(json, path));
    } else if (FACT_FAILED.equals(fact)) {
      only(json, path, FAILED_FIELDS);
      return new HostReport.CreationFailed(id(json, path, WORKER, true),
          incarnation(json, path), text(json, path, CAUSE));
    } else if (FACT_STOPPED.equals(fact)) {
      only(json, path, STOPPED_FIELDS);
      return new HostReport.Stopped(id(json, path, WORKER, true), incarnation(json, path),
          exit(json, path, EXIT, HOST_EXITS), text(json, path, CAUSE));
    }
    throw new BadRequest(path + "fact: must be one of [created, failed, stopped] (was "
        + render(fact) + ")");
  }

  /**
   * A batch's body as a JSON object. Nodes send batches as buffers of JSON text ({@link
   * HostBatchWriter}): parsed straight from the bytes. Anything else, and a buffer that is not a
   * JSON object, goes through {@link RequestDecoder#object}, which says what is wrong.
   */
  private static JsonObject batchObject(Object body) {
    if (body instanceof Buffer buffer) {
      try {
        if (Json.decodeValue(buffer) instanceof JsonObject json) {
          return json;
        }
      } catch (DecodeException e) {
        // refused below, with the reason
      }
    }
    return RequestDecoder.object(body);
  }

  // ---- field readers -------------------------------------------------------------------------

  private static String host(JsonObject json) {
    String host = id(json, "", HOST, true);
    if (!HOST_PATTERN.matcher(host).matches()) {
      throw new BadRequest("host: must be 1-64 letters, digits, '.', '_' or '-' (was \""
          + clip(host) + "\")");
    }
    return host;
  }

  private static int incarnation(JsonObject json, String path) {
    return (int) number(json, path, INCARNATION, 1, Integer.MAX_VALUE);
  }

  private static Exit exit(JsonObject json, String path, String field, Set<Exit> allowed) {
    Object value = json.getValue(field);
    if (value instanceof String text) {
      for (Exit exit : allowed) {
        if (exit.name().equals(text.toUpperCase(Locale.ROOT))) {
          return exit;
        }
      }
    }
    Set<String> names = new TreeSet<>();
    allowed.forEach(e -> names.add(e.name()));
    throw new BadRequest(path + field + ": must be one of " + names + " (was " + render(value)
        + ")");
  }

  private static String id(JsonObject json, String path, String field, boolean required) {
    Object value = json.getValue(field);
    if (value == null) {
      if (required) {
        throw new BadRequest(path + field + ": is required, a non-empty string");
      }
      return null;
    }
    if (!(value instanceof String text)) {
      throw new BadRequest(path + field + ": must be a string (was " + render(value) + ")");
    }
    if (text.isEmpty() || text.length() > MAX_ID_LENGTH) {
      throw new BadRequest(path + field + ": must be 1 to " + MAX_ID_LENGTH + " characters (was "
          + text.length() + ")");
    }
    return text;
  }

  /** An optional free text (a cause); null when absent. */
  private static String text(JsonObject json, String path, String field) {
    Object value = json.getValue(field);
    if (value != null && !(value instanceof String)) {
      throw new BadRequest(path + field + ": must be a string (was " + render(value) + ")");
    }
    return (String) value;
  }

  private static long number(JsonObject json, String path, String field, long min, long max) {
    Object value = json.getValue(field);
    if (!(value instanceof Integer || value instanceof Long)) {
      throw new BadRequest(path + field + ": is required, a whole number (was " + render(value)
          + ")");
    }
    long number = ((Number) value).longValue();
    if (number < min || number > max) {
      throw new BadRequest(path + field + ": must be between " + min + " and " + max + " (was "
          + number + ")");
    }
    return number;
  }

  private static JsonArray array(JsonObject json, String field) {
    Object value = json.getValue(field);
    if (!(value instanceof JsonArray array)) {
      throw new BadRequest(field + ": is required, an array (was " + render(value) + ")");
    }
    return array;
  }

  private static JsonObject item(JsonArray array, int index, String field) {
    Object value = array.getValue(index);
    if (!(value instanceof JsonObject object)) {
      throw new BadRequest(field + "[" + index + "]: must be an object (was " + render(value)
          + ")");
    }
    return object;
  }

  private static void only(JsonObject json, String path, String... allowed) {
    only(json, path, Set.of(allowed));
  }

  private static void only(JsonObject json, String path, Set<String> known) {
    for (String name : json.fieldNames()) {
      if (!known.contains(name)) {
        throw new BadRequest(path + clip(name) + ": unknown field; expected one of "
            + new TreeSet<>(known));
      }
    }
  }

  private static String render(Object value) {
    if (value == null) {
      return "missing";
    }
    return value instanceof String text ? "\"" + clip(text) + "\""
        : value instanceof Number || value instanceof Boolean ? String.valueOf(value)
        : value instanceof JsonObject ? "an object"
        : value instanceof JsonArray ? "an array" : value.getClass().getSimpleName();
  }

  private static String clip(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "…" : text;
  }
}
