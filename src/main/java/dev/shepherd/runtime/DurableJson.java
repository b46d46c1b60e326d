package dev.shepherd.runtime;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Interruption;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The text a durable pool's store holds (A3): batches of records and checkpoints (an image and
 * the answers not yet known to have left), as JSON, both ways. A job's {@code replyTo} is stored
 * as the address its {@link Responder} names (null when only the request's own reply could carry
 * the answer), and read back as that string; a payload is stored as its JSON and read back as
 * {@link RawJson}, as it arrived.
 */
public final class DurableJson {
  private DurableJson() {}

  // ---- batches and bases ----------------------------------------------------------------------

  public static String encode(DurableGate.Batch batch) {
    JsonArray records = new JsonArray();
    batch.records().forEach(r -> records.add(encode(r)));
    JsonArray undelivered = new JsonArray();
    batch.undelivered().forEach(a -> undelivered.add(encode(a)));
    return new JsonObject().put("id", batch.id()).put("records", records)
        .put("delivered", new JsonArray(new ArrayList<>(batch.delivered())))
        .put("checkpoint", batch.checkpoint()).put("undelivered", undelivered).encode();
  }

  public static DurableGate.Batch decodeBatch(String text) {
    JsonObject json = new JsonObject(text);
    List<DurableRecord> records = new ArrayList<>();
    for (Object r : json.getJsonArray("records")) {
      records.add(decodeRecord((JsonObject) r));
    }
    List<String> delivered = new ArrayList<>();
    for (Object d : json.getJsonArray("delivered")) {
      delivered.add((String) d);
    }
    return new DurableGate.Batch(json.getLong("id"), records, delivered,
        json.getBoolean("checkpoint"), answers(json.getJsonArray("undelivered")));
  }

  public static String encode(DurableLog.Base base) {
    JsonArray undelivered = new JsonArray();
    base.undelivered().forEach(a -> undelivered.add(encode(a)));
    return new JsonObject().put("image", encode(base.image())).put("undelivered", undelivered)
        .encode();
  }

