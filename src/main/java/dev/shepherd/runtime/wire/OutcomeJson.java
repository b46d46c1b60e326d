package dev.shepherd.runtime.wire;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.core.Retirement;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.payload.JsonValues;
import dev.shepherd.runtime.payload.RawJson;
import dev.shepherd.runtime.slot.ResultCheck;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.function.UnaryOperator;

/**
 * The JSON form of outcomes and interruptions (protocol v1, section 6 in docs/rules.md), both ways.
 */
public final class OutcomeJson {
  // The wire names of an outcome (protocol section 6) and of an interruption, its reason.
  public static final String TYPE = "type";
  static final String JOB = "job";
  static final String REASON = "reason";
  static final String PAYLOAD = "payload";
  static final String MESSAGE = "message";
  static final String RESULT = "result";
  static final String WORKER = "worker";
  static final String ATTEMPTS = "attempts";
  static final String ERROR = "error";
  static final String KIND = "kind";
  static final String EXIT = "exit";
  static final String CAUSE = "cause";
  static final String RETIREMENT = "retirement";
  static final String LAST = "last";
  static final String STOPS = "stops";

  private OutcomeJson() {}

  public static JsonObject encode(Outcome outcome) {
    return encode(outcome, true);
  }

  /**
   * The outcome's JSON; never throws, so whoever asked is answered whatever the result holds: one
   * that cannot be encoded becomes the failure {@link ResultCheck#unsendable} makes of it.
   */
  public static JsonObject encodeSafely(Outcome outcome) {
    try {
      return encode(outcome);
    } catch (RuntimeException | StackOverflowError e) {
      return encode(ResultCheck.unsendable(outcome, e));
    }
  }

  /**
   * The outcome as JSON text. A payload handed back that is still the {@link RawJson} it arrived
   * in is copied in byte for byte (as the last field), never decoded: answering a refused 1 MiB
   * payload costs its bytes, not its tree.
   */
  public static Buffer toBuffer(Outcome outcome) {
    Object payload = outcome instanceof Outcome.Rejected r ? r.payload()
        : outcome instanceof Outcome.Interrupted i ? i.payload() : null;
    if (!(payload instanceof RawJson raw)) {
      return encode(outcome, true).toBuffer();
    }
    Buffer head = encode(outcome, false).toBuffer();
    Buffer out = Buffer.buffer(head.length() + raw.length() + 16);
    out.appendBuffer(head, 0, head.length() - 1);
    out.appendString(",\"" + PAYLOAD + "\":");
    raw.appendTo(out);
    return out.appendByte((byte) '}');
  }

  /**
   * The forms an outcome's JSON takes. They are one encoder on purpose: the fields, their names
   * and their order are the same in every form, and a form only leaves out or clips.
   */
  enum Form {
    /** Everything: a submit's answer, a lookup, a dead letter. */
    FULL,
    /** Without the payload it hands back, for a writer that writes the payload its own way. */
    WITHOUT_PAYLOAD,
    /**
     * An event's (see {@link EventJson}): no payload or result, and outside texts (messages,
     * types, causes) clipped, because every live-view client and subscriber pays for each byte.
     */
    SUMMARY
  }

  /**
   * The outcome as JSON, with the payload it hands back or without it (for a form that writes
   * the payload its own way).
   */
  public static JsonObject encode(Outcome outcome, boolean withPayload) {
    return encode(outcome, withPayload ? Form.FULL : Form.WITHOUT_PAYLOAD);
  }

  /** The outcome as JSON, in {@code form}. */
  static JsonObject encode(Outcome outcome, Form form) {
    boolean withPayload = form == Form.FULL;
    UnaryOperator<String> text = form == Form.SUMMARY ? EventJson::clip : UnaryOperator.identity();
    JsonObject json = new JsonObject().put(TYPE, type(outcome)).put(JOB, outcome.job());
    if (outcome instanceof Outcome.Accepted) {
      return json;
    } else if (outcome instanceof Outcome.Rejected r) {
      json.put(REASON, r.reason().name());
      if (withPayload) {
        json.put(PAYLOAD, JsonValues.toJson(r.payload()));
      }
      return json.put(MESSAGE, text.apply(r.message()));
    } else if (outcome instanceof Outcome.Completed c) {
      if (form != Form.SUMMARY) {
        json.put(RESULT, JsonValues.toJson(c.result()));
      }
      return json.put(WORKER, c.worker()).put(ATTEMPTS, c.attempts());
    } else if (outcome instanceof Outcome.Failed f) {
      return json.put(ERROR, JobErrorJson.encode(f.error(), text))
          .put(WORKER, f.worker()).put(ATTEMPTS, f.attempts());
    } else if (outcome instanceof Outcome.Interrupted i) {
      if (withPayload) {
        json.put(PAYLOAD, JsonValues.toJson(i.payload()));
      }
      return json.put(ATTEMPTS, i.attempts()).put(REASON, encode(i.reason(), text));
    } else if (outcome instanceof Outcome.Cancelled) {
      return json;
    }
    throw new AssertionError("unhandled " + outcome);
  }

