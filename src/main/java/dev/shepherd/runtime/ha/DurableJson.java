package dev.shepherd.runtime.ha;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.RateLimit;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSize;
import dev.shepherd.core.RecentOutcome;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.payload.RawJson;
import dev.shepherd.runtime.wire.Responder;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The text a durable pool's store holds (A3 in docs/rules.md): batches of records and checkpoints
 * (an image and the answers not yet known to have left), as JSON, both ways. A job's {@code
 * replyTo} is stored as the address its {@link Responder} names (null when only the request's own
 * reply could carry the answer), and read back as that string; a payload is stored as its JSON text
 * and read back as {@link RawJson}, as it arrived (see {@link DurableValueJson} for payloads in
 * outcomes).
 *
 * <p>What each holds. A field at its default (0, false, null) of section 10 is left out, since
 * records are written per job, and a missing one reads as its default: a batch written before
 * the field existed (a rolling upgrade) reads as it meant.
 *
 * <ul>
 *   <li>batch: {@code {"id", "records": [record…], "delivered": [job…], "checkpoint",
 *       "undelivered": [answered record…], "counters"?}}; base: {@code {"image", "undelivered",
 *       "counters"?}}, the counters being the pool's totals (T3 in docs/rules.md, {@link
 *       DurableValueJson}), left out when not kept.
 *   <li>image: {@code {"term", "generated", "jobs", "bindings", "hosts", "dead": [dead
 *       letter…], "recent": [recent outcome…]}}, lists in the image's order.
 *   <li>job of an image: {@code {"job", "generated", "order", "payload", "key", "replyTo",
 *       "timeoutMs", "bytes", "target", "attempts", "worker", "interruption", "dueAt"?,
 *       "front"?, "stops"?, "failures"?, "retry"?, "checkpoint"?, "checkpointBytes"?,
 *       "progressTimeoutMs"?}}.
 *   <li>T2: record {@code checkpointed} {@code {"job", "checkpoint"?, "checkpointBytes"?}}, the
 *       job's latest progress as reported (JSON), and its cost; a job's and an {@code accepted}
 *       record's {@code "progressTimeoutMs"?}, its own progress timeout (left out: the
 *       pool's).
 *   <li>records, named by {@code "t"}: {@code accepted} (the submit's fields, {@code "dueAt"?},
 *       {@code "retry"?}); {@code assigned} {@code {"job", "worker", "attempt"}}; {@code
 *       requeued} {@code {"job", "order", "interruption", "stops"?, "failures"?, "dueAt"?}};
 *       {@code answered} {@code {"job", "replyTo", "outcome", "remembered"?}}, where {@code
 *       remembered} is {@code {"at", "bytes"}} (of this very outcome); {@code forgotten} {@code
 *       {"job"}}; {@code deadLettered} (the entry's fields, flat); {@code deadRemoved} {@code
 *       {"job"}}; {@code bound}, {@code unbound}, {@code host}.
 *   <li>flow control (section 11): a job's and an {@code accepted} record's {@code "group"?} and
 *       {@code "priority"?} (5 when left out); the image's {@code "groups"?: [{"group",
 *       "settings"?, "pausedSince"?}]} and {@code "pausedSince"?}; records {@code returned}
 *       {@code {"job", "order", "attempts"}}, {@code groupSet} {@code {"group", "settings"?}},
 *       {@code paused} {@code {"group"?, "since"}}, {@code resumed} {@code {"group"?}}; group
 *       settings {@code {"concurrency"?, "queueCapacity"?, "weight"?, "rateLimit"?: {"permits",
 *       "perMs"}, "paused"?}}.
 *   <li>values (dead letters, recent outcomes, outcomes, failure retries): {@link
 *       DurableValueJson}.
 *   <li>T1: an {@code accepted} record's and a job image's {@code "trace"?}, {@code
 *       "tracestate"?} and {@code "admittedAt"?}, the submitter's W3C trace context and the
 *       job's admission in epoch milliseconds ({@link JournalTrace}), written when the leader's
 *       traces hold one for the job and collected by the decoders that take a map; the pool's
 *       records themselves never carry it.
 * </ul>
 */
public final class DurableJson {
  private DurableJson() {}

  // ---- batches and bases ----------------------------------------------------------------------

  public static String encode(DurableGate.Batch batch) {
    return encode(batch, Map.of());
  }

  /** {@code batch}, its accepted records with the trace {@code traces} holds for their job. */
  public static String encode(DurableGate.Batch batch, Map<String, JournalTrace> traces) {
    JsonArray records = new JsonArray();
    batch.records().forEach(r -> records.add(traced(encode(r), r, traces)));
    JsonArray undelivered = new JsonArray();
    batch.undelivered().forEach(a -> undelivered.add(encode(a)));
    return new JsonObject().put("id", batch.id()).put("records", records)
        .put("delivered", new JsonArray(new ArrayList<>(batch.delivered())))
        .put("checkpoint", batch.checkpoint()).put("undelivered", undelivered)
        .put("counters", DurableValueJson.encode(batch.counters())).encode();
  }