  public static DurableLog.Base decodeBase(String text) {
    JsonObject json = new JsonObject(text);
    return new DurableLog.Base(decodeImage(json.getJsonObject("image")),
        answers(json.getJsonArray("undelivered")));
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
    JsonArray jobs = new JsonArray();
    for (DurableImage.JobImage j : image.jobs()) {
      jobs.add(new JsonObject().put("job", j.job()).put("generated", j.generated())
          .put("order", j.order()).put("payload", payload(j.payload())).put("key", j.key())
          .put("replyTo", address(j.replyTo())).put("timeoutMs", j.timeoutMs())
          .put("bytes", j.bytes()).put("target", j.target()).put("attempts", j.attempts())
          .put("worker", j.worker())
          .put("interruption", j.interruption() == null ? null
              : OutcomeJson.encode(j.interruption())));
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
    return new JsonObject().put("term", image.term()).put("generated", image.generated())
        .put("jobs", jobs).put("bindings", bindings).put("hosts", hosts);
  }

  static DurableImage decodeImage(JsonObject json) {
    List<DurableImage.JobImage> jobs = new ArrayList<>();
    for (Object o : json.getJsonArray("jobs")) {
      JsonObject j = (JsonObject) o;
      jobs.add(new DurableImage.JobImage(j.getString("job"), j.getLong("generated"),
          j.getLong("order"), rawPayload(j.getString("payload")), j.getString("key"),
          j.getString("replyTo"), j.getLong("timeoutMs"), j.getLong("bytes"),
          j.getString("target"), j.getInteger("attempts"), j.getString("worker"),
          interruption(j.getJsonObject("interruption"))));
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
    return new DurableImage(json.getLong("term"), json.getLong("generated"), jobs, bindings,
        hosts);
  }

  // ---- records --------------------------------------------------------------------------------

  static JsonObject encode(DurableRecord record) {
    if (record instanceof DurableRecord.Accepted a) {
      return new JsonObject().put("t", "accepted").put("job", a.job())
          .put("generated", a.generated()).put("order", a.order())
          .put("payload", payload(a.payload())).put("key", a.key())
          .put("replyTo", address(a.replyTo())).put("timeoutMs", a.timeoutMs())
          .put("bytes", a.bytes()).put("target", a.target());
    } else if (record instanceof DurableRecord.Assigned a) {
      return new JsonObject().put("t", "assigned").put("job", a.job()).put("worker", a.worker())
          .put("attempt", a.attempt());
    } else if (record instanceof DurableRecord.Requeued r) {
      return new JsonObject().put("t", "requeued").put("job", r.job()).put("order", r.order())
          .put("interruption", r.interruption() == null ? null
              : OutcomeJson.encode(r.interruption()));
    } else if (record instanceof DurableRecord.Answered a) {
      return new JsonObject().put("t", "answered").put("job", a.job())
          .put("replyTo", address(a.replyTo())).put("outcome", OutcomeJson.encode(a.outcome()));
    } else if (record instanceof DurableRecord.Bound b) {
      return new JsonObject().put("t", "bound").put("key", b.key()).put("worker", b.worker())
          .put("rebalanced", b.rebalanced());
    } else if (record instanceof DurableRecord.Unbound u) {
      return new JsonObject().put("t", "unbound").put("key", u.key());
    } else if (record instanceof DurableRecord.HostKnown h) {
      return new JsonObject().put("t", "host").put("host", h.host()).put("node", h.node())
          .put("slots", new JsonArray(new ArrayList<>(h.slots())));
    }
    throw new AssertionError("unhandled " + record);
  }

  static DurableRecord decodeRecord(JsonObject json) {
    String type = json.getString("t", "");
    return switch (type) {
      case "accepted" -> new DurableRecord.Accepted(json.getString("job"),
          json.getLong("generated"), json.getLong("order"),
          rawPayload(json.getString("payload")), json.getString("key"),
          json.getString("replyTo"), json.getLong("timeoutMs"), json.getLong("bytes"),
          json.getString("target"));
      case "assigned" -> new DurableRecord.Assigned(json.getString("job"),
          json.getString("worker"), json.getInteger("attempt"));
      case "requeued" -> new DurableRecord.Requeued(json.getString("job"),
          json.getLong("order"), interruption(json.getJsonObject("interruption")));
      case "answered" -> new DurableRecord.Answered(json.getString("job"),
          json.getString("replyTo"), OutcomeJson.decode(json.getJsonObject("outcome")));
      case "bound" -> new DurableRecord.Bound(json.getString("key"), json.getString("worker"),
          json.getBoolean("rebalanced"));
      case "unbound" -> new DurableRecord.Unbound(json.getString("key"));
      case "host" -> new DurableRecord.HostKnown(json.getString("host"), json.getString("node"),
          strings(json.getJsonArray("slots")));
      default -> throw new IllegalArgumentException("not a durable record: " + json.encode());
    };
  }

  // ---- values ---------------------------------------------------------------------------------

  /** A payload as JSON text (null for none), whatever form the pool holds it in. */
  private static String payload(Object payload) {
    if (payload == null) {
      return null;
    }
    if (payload instanceof RawJson raw) {
      return raw.text();
    }
    return io.vertx.core.json.Json.encode(JsonValues.toJson(payload));
  }

  private static Object rawPayload(String text) {
    return text == null ? null : new RawJson(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The durable form of a job's replyTo: an address, or null. */
  private static String address(Object replyTo) {
    if (replyTo instanceof Responder responder) {
      return responder.address();
    }
    return replyTo instanceof String address ? address : null;
  }

  private static Interruption interruption(JsonObject json) {
    return json == null ? null : OutcomeJson.decodeReason(json);
  }

  private static List<String> strings(JsonArray array) {
    List<String> list = new ArrayList<>();
    array.forEach(o -> list.add((String) o));
    return list;
  }
}
