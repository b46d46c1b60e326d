package dev.shepherd.runtime.wire;

import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSnapshot;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The JSON form of what a pool publishes on {@code <prefix>.events}: {@code phase}, {@code
 * restart}, {@code retired}, {@code budget}, {@code revive}, {@code host}, {@code state}, {@code
 * job}, {@code flow} (an operator's pause, resume or group change), {@code resized} and {@code
 * removed} (F6 in docs/rules.md) and {@code stats}, each with the pool's name and the time
 * ({@code at}, epoch ms).
 *
 * <p>Every event is small and can always be encoded, whatever the jobs carry: an event goes to
 * every live-view client and bridge subscriber, so a megabyte (or a value that cannot be written)
 * in it would be paid, or fail, once per client. A {@code job} event therefore describes the
 * outcome without its payload or result, and texts that come from outside (worker messages,
 * crash causes) are clipped to {@value #MAX_TEXT} characters.
 */
public final class EventJson {
  /** Characters of an outside text (message, cause) an event keeps. */
  public static final int MAX_TEXT = 500;

  private EventJson() {}

  /**
   * An operator's change of the pool's flow (F1, F5 in docs/rules.md): {@code {"type": "flow",
   * "change": "paused"|"resumed"|"group"|"groupReset", "group": str|null, "state": …}}, {@code
   * state} the pool's {@code {"name", "paused", "pausedSince"}} or the group's status.
   */
  public static JsonObject flow(String pool, String change, String group, JsonObject state,
      long at) {
    return base(pool, at).put("type", "flow").put("change", change).put("group", group)
        .put("state", state.copy());
  }

  public static JsonObject notice(String pool, Notice notice, long at) {
    JsonObject json = base(pool, at);
    if (notice instanceof Notice.PhaseChanged p) {
      boolean retired = p.retirement() != null && p.phase() == dev.shepherd.core.Phase.RETIRED;
      return json.put("type", retired ? "retired" : "phase").put("worker", p.worker())
          .put("phase", p.phase().name()).put("incarnation", p.incarnation())
          .put("backoffUntil", p.backoffUntil())
          .put("retirement", p.retirement() == null ? null : p.retirement().name());
    } else if (notice instanceof Notice.RestartDecided r) {
      return json.put("type", "restart").put("worker", r.worker()).put("exit", r.exit().name())
          .put("cause", clip(r.cause())).put("replaced", new JsonArray(r.replaced()))
          .put("delayMs", r.delayMs()).put("jobs", new JsonArray(r.jobs()))
          .put("charged", r.charged());
    } else if (notice instanceof Notice.BudgetExceeded b) {
      return json.put("type", "budget").put("worker", b.worker())
          .put("restartsInWindow", b.restartsInWindow())
          .put("replacementsRequested", b.replacementsRequested())
          .put("maximumRestarts", b.maximumRestarts()).put("reaction", b.reaction().name())
          .put("exit", b.exit().name()).put("cause", clip(b.cause()))
          .put("jobs", new JsonArray(b.jobs())).put("slotRestarts", b.slotRestarts());
    } else if (notice instanceof Notice.DeadLettered d) {
      return json.put("type", "deadLettered").put("job", d.job()).put("reason", d.reason())
          .put("worker", d.worker()).put("attempts", d.attempts()).put("size", d.size());
    } else if (notice instanceof Notice.DeadLetterRemoved d) {
      return json.put("type", "deadLetterRemoved").put("job", d.job())
          .put("why", d.why().name()).put("size", d.size());
    } else if (notice instanceof Notice.Revived r) {
      return json.put("type", "revive").put("worker", r.worker())
          .put("incarnation", r.incarnation()).put("was", r.was().name())
          .put("by", r.byOperator() ? "operator" : "reviveAfterMs");
    } else if (notice instanceof Notice.HostChanged h) {
      return json.put("type", "host").put("host", h.host()).put("node", h.node())
          .put("state", h.state().name()).put("cause", h.cause());
    } else if (notice instanceof Notice.PoolStateChanged s) {
      return json.put("type", "state").put("state", s.state().name());
    } else if (notice instanceof Notice.Recovered r) {
      return json.put("type", "recovered").put("term", r.term())
          .put("previousTerm", r.previousTerm()).put("jobs", r.jobs())
          .put("interrupted", r.interrupted());
    } else if (notice instanceof Notice.Resized r) {
      return json.put("type", "resized").put("instances", r.instances())
          .put("maxConcurrency", r.maxConcurrency()).put("added", new JsonArray(r.added()))
          .put("draining", new JsonArray(r.draining()));
    } else if (notice instanceof Notice.SlotRemoved r) {
      return json.put("type", "removed").put("worker", r.worker())
          .put("incarnation", r.incarnation());
    }
    throw new AssertionError("unhandled " + notice);
  }

  /** A job's outcome, as protocol v1 has it but without {@code payload} or {@code result}. */
  public static JsonObject job(String pool, Outcome outcome, long at) {
    return base(pool, at).put("type", "job").put("outcome", summary(outcome));
  }

  /** The outcome's {@link OutcomeJson.Form#SUMMARY}: no payload or result, texts clipped. */
  static JsonObject summary(Outcome outcome) {
    return OutcomeJson.encode(outcome, OutcomeJson.Form.SUMMARY);
  }

  static String clip(String text) {
    return text == null || text.length() <= MAX_TEXT ? text
        : text.substring(0, MAX_TEXT) + "…(" + text.length() + " chars)";
  }

  /**
   * The live view's first frame: {@code {"type": "snapshot", "pool", "at", "snapshot"}}, the
   * pool's snapshot as {@link SnapshotJson} encodes it (and as {@code .status} replies it).
   */
  public static JsonObject snapshot(String pool, JsonObject snapshot, long at) {
    return new JsonObject().put("type", "snapshot").put("pool", pool).put("at", at)
        .put("snapshot", snapshot);
  }

  public static JsonObject stats(PoolSnapshot snapshot, long at) {
    return base(snapshot.name(), at).put("type", "stats")
        .put("snapshot", SnapshotJson.encode(snapshot));
  }

  private static JsonObject base(String pool, long at) {
    return new JsonObject().put("pool", pool).put("at", at);
  }
}