  public static DurableGate.Batch decodeBatch(String text) {
    return decodeBatch(text, new HashMap<>());
  }

  /** The batch {@code text} holds; the traces of its accepted records go into {@code traces}. */
  public static DurableGate.Batch decodeBatch(String text, Map<String, JournalTrace> traces) {
    JsonObject json = new JsonObject(text);
    List<DurableRecord> records = new ArrayList<>();
    for (Object r : json.getJsonArray("records")) {
      DurableRecord record = decodeRecord((JsonObject) r);
      if (record instanceof DurableRecord.Accepted a) {
        collect((JsonObject) r, a.job(), traces);
      }
      records.add(record);
    }
    List<String> delivered = new ArrayList<>();
    for (Object d : json.getJsonArray("delivered")) {
      delivered.add((String) d);
    }
    return new DurableGate.Batch(json.getLong("id"), records, delivered,
        json.getBoolean("checkpoint"), answers(json.getJsonArray("undelivered")),
        DurableValueJson.decodeCounters(json.getJsonObject("counters")));
  }

  public static String encode(DurableLog.Base base) {
    return encode(base, Map.of());
  }

  /** {@code base}, its image's jobs with the trace {@code traces} holds for them. */
  public static String encode(DurableLog.Base base, Map<String, JournalTrace> traces) {
    JsonArray undelivered = new JsonArray();
    base.undelivered().forEach(a -> undelivered.add(encode(a)));
    return new JsonObject().put("image", encode(base.image(), traces))
        .put("undelivered", undelivered)
        .put("counters", DurableValueJson.encode(base.counters())).encode();
  }

  public static DurableLog.Base decodeBase(String text) {
    return decodeBase(text, new HashMap<>());
  }

  /** The base {@code text} holds; the traces of its image's jobs go into {@code traces}. */
  public static DurableLog.Base decodeBase(String text, Map<String, JournalTrace> traces) {
    JsonObject json = new JsonObject(text);
    return new DurableLog.Base(decodeImage(json.getJsonObject("image"), traces),
        answers(json.getJsonArray("undelivered")),
        DurableValueJson.decodeCounters(json.getJsonObject("counters")));
  }

  private static List<DurableRecord.Answered> answers(JsonArray array) {
    List<DurableRecord.Answered> answers = new ArrayList<>();
    for (Object a : array) {
      answers.add((DurableRecord.Answered) decodeRecord((JsonObject) a));
    }
    return answers;
  }

  // ---- images ---------------------------------------------------------------------------------

  static JsonObject encode(DurableImage image) {
    return encode(image, Map.of());
  }

  static JsonObject encode(DurableImage image, Map<String, JournalTrace> traces) {
    JsonArray jobs = new JsonArray();
    for (DurableImage.JobImage j : image.jobs()) {
      JsonObject job = new JsonObject().put("job", j.job()).put("generated", j.generated())
          .put("order", j.order()).put("payload", DurableValueJson.payload(j.payload()))
          .put("key", j.key()).put("replyTo", address(j.replyTo()))
          .put("timeoutMs", j.timeoutMs()).put("bytes", j.bytes()).put("target", j.target())
          .put("attempts", j.attempts()).put("worker", j.worker())
          .put("interruption", DurableValueJson.interruption(j.interruption()));
      positive(job, "dueAt", j.dueAt());
      if (j.front()) {
        job.put("front", true);
      }
      positive(job, "stops", j.stops());
      positive(job, "failures", j.failures());
      if (j.retry() != null) {
        job.put("retry", DurableValueJson.encode(j.retry()));
      }
      flow(job, j.group(), j.priority());
      checkpoint(job, j.checkpoint(), j.checkpointBytes());
      positive(job, "progressTimeoutMs", j.progressTimeoutMs());
      trace(job, traces.get(j.job()));
      jobs.add(job);
    }
    JsonArray bindings = new JsonArray();
    for (DurableImage.BindingImage b : image.bindings()) {
      bindings.add(new JsonObject().put("key", b.key()).put("worker", b.worker())
          .put("rebalanced", b.rebalanced()));
    }
    JsonArray hosts = new JsonArray();
    for (DurableImage.HostImage h : image.hosts()) {
      hosts.add(new JsonObject().put("host", h.host()).put("node", h.node())
          .put("slots", new JsonArray(new ArrayList<>(h.slots()))));
    }
    JsonArray dead = new JsonArray();
    image.dead().forEach(e -> dead.add(DurableValueJson.encode(e)));
    JsonArray recent = new JsonArray();
    image.recent().forEach(r -> recent.add(DurableValueJson.encode(r)));
    JsonObject json = new JsonObject().put("term", image.term())
        .put("generated", image.generated()).put("jobs", jobs).put("bindings", bindings)
        .put("hosts", hosts).put("dead", dead).put("recent", recent);
    if (!image.groups().isEmpty()) {
      JsonArray groups = new JsonArray();
      for (DurableImage.GroupImage g : image.groups()) {
        JsonObject group = new JsonObject().put("group", g.group());
        if (g.settings() != null) {
          group.put("settings", encode(g.settings()));
        }
        if (g.pausedSince() != null) {
          group.put("pausedSince", g.pausedSince());
        }
        groups.add(group);
      }
      json.put("groups", groups);
    }
    if (image.pausedSince() != null) {
      json.put("pausedSince", image.pausedSince());
    }
    if (image.size() != null) {
      json.put("size", new JsonObject().put("instances", image.size().instances())
          .put("maxConcurrency", image.size().maxConcurrency()));
    }
    return json;
  }

