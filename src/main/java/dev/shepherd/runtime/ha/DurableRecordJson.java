package dev.shepherd.runtime.ha;

import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.RateLimit;
import dev.shepherd.core.RecentOutcome;
import dev.shepherd.runtime.wire.Responder;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The records of a durable pool's batches as JSON, both ways, and the fields they share with a
 * job's image (a job's trace, its flow-control fields, its checkpoint): the format is the one
 * {@link DurableJson} describes.
 */
final class DurableRecordJson {
  private DurableRecordJson() {}

  // ---- records --------------------------------------------------------------------------------

  static JsonObject encode(DurableRecord record) {
    if (record instanceof DurableRecord.Accepted a) {
      JsonObject json = new JsonObject().put("t", "accepted").put("job", a.job())
          .put("generated", a.generated()).put("order", a.order())
          .put("payload", DurableValueJson.payload(a.payload())).put("key", a.key())
          .put("replyTo", address(a.replyTo())).put("timeoutMs", a.timeoutMs())
          .put("bytes", a.bytes()).put("target", a.target());
      positive(json, "dueAt", a.dueAt());
      if (a.retry() != null) {
        json.put("retry", DurableValueJson.encode(a.retry()));
      }
      flow(json, a.group(), a.priority());
      positive(json, "progressTimeoutMs", a.progressTimeoutMs());
      return json;
    } else if (record instanceof DurableRecord.Assigned a) {
      return new JsonObject().put("t", "assigned").put("job", a.job()).put("worker", a.worker())
          .put("attempt", a.attempt());
    } else if (record instanceof DurableRecord.Requeued r) {
      JsonObject json = new JsonObject().put("t", "requeued").put("job", r.job())
          .put("order", r.order())
          .put("interruption", DurableValueJson.interruption(r.interruption()));
      positive(json, "stops", r.stops());
      positive(json, "failures", r.failures());
      positive(json, "dueAt", r.dueAt());
      return json;
    } else if (record instanceof DurableRecord.Answered a) {
      JsonObject json = new JsonObject().put("t", "answered").put("job", a.job())
          .put("replyTo", address(a.replyTo()))
          .put("outcome", DurableValueJson.encode(a.outcome(), null));
      RecentOutcome r = a.remembered();
      if (r != null) {
        // Almost always the answer itself: only when it is not is it written a second time.
        json.put("remembered", r.job().equals(a.job()) && Objects.equals(r.outcome(), a.outcome())
            ? new JsonObject().put("at", r.at()).put("bytes", r.bytes())
            : DurableValueJson.encode(r));
      }
      return json;
    } else if (record instanceof DurableRecord.Forgotten f) {
      return new JsonObject().put("t", "forgotten").put("job", f.job());
    } else if (record instanceof DurableRecord.DeadLettered l) {
      return DurableValueJson.encode(l.entry()).put("t", "deadLettered");
    } else if (record instanceof DurableRecord.DeadRemoved r) {
      return new JsonObject().put("t", "deadRemoved").put("job", r.job());
    } else if (record instanceof DurableRecord.Bound b) {
      return new JsonObject().put("t", "bound").put("key", b.key()).put("worker", b.worker())
          .put("rebalanced", b.rebalanced());
    } else if (record instanceof DurableRecord.Unbound u) {
      return new JsonObject().put("t", "unbound").put("key", u.key());
    } else if (record instanceof DurableRecord.HostKnown h) {
      return new JsonObject().put("t", "host").put("host", h.host()).put("node", h.node())
          .put("slots", new JsonArray(new ArrayList<>(h.slots())));
    } else if (record instanceof DurableRecord.Returned r) {
      return new JsonObject().put("t", "returned").put("job", r.job()).put("order", r.order())
          .put("attempts", r.attempts());
    } else if (record instanceof DurableRecord.GroupSet g) {
      JsonObject json = new JsonObject().put("t", "groupSet").put("group", g.group());
      if (g.settings() != null) {
        json.put("settings", encode(g.settings()));
      }
      return json;
    } else if (record instanceof DurableRecord.Paused p) {
      return new JsonObject().put("t", "paused").put("group", p.group()).put("since", p.since());
    } else if (record instanceof DurableRecord.Resumed r) {
      return new JsonObject().put("t", "resumed").put("group", r.group());
    } else if (record instanceof DurableRecord.Resized r) {
      return new JsonObject().put("t", "resized").put("instances", r.instances())
          .put("maxConcurrency", r.maxConcurrency());
    } else if (record instanceof DurableRecord.Checkpointed c) {
      return checkpoint(new JsonObject().put("t", "checkpointed").put("job", c.job()),
          c.progress(), c.bytes());
    } else if (record instanceof DurableRecord.Retargeted r) {
      return new JsonObject().put("t", "retargeted").put("job", r.job())
          .put("target", r.target());
    }
    throw new AssertionError("unhandled " + record);
  }

