package dev.shepherd.runtime.ha;

import dev.shepherd.core.Attempt;
import dev.shepherd.core.Backoff;
import dev.shepherd.core.Counters;
import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.RecentOutcome;
import dev.shepherd.runtime.payload.JsonValues;
import dev.shepherd.runtime.payload.RawJson;
import dev.shepherd.runtime.wire.OutcomeJson;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The values inside {@link DurableJson}'s records and images, both ways: payloads, outcomes,
 * interruptions, dead letters (J5 in docs/rules.md), recent outcomes (J6) and failure retries (J3).
 *
 * <ul>
 *   <li>payload: its JSON text, as a string (null for none); read back as {@link RawJson}.
 *   <li>outcome: {@link OutcomeJson}'s form, except that a payload it hands back is written as
 *       {@code "payloadJson"} (its JSON text), so it reads back as the {@link RawJson} it was;
 *       an outcome written before that, with a {@code "payload"} value, reads as it was written.
 *       Where the payload is known from around it (a dead letter's answer hands back the entry's
 *       payload) it is left out.
 *   <li>dead letter: {@code {"job", "key"?, "payload", "bytes", "timeoutMs", "attempts":
 *       [{"attempt", "worker", "incarnation", "startedAt", "endedAt", "ended", "detail"?}…],
 *       "answer", "at"}}.
 *   <li>recent outcome: {@code {"job", "outcome", "at", "bytes"}}.
 *   <li>failure retry: {@code {"maxAttempts", "backoff"?: {"initialMs", "multiplier", "maxMs",
 *       "jitter"}}}, the backoff left out when there is none; the names are the configuration's.
 *   <li>counters (T3 in docs/rules.md): {@code {"accepted", "rejected", "completed", "failed",
 *       "interrupted", "cancelled", "retried", "restarts", "staleCompletions", "budgetRefusals",
 *       "ignoredFacts", "revives", "poisoned", "deadLettered", "deadLetterEvicted"}}, as the
 *       status snapshot names them; a name left out reads as 0.
 * </ul>
 */
final class DurableValueJson {
  /** Where an outcome's payload is, as JSON text. */
  private static final String PAYLOAD = "payloadJson";

  private DurableValueJson() {}

  // ---- counters --------------------------------------------------------------------------------

  /** The pool's totals (null: none, which the caller leaves out). */
  static JsonObject encode(Counters c) {
    if (c == null) {
      return null;
    }
    return new JsonObject().put("accepted", c.accepted()).put("rejected", c.rejected())
        .put("completed", c.completed()).put("failed", c.failed())
        .put("interrupted", c.interrupted()).put("cancelled", c.cancelled())
        .put("retried", c.retried()).put("restarts", c.restarts())
        .put("staleCompletions", c.staleCompletions()).put("budgetRefusals", c.budgetRefusals())
        .put("ignoredFacts", c.ignoredFacts()).put("revives", c.revives())
        .put("poisoned", c.poisoned()).put("deadLettered", c.deadLettered())
        .put("deadLetterEvicted", c.deadLetterEvicted());
  }

  static Counters decodeCounters(JsonObject json) {
    if (json == null) {
      return null;
    }
    return new Counters(json.getLong("accepted", 0L), json.getLong("rejected", 0L),
        json.getLong("completed", 0L), json.getLong("failed", 0L),
        json.getLong("interrupted", 0L), json.getLong("cancelled", 0L),
        json.getLong("retried", 0L), json.getLong("restarts", 0L),
        json.getLong("staleCompletions", 0L), json.getLong("budgetRefusals", 0L),
        json.getLong("ignoredFacts", 0L), json.getLong("revives", 0L),
        json.getLong("poisoned", 0L), json.getLong("deadLettered", 0L),
        json.getLong("deadLetterEvicted", 0L));
  }

  // ---- payloads and interruptions --------------------------------------------------------------

  /** A payload as JSON text (null for none), whatever form the pool holds it in. */
  static String payload(Object payload) {
    if (payload == null) {
      return null;
    }
    if (payload instanceof RawJson raw) {
      return raw.text();
    }
    return Json.encode(JsonValues.toJson(payload));
  }

  static Object rawPayload(String text) {
    return text == null ? null : new RawJson(text.getBytes(StandardCharsets.UTF_8));
  }

  static JsonObject interruption(Interruption reason) {
    return reason == null ? null : OutcomeJson.encode(reason);
  }

  static Interruption interruption(JsonObject json) {
    return json == null ? null : OutcomeJson.decodeReason(json);
  }

  // ---- outcomes -------------------------------------------------------------------------------

  /**
   * {@code outcome}, leaving out the payload it hands back when that is {@code known} (what
   * {@link #decodeOutcome} is then given).
   */
  static JsonObject encode(Outcome outcome, Object known) {
    JsonObject json = OutcomeJson.encode(outcome, false);
    Object payload = outcome instanceof Outcome.Interrupted i ? i.payload()
        : outcome instanceof Outcome.Rejected r ? r.payload() : known;
    if (!Objects.equals(payload, known)) {
      json.put(PAYLOAD, payload(payload));
    }
    return json;
  }

