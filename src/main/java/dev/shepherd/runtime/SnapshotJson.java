package dev.shepherd.runtime;

import dev.shepherd.core.Counters;
import dev.shepherd.core.HaStatus;
import dev.shepherd.core.HostState;
import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.PoolState;
import dev.shepherd.core.Retirement;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of a {@link PoolSnapshot} (the {@code .status} reply and HTTP snapshot), both
 * ways: a node reads the snapshots of pools coordinated elsewhere back into values.
 */
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
    JsonObject json = new JsonObject()
        .put("name", s.name())
        .put("state", s.state().name())
        .put("backlog", new JsonObject().put("length", s.backlogLength())
            .put("capacity", s.backlogCapacity()).put("waiting", s.backlogWaiting())
            .put("nextDue", s.nextDue()))
        .put("deadLetters", s.deadLetters())
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
            .put("revives", c.revives())
            .put("poisoned", c.poisoned())
            .put("deadLettered", c.deadLettered())
            .put("deadLetterEvicted", c.deadLetterEvicted()))
        .put("budget", new JsonObject()
            .put("restartsInWindow", s.restartsInWindow())
            .put("maxRestarts", s.maxRestarts())
            .put("windowMs", s.windowMs() == Long.MAX_VALUE ? null : s.windowMs()));
    if (s.ha() != null) {
      HaStatus ha = s.ha();
      json.put("ha", new JsonObject().put("enabled", ha.enabled())
          .put("available", ha.available()).put("active", ha.active()).put("term", ha.term()));
    }
    return json;
  }

  /**
   * Reads a snapshot a pool encoded. Fields a pool of another version may lack get their empty
   * value (no slots, no hosts, zero counts); a field of the wrong kind or an unknown phase, state
   * or retirement fails with an {@link IllegalArgumentException} naming it.
   */
  public static PoolSnapshot decode(JsonObject json) {
    JsonObject backlog = object(json, "backlog");
    JsonObject budget = object(json, "budget");
    List<PoolSnapshot.SlotStatus> slots = new ArrayList<>();
    for (JsonObject slot : objects(json, "slots")) {
      List<PoolSnapshot.AssignmentStatus> assignments = new ArrayList<>();
      for (JsonObject a : objects(slot, "assignments")) {
        assignments.add(new PoolSnapshot.AssignmentStatus(number(a, "assignment"),
            a.getString("job")));
      }
      String retirement = slot.getString("retirement");
      slots.add(new PoolSnapshot.SlotStatus(slot.getString("id"),
          name(Phase.class, slot, "phase"),
          slot.getValue("capacity") == null ? -1 : (int) number(slot, "capacity"),
          (int) number(slot, "inFlight"), assignments, (int) number(slot, "incarnation"),
          (int) number(slot, "restarts"),
          retirement == null ? null : name(Retirement.class, slot, "retirement"),
          slot.getValue("backoffUntil") == null ? null : number(slot, "backoffUntil"),
          slot.getString("host")));
    }
    List<PoolSnapshot.HostStatus> hosts = new ArrayList<>();
    for (JsonObject host : objects(json, "hosts")) {
      List<String> ids = new ArrayList<>();
      for (Object id : host.getJsonArray("slots", new JsonArray())) {
        ids.add(String.valueOf(id));
      }
      hosts.add(new PoolSnapshot.HostStatus(host.getString("id"), host.getString("node"),
          name(HostState.class, host, "state"), ids, number(host, "since")));
    }
    JsonObject c = object(json, "counters");
    Counters counters = new Counters(number(c, "accepted"), number(c, "rejected"),
        number(c, "completed"), number(c, "failed"), number(c, "interrupted"),
        number(c, "cancelled"), number(c, "retried"), number(c, "restarts"),
        number(c, "staleCompletions"), number(c, "budgetRefusals"), number(c, "ignoredFacts"),
        number(c, "revives"), number(c, "poisoned"), number(c, "deadLettered"),
        number(c, "deadLetterEvicted"));
    return new PoolSnapshot(json.getString("name"), name(PoolState.class, json, "state"),
        (int) number(backlog, "length"), (int) number(backlog, "capacity"), slots, counters,
        (int) number(budget, "restartsInWindow"), (int) number(budget, "maxRestarts"),
        budget.getValue("windowMs") == null ? Long.MAX_VALUE : number(budget, "windowMs"),
        hosts, ha(json), (int) number(backlog, "waiting"),
        backlog.getValue("nextDue") == null ? null : number(backlog, "nextDue"),
        (int) number(json, "deadLetters"));
  }

  /** The {@code ha} block (A1 in docs/rules.md), or null for a pool without one. */
  private static HaStatus ha(JsonObject json) {
    if (json.getValue("ha") == null) {
      return null;
    }
    JsonObject ha = object(json, "ha");
    return new HaStatus(ha.getBoolean("enabled", false), ha.getBoolean("available", false),
        ha.getString("active"), number(ha, "term"));
  }

  private static JsonObject object(JsonObject json, String field) {
    Object value = json.getValue(field);
    if (value == null) {
      return new JsonObject();
    }
    if (value instanceof JsonObject object) {
      return object;
    }
    throw new IllegalArgumentException(field + ": must be an object");
  }

  private static List<JsonObject> objects(JsonObject json, String field) {
    Object value = json.getValue(field);
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray array)) {
      throw new IllegalArgumentException(field + ": must be an array");
    }
    List<JsonObject> out = new ArrayList<>();
    for (Object item : array) {
      if (!(item instanceof JsonObject object)) {
        throw new IllegalArgumentException(field + ": must hold objects");
      }
      out.add(object);
    }
    return out;
  }

  private static long number(JsonObject json, String field) {
    Object value = json.getValue(field);
    if (value == null) {
      return 0;
    }
    if (value instanceof Number n) {
      return n.longValue();
    }
    throw new IllegalArgumentException(field + ": must be a number");
  }

  private static <E extends Enum<E>> E name(Class<E> type, JsonObject json, String field) {
    Object value = json.getValue(field);
    try {
      return Enum.valueOf(type, (String) value);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(field + ": not a " + type.getSimpleName() + " (was "
          + value + ")");
    }
  }
}
