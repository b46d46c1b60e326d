package dev.shepherd.runtime.wire;

import dev.shepherd.core.Effect;
import io.vertx.core.json.JsonObject;

/**
 * The JSON of a job's progress (T2 in docs/rules.md). To the submitter's {@code replyTo}, a
 * message that is not an answer: {@code {"type": "progress", "job", "worker", "attempt",
 * "progress": {…}}}, before the terminal outcome. On the events address, {@code {"type":
 * "progress", "pool", "at", "job", "worker", "attempt", "progress"}}, where a report over {@value
 * #EVENT_BYTES} bytes is left out ({@code "progress": null, "progressBytes": n}): an event goes to
 * every live-view client, so it stays small (as {@link EventJson} says).
 */
public final class ProgressJson {
  /** The largest report an event carries whole. */
  public static final long EVENT_BYTES = 4096;
  /** The {@code type} of a progress message. */
  public static final String TYPE = "progress";

  private ProgressJson() {}

  /** The message to the submitter. */
  public static JsonObject message(Effect.Progress p) {
    return new JsonObject().put("type", TYPE).put("job", p.job()).put("worker", p.worker())
        .put("attempt", p.attempt()).put("progress", p.progress());
  }

  /** The event on the pool's events address at wall time {@code at}. */
  public static JsonObject event(String pool, Effect.Progress p, long at) {
    JsonObject json = new JsonObject().put("pool", pool).put("at", at).put("type", TYPE)
        .put("job", p.job()).put("worker", p.worker()).put("attempt", p.attempt());
    if (p.bytes() <= EVENT_BYTES) {
      json.put("progress", p.progress());
    } else {
      json.putNull("progress").put("progressBytes", p.bytes());
    }
    return json;
  }

  /** Whether {@code body} is a progress message (not an answer). */
  public static boolean isProgress(Object body) {
    return body instanceof JsonObject json && TYPE.equals(json.getValue("type"));
  }
}
