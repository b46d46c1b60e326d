package dev.shepherd.runtime;

import dev.shepherd.core.Counters;
import dev.shepherd.core.PoolSnapshot;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** The JSON form of a {@link PoolSnapshot} (the {@code .status} reply and HTTP snapshot). */
public final class SnapshotJson {
  private SnapshotJson() {}

  public static JsonObject encode(PoolSnapshot s) {
    JsonArray slots = new JsonArray();
    for (PoolSnapshot.SlotStatus slot : s.slots()) {
      JsonArray assignments = new JsonArray();
      for (PoolSnapshot.AssignmentStatus a : slot.assignments()) {
        assignments.add(new JsonObject().put("assignment", a.assignment()).put("job", a.job()));
      }
      slots.add(new JsonObject()
          .put("id", slot.id())
          .put("phase", slot.phase().name())
          .put("capacity", slot.capacity() < 0 ? null : slot.capacity())
          .put("inFlight", slot.inFlight())
          .put("assignments", assignments)
          .put("incarnation", slot.incarnation())
          .put("restarts", slot.restarts())
          .put("retirement", slot.retirement() == null ? null : slot.retirement().name())
          .put("backoffUntil", slot.backoffUntil())
          .put("host", slot.host()));
    }
    JsonArray hosts = new JsonArray();
    for (PoolSnapshot.HostStatus host : s.hosts()) {
      hosts.add(new JsonObject()
          .put("id", host.id())
          .put("node", host.node())
          .put("state", host.state().name())
          .put("slots", new JsonArray(host.slots()))
          .put("since", host.since()));
    }
    Counters c = s.counters();
    return new JsonObject()
        .put("name", s.name())
        .put("state", s.state().name())
        .put("backlog", new JsonObject().put("length", s.backlogLength())
            .put("capacity", s.backlogCapacity()))
        .put("slots", slots)
        .put("hosts", hosts)
        .put("counters", new JsonObject()
            .put("accepted", c.accepted())
            .put("rejected", c.rejected())
            .put("completed", c.completed())
            .put("failed", c.failed())
            .put("interrupted", c.interrupted())
            .put("cancelled", c.cancelled())
            .put("retried", c.retried())
            .put("restarts", c.restarts())
            .put("staleCompletions", c.staleCompletions())
            .put("budgetRefusals", c.budgetRefusals())
            .put("ignoredFacts", c.ignoredFacts())
            .put("revives", c.revives()))
        .put("budget", new JsonObject()
            .put("restartsInWindow", s.restartsInWindow())
            .put("maxRestarts", s.maxRestarts())
            .put("windowMs", s.windowMs() == Long.MAX_VALUE ? null : s.windowMs()));
  }
}