  static DurableImage decodeImage(JsonObject json) {
    return decodeImage(json, new HashMap<>());
  }

  static DurableImage decodeImage(JsonObject json, Map<String, JournalTrace> traces) {
    List<DurableImage.JobImage> jobs = new ArrayList<>();
    for (Object o : json.getJsonArray("jobs")) {
      JsonObject j = (JsonObject) o;
      collect(j, j.getString("job"), traces);
      jobs.add(new DurableImage.JobImage(j.getString("job"), j.getLong("generated"),
          j.getLong("order"), DurableValueJson.rawPayload(j.getString("payload")),
          j.getString("key"), j.getString("replyTo"), j.getLong("timeoutMs"),
          j.getLong("bytes"), j.getString("target"), j.getInteger("attempts"),
          j.getString("worker"), DurableValueJson.interruption(j.getJsonObject("interruption")),
          j.getLong("dueAt", 0L), j.getBoolean("front", false), j.getInteger("stops", 0),
          j.getInteger("failures", 0), DurableValueJson.decodeRetry(j.getJsonObject("retry")),
          j.getString("group"), j.getInteger("priority", PoolEvent.Submit.DEFAULT_PRIORITY),
          j.getValue("checkpoint"), j.getLong("checkpointBytes", 0L),
          j.getLong("progressTimeoutMs", 0L)));
    }
    List<DurableImage.BindingImage> bindings = new ArrayList<>();
    for (Object o : json.getJsonArray("bindings")) {
      JsonObject b = (JsonObject) o;
      bindings.add(new DurableImage.BindingImage(b.getString("key"), b.getString("worker"),
          b.getBoolean("rebalanced")));
    }
    List<DurableImage.HostImage> hosts = new ArrayList<>();
    for (Object o : json.getJsonArray("hosts")) {
      JsonObject h = (JsonObject) o;
      hosts.add(new DurableImage.HostImage(h.getString("host"), h.getString("node"),
          strings(h.getJsonArray("slots"))));
    }
    List<DeadLetter> dead = new ArrayList<>();
    for (Object o : json.getJsonArray("dead", new JsonArray())) {
      dead.add(DurableValueJson.decodeDeadLetter((JsonObject) o));
    }
    List<RecentOutcome> recent = new ArrayList<>();
    for (Object o : json.getJsonArray("recent", new JsonArray())) {
      recent.add(DurableValueJson.decodeRecent((JsonObject) o));
    }
    List<DurableImage.GroupImage> groups = new ArrayList<>();
    for (Object o : json.getJsonArray("groups", new JsonArray())) {
      JsonObject g = (JsonObject) o;
      groups.add(new DurableImage.GroupImage(g.getString("group"),
          decodeGroup(g.getJsonObject("settings")), g.getLong("pausedSince")));
    }
    JsonObject size = json.getJsonObject("size");
    return new DurableImage(json.getLong("term"), json.getLong("generated"), jobs, bindings,
        hosts, dead, recent, groups, json.getLong("pausedSince"), size == null ? null
            : new PoolSize(size.getInteger("instances"), size.getInteger("maxConcurrency")));
  }

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
  private static JsonObject checkpoint(JsonObject json, Object checkpoint, long bytes) {
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

  private static DurableRecord.Answered answered(JsonObject json) {
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
  private static JsonObject traced(JsonObject json, DurableRecord record,
      Map<String, JournalTrace> traces) {
    if (record instanceof DurableRecord.Accepted a && !traces.isEmpty()) {
      trace(json, traces.get(a.job()));
    }
    return json;
  }

  private static void trace(JsonObject json, JournalTrace trace) {
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
  private static void collect(JsonObject json, String job, Map<String, JournalTrace> traces) {
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
  private static void flow(JsonObject json, String group, int priority) {
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

  private static void putIfSet(JsonObject json, String field, Integer value) {
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
  private static void positive(JsonObject json, String field, long value) {
    if (value != 0) {
      json.put(field, value);
    }
  }

  /** The durable form of a job's replyTo: an address, or null. */
  private static String address(Object replyTo) {
    if (replyTo instanceof Responder responder) {
      return responder.address();
    }
    return replyTo instanceof String address ? address : null;
  }

  private static List<String> strings(JsonArray array) {
    List<String> list = new ArrayList<>();
    array.forEach(o -> list.add((String) o));
    return list;
  }
}