  /** The outcome's {@code type}: its record's name in lower case, a constant per kind. */
  public static String type(Outcome outcome) {
    if (outcome instanceof Outcome.Completed) {
      return "completed";
    } else if (outcome instanceof Outcome.Accepted) {
      return "accepted";
    } else if (outcome instanceof Outcome.Failed) {
      return "failed";
    } else if (outcome instanceof Outcome.Interrupted) {
      return "interrupted";
    } else if (outcome instanceof Outcome.Rejected) {
      return "rejected";
    } else if (outcome instanceof Outcome.Cancelled) {
      return "cancelled";
    }
    throw new AssertionError("unhandled " + outcome);
  }

  public static JsonObject encode(Interruption reason) {
    return encode(reason, UnaryOperator.identity());
  }

  /** The interruption's JSON, its causes (and those of its {@code last}) passed through {@code text}. */
  static JsonObject encode(Interruption reason, UnaryOperator<String> text) {
    JsonObject json = new JsonObject().put(KIND, reason.kind());
    if (reason instanceof Interruption.WorkerStopped w) {
      return json.put(WORKER, w.worker()).put(EXIT, w.exit().name())
          .put(CAUSE, text.apply(w.cause()));
    } else if (reason instanceof Interruption.AffinityRetired a) {
      return json.put(WORKER, a.worker()).put(RETIREMENT, a.retirement().name());
    } else if (reason instanceof Interruption.AttemptsExhausted a) {
      return json.put(ATTEMPTS, a.attempts()).put(LAST, encode(a.last(), text));
    } else if (reason instanceof Interruption.Poison p) {
      return json.put(STOPS, p.stops()).put(LAST, encode(p.last(), text));
    } else if (reason instanceof Interruption.NoRecoverableWorkers
        || reason instanceof Interruption.PoolStopped) {
      return json;
    }
    throw new AssertionError("unhandled " + reason);
  }

  /** Reads an outcome sent by a coordinator (a remote {@link PoolClient} uses it). */
  public static Outcome decode(JsonObject json) {
    String job = json.getString(JOB);
    String type = json.getString(TYPE, "");
    return switch (type) {
      case "accepted" -> new Outcome.Accepted(job);
      case "rejected" -> new Outcome.Rejected(job,
          RejectionReason.valueOf(json.getString(REASON)), json.getValue(PAYLOAD),
          json.getString(MESSAGE));
      case "completed" -> new Outcome.Completed(job, json.getValue(RESULT),
          json.getString(WORKER), json.getInteger(ATTEMPTS, 0));
      case "failed" -> new Outcome.Failed(job, JobErrorJson.read(json.getJsonObject(ERROR)),
          json.getString(WORKER), json.getInteger(ATTEMPTS, 0));
      case "interrupted" -> new Outcome.Interrupted(job, json.getValue(PAYLOAD),
          json.getInteger(ATTEMPTS, 0), decodeReason(json.getJsonObject(REASON)));
      case "cancelled" -> new Outcome.Cancelled(job);
      default -> throw new IllegalArgumentException("not an outcome: " + json.encode());
    };
  }

  public static Interruption decodeReason(JsonObject json) {
    String kind = json == null ? "" : json.getString(KIND, "");
    return switch (kind) {
      case "WORKER_STOPPED" -> new Interruption.WorkerStopped(json.getString(WORKER),
          Exit.valueOf(json.getString(EXIT)), json.getString(CAUSE));
      case "AFFINITY_RETIRED" -> new Interruption.AffinityRetired(json.getString(WORKER),
          Retirement.valueOf(json.getString(RETIREMENT)));
      case "NO_RECOVERABLE_WORKERS" -> new Interruption.NoRecoverableWorkers();
      case "ATTEMPTS_EXHAUSTED" -> new Interruption.AttemptsExhausted(
          json.getInteger(ATTEMPTS, 0), decodeReason(json.getJsonObject(LAST)));
      case "POOL_STOPPED" -> new Interruption.PoolStopped();
      case "POISON" -> new Interruption.Poison(json.getInteger(STOPS, 0),
          (Interruption.WorkerStopped) decodeReason(json.getJsonObject(LAST)));
      default -> throw new IllegalArgumentException("not an interruption: " + json);
    };
  }
}
