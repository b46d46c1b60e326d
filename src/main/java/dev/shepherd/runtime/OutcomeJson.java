package dev.shepherd.runtime;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.core.Retirement;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.Locale;

/** The JSON form of outcomes and interruptions (protocol v1, section 6), both ways. */
public final class OutcomeJson {
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
    out.appendString(",\"payload\":");
    raw.appendTo(out);
    return out.appendByte((byte) '}');
  }

  /**
   * The outcome as JSON, with the payload it hands back or without it (for a form that writes
   * the payload its own way).
   */
  static JsonObject encode(Outcome outcome, boolean withPayload) {
    JsonObject json = new JsonObject().put("type", type(outcome)).put("job", outcome.job());
    if (outcome instanceof Outcome.Accepted) {
      return json;
    } else if (outcome instanceof Outcome.Rejected r) {
      json.put("reason", r.reason().name());
      if (withPayload) {
        json.put("payload", JsonValues.toJson(r.payload()));
      }
      return json.put("message", r.message());
    } else if (outcome instanceof Outcome.Completed c) {
      return json.put("result", JsonValues.toJson(c.result())).put("worker", c.worker())
          .put("attempts", c.attempts());
    } else if (outcome instanceof Outcome.Failed f) {
      return json.put("error", error(f.error()))
          .put("worker", f.worker()).put("attempts", f.attempts());
    } else if (outcome instanceof Outcome.Interrupted i) {
      if (withPayload) {
        json.put("payload", JsonValues.toJson(i.payload()));
      }
      return json.put("attempts", i.attempts()).put("reason", encode(i.reason()));
    } else if (outcome instanceof Outcome.Cancelled) {
      return json;
    }
    throw new AssertionError("unhandled " + outcome);
  }

  /** A job's error: {@code {"code", "message"}} and, when known, {@code "type"} (J1). */
  public static JsonObject error(JobError error) {
    JsonObject json = new JsonObject().put("code", error.code()).put("message", error.message());
    return error.type() == null ? json : json.put("type", error.type());
  }

  public static String type(Outcome outcome) {
    return outcome.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }

  public static JsonObject encode(Interruption reason) {
    JsonObject json = new JsonObject().put("kind", reason.kind());
    if (reason instanceof Interruption.WorkerStopped w) {
      return json.put("worker", w.worker()).put("exit", w.exit().name()).put("cause", w.cause());
    } else if (reason instanceof Interruption.AffinityRetired a) {
      return json.put("worker", a.worker()).put("retirement", a.retirement().name());
    } else if (reason instanceof Interruption.AttemptsExhausted a) {
      return json.put("attempts", a.attempts()).put("last", encode(a.last()));
    } else if (reason instanceof Interruption.Poison p) {
      return json.put("stops", p.stops()).put("last", encode(p.last()));
    } else if (reason instanceof Interruption.NoRecoverableWorkers
        || reason instanceof Interruption.PoolStopped) {
      return json;
    }
    throw new AssertionError("unhandled " + reason);
  }

  /** Reads an outcome sent by a coordinator (a remote {@link PoolClient} uses it). */
  public static Outcome decode(JsonObject json) {
    String job = json.getString("job");
    String type = json.getString("type", "");
    return switch (type) {
      case "accepted" -> new Outcome.Accepted(job);
      case "rejected" -> new Outcome.Rejected(job,
          RejectionReason.valueOf(json.getString("reason")), json.getValue("payload"),
          json.getString("message"));
      case "completed" -> new Outcome.Completed(job, json.getValue("result"),
          json.getString("worker"), json.getInteger("attempts", 0));
      case "failed" -> {
        JsonObject error = json.getJsonObject("error", new JsonObject());
        yield new Outcome.Failed(job,
            new JobError(error.getInteger("code", 500), error.getString("message", ""),
                error.getString("type")),
            json.getString("worker"), json.getInteger("attempts", 0));
      }
      case "interrupted" -> new Outcome.Interrupted(job, json.getValue("payload"),
          json.getInteger("attempts", 0), decodeReason(json.getJsonObject("reason")));
      case "cancelled" -> new Outcome.Cancelled(job);
      default -> throw new IllegalArgumentException("not an outcome: " + json.encode());
    };
  }

  static Interruption decodeReason(JsonObject json) {
    String kind = json == null ? "" : json.getString("kind", "");
    return switch (kind) {
      case "WORKER_STOPPED" -> new Interruption.WorkerStopped(json.getString("worker"),
          Exit.valueOf(json.getString("exit")), json.getString("cause"));
      case "AFFINITY_RETIRED" -> new Interruption.AffinityRetired(json.getString("worker"),
          Retirement.valueOf(json.getString("retirement")));
      case "NO_RECOVERABLE_WORKERS" -> new Interruption.NoRecoverableWorkers();
      case "ATTEMPTS_EXHAUSTED" -> new Interruption.AttemptsExhausted(
          json.getInteger("attempts", 0), decodeReason(json.getJsonObject("last")));
      case "POOL_STOPPED" -> new Interruption.PoolStopped();
      case "POISON" -> new Interruption.Poison(json.getInteger("stops", 0),
          (Interruption.WorkerStopped) decodeReason(json.getJsonObject("last")));
      default -> throw new IllegalArgumentException("not an interruption: " + json);
    };
  }
}