  /**
   * T2 (docs/rules.md): a job's checkpoint, its JSON as reported, and its cost; nothing when it
   * has none.
   */
  static JsonObject checkpoint(JsonObject json, Object checkpoint, long bytes) {
    if (checkpoint != null) {
      json.put("checkpoint", checkpoint);
      positive(json, "checkpointBytes", bytes);
    }
    return json;
  }

  static DurableRecord decodeRecord(JsonObject json) {
    String type = json.getString("t", "");
    return switch (type) {
      case "accepted" -> new DurableRecord.Accepted(json.getString("job"),
          json.getLong("generated"), json.getLong("order"),
          DurableValueJson.rawPayload(json.getString("payload")), json.getString("key"),
          json.getString("replyTo"), json.getLong("timeoutMs"), json.getLong("bytes"),
          json.getString("target"), json.getLong("dueAt", 0L),
          DurableValueJson.decodeRetry(json.getJsonObject("retry")), json.getString("group"),
          json.getInteger("priority", PoolEvent.Submit.DEFAULT_PRIORITY),
          json.getLong("progressTimeoutMs", 0L));
      case "assigned" -> new DurableRecord.Assigned(json.getString("job"),
          json.getString("worker"), json.getInteger("attempt"));
      case "requeued" -> new DurableRecord.Requeued(json.getString("job"),
          json.getLong("order"), DurableValueJson.interruption(json.getJsonObject("interruption")),
          json.getInteger("stops", 0), json.getInteger("failures", 0),
          json.getLong("dueAt", 0L));
      case "answered" -> answered(json);
      case "forgotten" -> new DurableRecord.Forgotten(json.getString("job"));
      case "deadLettered" -> new DurableRecord.DeadLettered(
          DurableValueJson.decodeDeadLetter(json));
      case "deadRemoved" -> new DurableRecord.DeadRemoved(json.getString("job"));
      case "bound" -> new DurableRecord.Bound(json.getString("key"), json.getString("worker"),
          json.getBoolean("rebalanced"));
      case "unbound" -> new DurableRecord.Unbound(json.getString("key"));
      case "host" -> new DurableRecord.HostKnown(json.getString("host"), json.getString("node"),
          strings(json.getJsonArray("slots")));
      case "returned" -> new DurableRecord.Returned(json.getString("job"), json.getLong("order"),
          json.getInteger("attempts"));
      case "groupSet" -> new DurableRecord.GroupSet(json.getString("group"),
          decodeGroup(json.getJsonObject("settings")));
      case "paused" -> new DurableRecord.Paused(json.getString("group"), json.getLong("since"));
      case "resumed" -> new DurableRecord.Resumed(json.getString("group"));
      case "resized" -> new DurableRecord.Resized(json.getInteger("instances"),
          json.getInteger("maxConcurrency"));
      case "retargeted" -> new DurableRecord.Retargeted(json.getString("job"),
          json.getString("target"));
      case "checkpointed" -> new DurableRecord.Checkpointed(json.getString("job"),
          json.getValue("checkpoint"), json.getLong("checkpointBytes", 0L));
      default -> throw new IllegalArgumentException("not a durable record: " + json.encode());
    };
  }

