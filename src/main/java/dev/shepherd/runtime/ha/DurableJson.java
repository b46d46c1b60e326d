package dev.shepherd.runtime.ha;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.PoolEvent;
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
    batch.records().forEach(r -> records.add(
        DurableRecordJson.traced(DurableRecordJson.encode(r), r, traces)));
    JsonArray undelivered = new JsonArray();
    batch.undelivered().forEach(a -> undelivered.add(DurableRecordJson.encode(a)));
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
      DurableRecord record = DurableRecordJson.decodeRecord((JsonObject) r);
      if (record instanceof DurableRecord.Accepted a) {
        DurableRecordJson.collect((JsonObject) r, a.job(), traces);
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
    base.undelivered().forEach(a -> undelivered.add(DurableRecordJson.encode(a)));
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
      answers.add((DurableRecord.Answered) DurableRecordJson.decodeRecord((JsonObject) a));
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
          .put("key", j.key()).put("replyTo", DurableRecordJson.address(j.replyTo()))
          .put("timeoutMs", j.timeoutMs()).put("bytes", j.bytes()).put("target", j.target())
          .put("attempts", j.attempts()).put("worker", j.worker())
          .put("interruption", DurableValueJson.interruption(j.interruption()));
      DurableRecordJson.positive(job, "dueAt", j.dueAt());
      if (j.front()) {
        job.put("front", true);
      }
      DurableRecordJson.positive(job, "stops", j.stops());
      DurableRecordJson.positive(job, "failures", j.failures());
      if (j.retry() != null) {
        job.put("retry", DurableValueJson.encode(j.retry()));
      }
      DurableRecordJson.flow(job, j.group(), j.priority());
      DurableRecordJson.checkpoint(job, j.checkpoint(), j.checkpointBytes());
      DurableRecordJson.positive(job, "progressTimeoutMs", j.progressTimeoutMs());
      DurableRecordJson.trace(job, traces.get(j.job()));
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
          group.put("settings", DurableRecordJson.encode(g.settings()));
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
      DurableRecordJson.collect(j, j.getString("job"), traces);
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
          DurableRecordJson.strings(h.getJsonArray("slots"))));
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
          DurableRecordJson.decodeGroup(g.getJsonObject("settings")), g.getLong("pausedSince")));
    }
    JsonObject size = json.getJsonObject("size");
    return new DurableImage(json.getLong("term"), json.getLong("generated"), jobs, bindings,
        hosts, dead, recent, groups, json.getLong("pausedSince"), size == null ? null
            : new PoolSize(size.getInteger("instances"), size.getInteger("maxConcurrency")));
  }
}