  /** Reads an outcome; one whose payload was left out hands back {@code known}. */
  static Outcome decodeOutcome(JsonObject json, Object known) {
    Outcome outcome = OutcomeJson.decode(json);
    if (!(outcome instanceof Outcome.Interrupted) && !(outcome instanceof Outcome.Rejected)) {
      return outcome;
    }
    Object payload;
    if (json.containsKey(PAYLOAD)) {
      payload = rawPayload(json.getString(PAYLOAD));
    } else if (json.containsKey("payload")) {
      return outcome;
    } else {
      payload = known;
    }
    if (outcome instanceof Outcome.Interrupted i) {
      return new Outcome.Interrupted(i.job(), payload, i.attempts(), i.reason());
    }
    Outcome.Rejected r = (Outcome.Rejected) outcome;
    return new Outcome.Rejected(r.job(), r.reason(), payload, r.message());
  }

  // ---- dead letters and recent outcomes (J5, J6) ----------------------------------------------

  static JsonObject encode(DeadLetter entry) {
    JsonArray attempts = new JsonArray();
    for (Attempt a : entry.attempts()) {
      JsonObject attempt = new JsonObject().put("attempt", a.attempt()).put("worker", a.worker())
          .put("incarnation", a.incarnation()).put("startedAt", a.startedAt())
          .put("endedAt", a.endedAt()).put("ended", a.ended());
      if (a.detail() != null) {
        attempt.put("detail", a.detail());
      }
      attempts.add(attempt);
    }
    JsonObject json = new JsonObject().put("job", entry.job());
    if (entry.key() != null) {
      json.put("key", entry.key());
    }
    if (entry.group() != null) {
      json.put("group", entry.group());
    }
    if (entry.priority() != PoolEvent.Submit.DEFAULT_PRIORITY) {
      json.put("priority", entry.priority());
    }
    if (entry.retry() != null) {
      json.put("retry", encode(entry.retry()));
    }
    return json.put("payload", payload(entry.payload())).put("bytes", entry.bytes())
        .put("timeoutMs", entry.timeoutMs()).put("attempts", attempts)
        .put("answer", encode(entry.answer(), entry.payload())).put("at", entry.at());
  }

  static DeadLetter decodeDeadLetter(JsonObject json) {
    List<Attempt> attempts = new ArrayList<>();
    for (Object o : json.getJsonArray("attempts")) {
      JsonObject a = (JsonObject) o;
      attempts.add(new Attempt(a.getInteger("attempt"), a.getString("worker"),
          a.getInteger("incarnation"), a.getLong("startedAt"), a.getLong("endedAt"),
          a.getString("ended"), a.getString("detail")));
    }
    Object payload = rawPayload(json.getString("payload"));
    return new DeadLetter(json.getString("job"), json.getString("key"), payload,
        json.getLong("bytes"), json.getLong("timeoutMs"), attempts,
        decodeOutcome(json.getJsonObject("answer"), payload), json.getLong("at"),
        json.getString("group"), json.getInteger("priority", PoolEvent.Submit.DEFAULT_PRIORITY),
        decodeRetry(json.getJsonObject("retry")));
  }

  static JsonObject encode(RecentOutcome recent) {
    return new JsonObject().put("job", recent.job())
        .put("outcome", encode(recent.outcome(), null)).put("at", recent.at())
        .put("bytes", recent.bytes());
  }

  static RecentOutcome decodeRecent(JsonObject json) {
    return new RecentOutcome(json.getString("job"),
        decodeOutcome(json.getJsonObject("outcome"), null), json.getLong("at"),
        json.getLong("bytes"));
  }

  // ---- failure retries (J3) -------------------------------------------------------------------

  static JsonObject encode(FailureRetry retry) {
    JsonObject json = new JsonObject().put("maxAttempts", retry.maxAttempts());
    Backoff b = retry.backoff();
    if (!b.equals(Backoff.NONE)) {
      json.put("backoff", new JsonObject().put("initialMs", b.initialMs())
          .put("multiplier", b.multiplier()).put("maxMs", b.maxMs()).put("jitter", b.jitter()));
    }
    return json;
  }

  /** The retry {@code json} holds, or null for none. */
  static FailureRetry decodeRetry(JsonObject json) {
    if (json == null) {
      return null;
    }
    JsonObject b = json.getJsonObject("backoff");
    Backoff backoff = b == null ? Backoff.NONE : new Backoff(b.getLong("initialMs"),
        b.getDouble("multiplier"), b.getLong("maxMs"), b.getDouble("jitter"));
    return new FailureRetry(json.getInteger("maxAttempts"), backoff);
  }
}