  static DurableRecord.Answered answered(JsonObject json) {
    String job = json.getString("job");
    Outcome outcome = DurableValueJson.decodeOutcome(json.getJsonObject("outcome"), null);
    JsonObject remembered = json.getJsonObject("remembered");
    RecentOutcome recent = remembered == null ? null
        : remembered.containsKey("outcome") ? DurableValueJson.decodeRecent(remembered)
        : new RecentOutcome(job, outcome, remembered.getLong("at"), remembered.getLong("bytes"));
    return new DurableRecord.Answered(job, json.getString("replyTo"), outcome, recent);
  }

  // ---- traces (T1) ---------------------------------------------------------------------------

  /** An accepted record's JSON with its job's trace, if {@code traces} holds one. */
  static JsonObject traced(JsonObject json, DurableRecord record,
      Map<String, JournalTrace> traces) {
    if (record instanceof DurableRecord.Accepted a && !traces.isEmpty()) {
      trace(json, traces.get(a.job()));
    }
    return json;
  }

  static void trace(JsonObject json, JournalTrace trace) {
    if (trace != null) {
      json.put("trace", trace.traceparent());
      if (trace.tracestate() != null) {
        json.put("tracestate", trace.tracestate());
      }
      positive(json, "admittedAt", trace.admittedAt());
    }
  }

  /**
   * Puts {@code job}'s trace, if {@code json} holds one, into {@code traces}; a field that is not
   * a string (a store written by something else) is left out, as no trace.
   */
  static void collect(JsonObject json, String job, Map<String, JournalTrace> traces) {
    Object traceparent = json.getValue("trace");
    if (job != null && traceparent instanceof String parent) {
      Object tracestate = json.getValue("tracestate");
      Object admittedAt = json.getValue("admittedAt");
      traces.put(job, new JournalTrace(parent,
          tracestate instanceof String state ? state : null,
          admittedAt instanceof Number at ? Math.max(0, at.longValue()) : 0));
    } else if (job != null) {
      // A job id accepted again after it was forgotten, this time outside any trace.
      traces.remove(job);
    }
  }

  // ---- flow control (section 11) -------------------------------------------------------------

  /** A job's group and priority, each left out at its default. */
  static void flow(JsonObject json, String group, int priority) {
    if (group != null) {
      json.put("group", group);
    }
    if (priority != PoolEvent.Submit.DEFAULT_PRIORITY) {
      json.put("priority", priority);
    }
  }

  static JsonObject encode(GroupSettings settings) {
    JsonObject json = new JsonObject();
    putIfSet(json, "concurrency", settings.concurrency());
    putIfSet(json, "queueCapacity", settings.queueCapacity());
    putIfSet(json, "weight", settings.weight());
    if (settings.rateLimit() != null) {
      json.put("rateLimit", new JsonObject().put("permits", settings.rateLimit().permits())
          .put("perMs", settings.rateLimit().perMs()));
    }
    if (settings.paused() != null) {
      json.put("paused", settings.paused());
    }
    return json;
  }

  static void putIfSet(JsonObject json, String field, Integer value) {
    if (value != null) {
      json.put(field, value);
    }
  }

  static GroupSettings decodeGroup(JsonObject json) {
    if (json == null) {
      return null;
    }
    JsonObject limit = json.getJsonObject("rateLimit");
    return new GroupSettings(json.getInteger("concurrency"), json.getInteger("queueCapacity"),
        json.getInteger("weight"), limit == null ? null
            : new RateLimit(limit.getInteger("permits"), limit.getLong("perMs")),
        json.getBoolean("paused"));
  }

  // ---- values ---------------------------------------------------------------------------------

  /** Puts {@code value} under {@code field} unless it is 0, the default a reader assumes. */
  static void positive(JsonObject json, String field, long value) {
    if (value != 0) {
      json.put(field, value);
    }
  }

  /** The durable form of a job's replyTo: an address, or null. */
  static String address(Object replyTo) {
    if (replyTo instanceof Responder responder) {
      return responder.address();
    }
    return replyTo instanceof String address ? address : null;
  }

  static List<String> strings(JsonArray array) {
    List<String> list = new ArrayList<>();
    array.forEach(o -> list.add((String) o));
    return list;
  }
}
