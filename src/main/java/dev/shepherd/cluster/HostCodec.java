package dev.shepherd.cluster;

import dev.shepherd.core.Exit;
import dev.shepherd.runtime.BadRequest;
import dev.shepherd.runtime.JobErrorJson;
import dev.shepherd.runtime.JsonValues;
import dev.shepherd.runtime.RequestDecoder;
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
  private static final Pattern HOST_PATTERN = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Set<Exit> HOST_EXITS = Set.of(Exit.CRASH, Exit.NORMAL);
  private static final Set<Exit> ALL_EXITS = Set.of(Exit.values());
  // The fields each body and item may have, made once: batches are decoded item by item.
  private static final Set<String> COMMAND_BATCH_FIELDS = Set.of("term", "items");
  private static final Set<String> ASSIGN_FIELDS = Set.of("op", "worker", "incarnation",
      "assignment", "job", "payload", "attempt", "key");
  private static final Set<String> DEPLOY_FIELDS = Set.of("op", "worker", "incarnation");
  private static final Set<String> STOP_FIELDS = Set.of("op", "worker", "incarnation", "reason");
  private static final Set<String> CANCEL_FIELDS =
      Set.of("op", "worker", "incarnation", "assignment");
  private static final Set<String> REPORT_BATCH_FIELDS = Set.of("host", "items");
  private static final Set<String> COMPLETION_FIELDS =
      Set.of("worker", "assignment", "result", "error");
  private static final Set<String> CREATED_FIELDS = Set.of("worker", "incarnation", "fact");
  private static final Set<String> FAILED_FIELDS =
      Set.of("worker", "incarnation", "fact", "cause");
  private static final Set<String> STOPPED_FIELDS =
      Set.of("worker", "incarnation", "fact", "exit", "cause");

  private HostCodec() {}

  // ---- register / registered -----------------------------------------------------------------

  public static JsonObject encode(HostMessages.Register register) {
    JsonArray slots = new JsonArray();
    for (HostMessages.SlotOffer slot : register.slots()) {
      JsonObject json = new JsonObject().put("id", slot.id());
      if (slot.maxConcurrency() != null) {
        json.put("maxConcurrency", slot.maxConcurrency());
      }
      slots.add(json);
    }
    return new JsonObject().put("host", register.host()).put("node", register.node())
        .put("address", register.address()).put("slots", slots)
        .put("heartbeatMs", register.heartbeatMs());
  }

  public static HostMessages.Register decodeRegister(Object body) {
    JsonObject json = RequestDecoder.object(body);
    only(json, "", "host", "node", "address", "slots", "heartbeatMs");
    String host = host(json);
    String node = id(json, "", "node", true);
    String address = id(json, "", "address", true);
    Object value = json.getValue("slots");
    if (!(value instanceof JsonArray array) || array.isEmpty()) {
      throw new BadRequest("slots: is required, a non-empty array of {\"id\", \"maxConcurrency\"}"
          + " (was " + render(value) + ")");
    }
    List<HostMessages.SlotOffer> slots = new ArrayList<>(array.size());
    List<String> ids = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      String path = "slots[" + i + "].";
      JsonObject slot = item(array, i, "slots");
      only(slot, path, "id", "maxConcurrency");
      String id = id(slot, path, "id", true);
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
      if (slot.getValue("maxConcurrency") != null) {
        capacity = (int) number(slot, path, "maxConcurrency", 1, Integer.MAX_VALUE);
      }
      slots.add(new HostMessages.SlotOffer(id, capacity));
    }
    long heartbeatMs = number(json, "", "heartbeatMs", 1, Integer.MAX_VALUE);
    return new HostMessages.Register(host, node, address, slots, heartbeatMs);
  }

  public static JsonObject encode(HostMessages.Registered registered) {
    return new JsonObject().put("host", registered.host()).put("term", registered.term())
        .put("heartbeatTimeoutMs", registered.heartbeatTimeoutMs());
  }

  public static HostMessages.Registered decodeRegistered(Object body) {
    JsonObject json = RequestDecoder.object(body);
    only(json, "", "host", "term", "heartbeatTimeoutMs");
    return new HostMessages.Registered(host(json), number(json, "", "term", 0, Long.MAX_VALUE),
        number(json, "", "heartbeatTimeoutMs", 1, Integer.MAX_VALUE));
  }

  // ---- heartbeat / deregister ----------------------------------------------------------------

  public static JsonObject encode(HostMessages.Heartbeat heartbeat) {
    JsonObject json = new JsonObject().put("host", heartbeat.host()).put("node", heartbeat.node())
        .put("address", heartbeat.address());
    return heartbeat.round() == 0 ? json : json.put("round", heartbeat.round());
  }

  public static HostMessages.Heartbeat decodeHeartbeat(Object body) {
    JsonObject json = RequestDecoder.object(body);
    only(json, "", "host", "node", "address", "round");
    int round = json.getValue("round") == null ? 0
        : (int) number(json, "", "round", 0, Integer.MAX_VALUE);
    return new HostMessages.Heartbeat(host(json), id(json, "", "node", true),
        id(json, "", "address", true), round);
  }

  /** A deregistration, and the coordinator's answer to it (the same body). */
  public static JsonObject encode(HostMessages.Deregister deregister) {
    return new JsonObject().put("host", deregister.host());
  }

  public static HostMessages.Deregister decodeDeregister(Object body) {
    JsonObject json = RequestDecoder.object(body);
    only(json, "", "host");
    return new HostMessages.Deregister(host(json));
  }

  // ---- commands (coordinator -> host) --------------------------------------------------------

  public static JsonObject encode(HostCommand.Batch batch) {
    JsonArray items = new JsonArray(new ArrayList<>(batch.items().size()));
    for (HostCommand command : batch.items()) {
      items.add(encode(command));
    }
    return new JsonObject().put("term", batch.term()).put("items", items);
  }

  static JsonObject encode(HostCommand command) {
    if (command instanceof HostCommand.Assign a) {
      JsonObject json = new JsonObject().put("op", "assign").put("worker", a.worker())
          .put("incarnation", a.incarnation()).put("assignment", a.assignment())
          .put("job", a.job()).put("payload", JsonValues.toJson(a.payload()))
          .put("attempt", a.attempt());
      return a.key() == null ? json : json.put("key", a.key());
    } else if (command instanceof HostCommand.Deploy d) {
      return new JsonObject().put("op", "deploy").put("worker", d.worker())
          .put("incarnation", d.incarnation());
    } else if (command instanceof HostCommand.Stop s) {
      return new JsonObject().put("op", "stop").put("worker", s.worker())
          .put("incarnation", s.incarnation()).put("reason", s.reason().name());
    } else if (command instanceof HostCommand.Cancel c) {
      return new JsonObject().put("op", "cancel").put("worker", c.worker())
          .put("incarnation", c.incarnation()).put("assignment", c.assignment());
    } else if (command instanceof HostCommand.Reregister r) {
      JsonObject json = new JsonObject().put("op", "reregister");
      return r.round() == 0 ? json : json.put("round", r.round());
    }
    throw new AssertionError("unhandled " + command);
  }

  public static HostCommand.Batch decodeCommands(Object body) {
    JsonObject json = batchObject(body);
    only(json, "", COMMAND_BATCH_FIELDS);
    long term = number(json, "", "term", 0, Long.MAX_VALUE);
    JsonArray array = array(json, "items");
    List<HostCommand> items = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      items.add(command(item(array, i, "items"), "items[" + i + "]."));
    }
    return new HostCommand.Batch(term, items);
  }

  private static HostCommand command(JsonObject json, String path) {
    Object op = json.getValue("op");
    if ("assign".equals(op)) {
      only(json, path, ASSIGN_FIELDS);
      if (!json.containsKey("payload")) {
        throw new BadRequest(path + "payload: is required (any JSON value)");
      }
      return new HostCommand.Assign(id(json, path, "worker", true), incarnation(json, path),
          number(json, path, "assignment", 0, Long.MAX_VALUE), id(json, path, "job", true),
          json.getValue("payload"), (int) number(json, path, "attempt", 1, Integer.MAX_VALUE),
          id(json, path, "key", false));
    } else if ("deploy".equals(op)) {
      only(json, path, DEPLOY_FIELDS);
      return new HostCommand.Deploy(id(json, path, "worker", true), incarnation(json, path));
    } else if ("stop".equals(op)) {
      only(json, path, STOP_FIELDS);
      return new HostCommand.Stop(id(json, path, "worker", true), incarnation(json, path),
          exit(json, path, "reason", ALL_EXITS));
    } else if ("cancel".equals(op)) {
      only(json, path, CANCEL_FIELDS);
      return new HostCommand.Cancel(id(json, path, "worker", true), incarnation(json, path),
          number(json, path, "assignment", 0, Long.MAX_VALUE));
    } else if ("reregister".equals(op)) {
      only(json, path, "op", "round");
      return new HostCommand.Reregister(json.getValue("round") == null ? 0
          : (int) number(json, path, "round", 0, Integer.MAX_VALUE));
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
    return new JsonObject().put("host", batch.host()).put("items", items);
  }

  static JsonObject encode(HostReport report) {
    JsonObject json = new JsonObject().put("worker", report.worker());
    if (report instanceof HostReport.Completion c) {
      json.put("assignment", c.assignment());
      if (c.error() == null) {
        return json.put("result", JsonValues.toJson(c.result()));
      }
      return json.put("error", JobErrorJson.encode(c.error()));
    } else if (report instanceof HostReport.Created c) {
      return json.put("incarnation", c.incarnation()).put("fact", "created");
    } else if (report instanceof HostReport.CreationFailed f) {
      json.put("incarnation", f.incarnation()).put("fact", "failed");
      return f.cause() == null ? json : json.put("cause", f.cause());
    } else if (report instanceof HostReport.Stopped s) {
      json.put("incarnation", s.incarnation()).put("fact", "stopped").put("exit", s.exit().name());
      return s.cause() == null ? json : json.put("cause", s.cause());
    }
    throw new AssertionError("unhandled " + report);
  }

  public static HostReport.Batch decodeReports(Object body) {
    JsonObject json = batchObject(body);
    only(json, "", REPORT_BATCH_FIELDS);
    String host = host(json);
    JsonArray array = array(json, "items");
    List<HostReport> items = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      items.add(report(item(array, i, "items"), "items[" + i + "]."));
    }
    return new HostReport.Batch(host, items);
  }

  private static HostReport report(JsonObject json, String path) {
    if (!json.containsKey("fact")) {
      only(json, path, COMPLETION_FIELDS);
      String worker = id(json, path, "worker", true);
      long assignment = number(json, path, "assignment", 0, Long.MAX_VALUE);
      boolean hasResult = json.containsKey("result");
      boolean hasError = json.getValue("error") != null;
      if (hasResult == hasError) {
        throw new BadRequest(path + "result/error: exactly one of them is required");
      }
      return new HostReport.Completion(worker, assignment, json.getValue("result"),
          hasError ? JobErrorJson.decode(json.getValue("error"), path + "error.") : null);
    }
    Object fact = json.getValue("fact");
    if ("created".equals(fact)) {
      only(json, path, CREATED_FIELDS);
      return new HostReport.Created(id(json, path, "worker", true), incarnation(json, path));
    } else if ("failed".equals(fact)) {
      only(json, path, FAILED_FIELDS);
      return new HostReport.CreationFailed(id(json, path, "worker", true),
          incarnation(json, path), text(json, path, "cause"));
    } else if ("stopped".equals(fact)) {
      only(json, path, STOPPED_FIELDS);
      return new HostReport.Stopped(id(json, path, "worker", true), incarnation(json, path),
          exit(json, path, "exit", HOST_EXITS), text(json, path, "cause"));
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
    String host = id(json, "", "host", true);
    if (!HOST_PATTERN.matcher(host).matches()) {
      throw new BadRequest("host: must be 1-64 letters, digits, '.', '_' or '-' (was \""
          + clip(host) + "\")");
    }
    return host;
  }

  private static int incarnation(JsonObject json, String path) {
    return (int) number(json, path, "incarnation", 1, Integer.MAX_VALUE);
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
