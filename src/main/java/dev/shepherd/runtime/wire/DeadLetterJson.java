package dev.shepherd.runtime.wire;

import dev.shepherd.core.Attempt;
import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.runtime.DeadLetterPage;
import dev.shepherd.runtime.payload.JsonValues;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of the dead-letter set (J5 in docs/rules.md), both ways: an entry is {@code {"job",
 * "key", "reason", "payload", "bytes", "timeoutMs", "attempts": [{"attempt", "worker",
 * "incarnation", "startedAt", "endedAt", "ended", "detail"}], "answer", "at", "group",
 * "priority"}} ({@code key}, {@code group} and {@code detail} null when there is none; {@code
 * answer} the outcome as protocol v1 encodes it), and a page is {@code {"pool", "size", "evicted", "offset", "limit", "entries": [entry, …]}}. What
 * the bus replies on {@code <prefix>.dead.*} and HTTP answers on {@code /api/pools/<name>/dead}.
 */
public final class DeadLetterJson {
  private DeadLetterJson() {}

  public static JsonObject encode(DeadLetter entry) {
    JsonArray attempts = new JsonArray();
    for (Attempt a : entry.attempts()) {
      attempts.add(new JsonObject().put("attempt", a.attempt()).put("worker", a.worker())
          .put("incarnation", a.incarnation()).put("startedAt", a.startedAt())
          .put("endedAt", a.endedAt()).put("ended", a.ended()).put("detail", a.detail()));
    }
    return new JsonObject().put("job", entry.job()).put("key", entry.key())
        .put("reason", entry.reason()).put("payload", JsonValues.toJson(entry.payload()))
        .put("bytes", entry.bytes()).put("timeoutMs", entry.timeoutMs())
        .put("attempts", attempts).put("answer", OutcomeJson.encodeSafely(entry.answer()))
        .put("at", entry.at()).put("group", entry.group()).put("priority", entry.priority());
  }

  public static JsonObject encode(DeadLetterPage page) {
    JsonArray entries = new JsonArray();
    page.entries().forEach(e -> entries.add(encode(e)));
    return new JsonObject().put("pool", page.pool()).put("size", page.size())
        .put("evicted", page.evicted()).put("offset", page.offset()).put("limit", page.limit())
        .put("entries", entries);
  }

  /** An entry a coordinator sent; {@link IllegalArgumentException} naming what is wrong. */
  public static DeadLetter decode(JsonObject json) {
    List<Attempt> attempts = new ArrayList<>();
    for (JsonObject a : JsonReads.objects(json, "attempts")) {
      attempts.add(new Attempt((int) JsonReads.number(a, "attempt"), a.getString("worker"),
          (int) JsonReads.number(a, "incarnation"), JsonReads.number(a, "startedAt"),
          JsonReads.number(a, "endedAt"), a.getString("ended"), a.getString("detail")));
    }
    Outcome answer = OutcomeJson.decode(JsonReads.object(json, "answer"));
    return new DeadLetter(JsonReads.string(json, "job"), json.getString("key"),
        json.getValue("payload"), JsonReads.number(json, "bytes"),
        JsonReads.number(json, "timeoutMs"), attempts, answer, JsonReads.number(json, "at"),
        json.getString("group"), priority(json), null);
  }

  /** The entry's priority; 5 (the default) from a coordinator that sends none. */
  private static int priority(JsonObject json) {
    return json.containsKey("priority") ? (int) JsonReads.number(json, "priority")
        : PoolEvent.Submit.DEFAULT_PRIORITY;
  }

  public static DeadLetterPage decodePage(JsonObject json) {
    List<DeadLetter> entries = new ArrayList<>();
    for (JsonObject entry : JsonReads.objects(json, "entries")) {
      entries.add(decode(entry));
    }
    return new DeadLetterPage(JsonReads.string(json, "pool"),
        (int) JsonReads.number(json, "size"), JsonReads.number(json, "evicted"),
        (int) JsonReads.number(json, "offset"), (int) JsonReads.number(json, "limit"), entries);
  }
}
