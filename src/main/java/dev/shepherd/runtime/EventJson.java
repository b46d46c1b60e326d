package dev.shepherd.runtime;

import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSnapshot;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The JSON form of what a pool publishes on {@code <prefix>.events}: {@code phase}, {@code
 * restart}, {@code retired}, {@code budget}, {@code revive}, {@code host}, {@code state}, {@code
 * job} and {@code stats}, each
 * with the pool's name and the time ({@code at}, epoch ms).
 */
public final class EventJson {
  private EventJson() {}

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
          .put("cause", r.cause()).put("replaced", new JsonArray(r.replaced()))
          .put("delayMs", r.delayMs());
    } else if (notice instanceof Notice.BudgetExceeded b) {
      return json.put("type", "budget").put("worker", b.worker())
          .put("restartsInWindow", b.restartsInWindow())
          .put("replacementsRequested", b.replacementsRequested())
          .put("maximumRestarts", b.maximumRestarts()).put("reaction", b.reaction().name());
    } else if (notice instanceof Notice.Revived r) {
      return json.put("type", "revive").put("worker", r.worker())
          .put("incarnation", r.incarnation()).put("was", r.was().name())
          .put("by", r.byOperator() ? "operator" : "reviveAfterMs");
    } else if (notice instanceof Notice.HostChanged h) {
      return json.put("type", "host").put("host", h.host()).put("node", h.node())
          .put("state", h.state().name());
    } else if (notice instanceof Notice.PoolStateChanged s) {
      return json.put("type", "state").put("state", s.state().name());
    }
    throw new AssertionError("unhandled " + notice);
  }

  public static JsonObject job(String pool, Outcome outcome, long at) {
    return base(pool, at).put("type", "job").put("outcome", OutcomeJson.encode(outcome));
  }

  public static JsonObject stats(PoolSnapshot snapshot, long at) {
    return base(snapshot.name(), at).put("type", "stats")
        .put("snapshot", SnapshotJson.encode(snapshot));
  }

  private static JsonObject base(String pool, long at) {
    return new JsonObject().put("pool", pool).put("at", at);
  }
}
