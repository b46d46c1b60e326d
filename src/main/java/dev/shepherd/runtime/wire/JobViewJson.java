package dev.shepherd.runtime.wire;

import dev.shepherd.core.JobView;
import io.vertx.core.json.JsonObject;

/**
 * The JSON form of a job's view (J6 in docs/rules.md), both ways: {@code {"job", "state"}} and the
 * fields that apply to the state, absent otherwise: {@code key}; {@code position} (QUEUED: queued
 * jobs ahead of it); {@code dueAt} (WAITING); {@code worker} and {@code attempts} (RUNNING, and the
 * last attempt's for ANSWERED and DEAD); {@code outcome} (protocol v1) and {@code at} (ANSWERED,
 * DEAD); {@code deadLetter} (DEAD: the entry, as {@link DeadLetterJson} writes it); {@code progress}
 * (QUEUED, WAITING, RUNNING: the last progress reported, the job's checkpoint, T2). A wait whose
 * time was up adds {@code "waited": true}.
 */
public final class JobViewJson {
  private JobViewJson() {}

  public static JsonObject encode(JobView view) {
    JsonObject json = new JsonObject().put("job", view.job()).put("state", view.state().name());
    putIfSet(json, "key", view.key());
    putIfSet(json, "position", view.position());
    putIfSet(json, "dueAt", view.dueAt());
    putIfSet(json, "worker", view.worker());
    putIfSet(json, "attempts", view.attempts());
    if (view.outcome() != null) {
      json.put("outcome", OutcomeJson.encodeSafely(view.outcome()));
    }
    putIfSet(json, "at", view.at());
    if (view.deadLetter() != null) {
      json.put("deadLetter", DeadLetterJson.encode(view.deadLetter()));
    }
    putIfSet(json, "progress", view.progress());
    return json;
  }

  /** The view of a wait that ended before the job was answered. */
  public static JsonObject encodeWaited(JobView view) {
    return encode(view).put("waited", true);
  }

  /** A view a coordinator sent; {@link IllegalArgumentException} naming what is wrong. */
  public static JobView decode(JsonObject json) {
    JobView.JobState state;
    try {
      state = JobView.JobState.valueOf(JsonReads.string(json, "state"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("state: not a job state (was "
          + json.getValue("state") + ")");
    }
    Long position = JsonReads.optionalNumber(json, "position");
    Long attempts = JsonReads.optionalNumber(json, "attempts");
    return new JobView(JsonReads.string(json, "job"), state, json.getString("key"),
        position == null ? null : position.intValue(), JsonReads.optionalNumber(json, "dueAt"),
        json.getString("worker"), attempts == null ? null : attempts.intValue(),
        json.getValue("outcome") == null ? null
            : OutcomeJson.decode(JsonReads.object(json, "outcome")),
        JsonReads.optionalNumber(json, "at"),
        json.getValue("deadLetter") == null ? null
            : DeadLetterJson.decode(JsonReads.object(json, "deadLetter")),
        json.getValue("progress"));
  }

  private static void putIfSet(JsonObject json, String field, Object value) {
    if (value != null) {
      json.put(field, value);
    }
  }
}
