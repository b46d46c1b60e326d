package dev.shepherd.runtime.wire;

import dev.shepherd.core.Counters;
import dev.shepherd.core.HaStatus;
import dev.shepherd.core.HostState;
import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolSize;
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
  // The wire names of a snapshot (protocol section 6, the .status reply), both ways.
  static final String ACCEPTED = "accepted";
  static final String ACTIVE = "active";
  static final String ASSIGNMENT = "assignment";
  static final String ASSIGNMENTS = "assignments";
  static final String AVAILABLE = "available";
  static final String BACKLOG = "backlog";
  static final String BACKOFF_UNTIL = "backoffUntil";
  static final String BUDGET = "budget";
  static final String BUDGET_REFUSALS = "budgetRefusals";
  static final String CANCELLED = "cancelled";
  static final String CAPACITY = "capacity";
  static final String COMPLETED = "completed";
  static final String COUNTERS = "counters";
  static final String DEAD_LETTER_EVICTED = "deadLetterEvicted";
  static final String DEAD_LETTERED = "deadLettered";
  static final String DEAD_LETTERS = "deadLetters";
  static final String ENABLED = "enabled";
  static final String FAILED = "failed";
  static final String GROUPS = "groups";
  static final String GROUP_COUNT = "groupCount";
  static final String HA = "ha";
  static final String HOST = "host";
  static final String HOSTS = "hosts";
  static final String ID = "id";
  static final String IGNORED_FACTS = "ignoredFacts";
  static final String IN_FLIGHT = "inFlight";
  static final String INCARNATION = "incarnation";
  static final String INTERRUPTED = "interrupted";
  static final String INSTANCES = "instances";
  static final String MAX_CONCURRENCY = "maxConcurrency";
  static final String SIZE = "size";
  static final String JOB = "job";
  static final String LENGTH = "length";
  static final String MAX_RESTARTS = "maxRestarts";
  static final String NAME = "name";
  static final String NEXT_DUE = "nextDue";
  static final String NODE = "node";
  static final String PAUSED = FlowJson.PAUSED;
  static final String PAUSED_SINCE = FlowJson.PAUSED_SINCE;
  static final String PHASE = "phase";
  static final String POISONED = "poisoned";
  static final String REJECTED = "rejected";
  static final String RESTARTS = "restarts";
  static final String RESTARTS_IN_WINDOW = "restartsInWindow";
  static final String RETIREMENT = "retirement";
  static final String RETRIED = "retried";
  static final String REVIVES = "revives";
  static final String SINCE = "since";
  static final String SLOTS = "slots";
  static final String STALE_COMPLETIONS = "staleCompletions";
  static final String STATE = "state";
  static final String TERM = "term";
  static final String WAITING = "waiting";
  static final String WINDOW_MS = "windowMs";

  private SnapshotJson() {}

  public static JsonObject encode(PoolSnapshot s) {
    JsonArray slots = new JsonArray();
    for (PoolSnapshot.SlotStatus slot : s.slots()) {
      JsonArray assignments = new JsonArray();
      for (PoolSnapshot.AssignmentStatus a : slot.assignments()) {
        assignments.add(new JsonObject().put(ASSIGNMENT, a.assignment()).put(JOB, a.job()));
      }
      slots.add(new JsonObject()
          .put(ID, slot.id())
          .put(PHASE, slot.phase().name())
          .put(CAPACITY, slot.capacity() < 0 ? null : slot.capacity())
          .put(IN_FLIGHT, slot.inFlight())
          .put(ASSIGNMENTS, assignments)
          .put(INCARNATION, slot.incarnation())
          .put(RESTARTS, slot.restarts())
          .put(RETIREMENT, slot.retirement() == null ? null : slot.retirement().name())
          .put(BACKOFF_UNTIL, slot.backoffUntil())
          .put(HOST, slot.host()));
    }
    JsonArray hosts = new JsonArray();
    for (PoolSnapshot.HostStatus host : s.hosts()) {
      hosts.add(new JsonObject()
          .put(ID, host.id())
          .put(NODE, host.node())
          .put(STATE, host.state().name())
          .put(SLOTS, new JsonArray(host.slots()))
          .put(SINCE, host.since()));
    }
    Counters c = s.counters();
    JsonObject json = new JsonObject()
        .put(NAME, s.name())
        .put(STATE, s.state().name())
        .put(BACKLOG, new JsonObject().put(LENGTH, s.backlogLength())
            .put(CAPACITY, s.backlogCapacity()).put(WAITING, s.backlogWaiting())
            .put(NEXT_DUE, s.nextDue()))
        .put(DEAD_LETTERS, s.deadLetters())
        .put(SLOTS, slots)
        .put(HOSTS, hosts)
        .put(COUNTERS, new JsonObject()
            .put(ACCEPTED, c.accepted())
            .put(REJECTED, c.rejected())
            .put(COMPLETED, c.completed())
            .put(FAILED, c.failed())
            .put(INTERRUPTED, c.interrupted())
            .put(CANCELLED, c.cancelled())
            .put(RETRIED, c.retried())
            .put(RESTARTS, c.restarts())
            .put(STALE_COMPLETIONS, c.staleCompletions())
            .put(BUDGET_REFUSALS, c.budgetRefusals())
            .put(IGNORED_FACTS, c.ignoredFacts())
            .put(REVIVES, c.revives())
            .put(POISONED, c.poisoned())
            .put(DEAD_LETTERED, c.deadLettered())
            .put(DEAD_LETTER_EVICTED, c.deadLetterEvicted()))
        .put(BUDGET, new JsonObject()
            .put(RESTARTS_IN_WINDOW, s.restartsInWindow())
            .put(MAX_RESTARTS, s.maxRestarts())
            .put(WINDOW_MS, s.windowMs() == Long.MAX_VALUE ? null : s.windowMs()));
    JsonArray groups = new JsonArray(new ArrayList<>(s.groups().size()));
    for (PoolSnapshot.GroupStatus g : s.groups()) {
      groups.add(FlowJson.encode(g));
    }
    json.put(PAUSED, s.paused()).put(PAUSED_SINCE, s.pausedSince()).put(GROUPS, groups)
        .put(GROUP_COUNT, s.groupCount());
    if (s.size() != null) {
      // F6: the pool's own slots and their capacity, as a resize sets them.
      json.put(SIZE, new JsonObject().put(INSTANCES, s.size().instances())
          .put(MAX_CONCURRENCY, s.size().maxConcurrency()));
    }
    if (s.ha() != null) {
      HaStatus ha = s.ha();
      json.put(HA, new JsonObject().put(ENABLED, ha.enabled())
          .put(AVAILABLE, ha.available()).put(ACTIVE, ha.active()).put(TERM, ha.term()));
    }
    return json;
  }

  /**
   * Reads a snapshot a pool encoded. Fields a pool of another version may lack get their empty
   * value (no slots, no hosts, zero counts); a field of the wrong kind or an unknown phase, state
   * or retirement fails with an {@link IllegalArgumentException} naming it.
   */
  public static PoolSnapshot decode(JsonObject json) {
    JsonObject backlog = object(json, BACKLOG);
    JsonObject budget = object(json, BUDGET);
    List<PoolSnapshot.SlotStatus> slots = new ArrayList<>();
    for (JsonObject slot : objects(json, SLOTS)) {
      List<PoolSnapshot.AssignmentStatus> assignments = new ArrayList<>();
      for (JsonObject a : objects(slot, ASSIGNMENTS)) {
        assignments.add(new PoolSnapshot.AssignmentStatus(number(a, ASSIGNMENT),
            a.getString(JOB)));
      }
      String retirement = slot.getString(RETIREMENT);
      slots.add(new PoolSnapshot.SlotStatus(slot.getString(ID),
          name(Phase.class, slot, PHASE),
          slot.getValue(CAPACITY) == null ? -1 : (int) number(slot, CAPACITY),
          (int) number(slot, IN_FLIGHT), assignments, (int) number(slot, INCARNATION),
          (int) number(slot, RESTARTS),
          retirement == null ? null : name(Retirement.class, slot, RETIREMENT),
          slot.getValue(BACKOFF_UNTIL) == null ? null : number(slot, BACKOFF_UNTIL),
          slot.getString(HOST)));
    }
    List<PoolSnapshot.HostStatus> hosts = new ArrayList<>();
    for (JsonObject host : objects(json, HOSTS)) {
      List<String> ids = new ArrayList<>();
      for (Object id : host.getJsonArray(SLOTS, new JsonArray())) {
        ids.add(String.valueOf(id));
      }
      hosts.add(new PoolSnapshot.HostStatus(host.getString(ID), host.getString(NODE),
          name(HostState.class, host, STATE), ids, number(host, SINCE)));
    }
    JsonObject c = object(json, COUNTERS);
    Counters counters = new Counters(number(c, ACCEPTED), number(c, REJECTED),
        number(c, COMPLETED), number(c, FAILED), number(c, INTERRUPTED),
        number(c, CANCELLED), number(c, RETRIED), number(c, RESTARTS),
        number(c, STALE_COMPLETIONS), number(c, BUDGET_REFUSALS), number(c, IGNORED_FACTS),
        number(c, REVIVES), number(c, POISONED), number(c, DEAD_LETTERED),
        number(c, DEAD_LETTER_EVICTED));
    return new PoolSnapshot(json.getString(NAME), name(PoolState.class, json, STATE),
        (int) number(backlog, LENGTH), (int) number(backlog, CAPACITY), slots, counters,
        (int) number(budget, RESTARTS_IN_WINDOW), (int) number(budget, MAX_RESTARTS),
        budget.getValue(WINDOW_MS) == null ? Long.MAX_VALUE : number(budget, WINDOW_MS),
        hosts, ha(json), (int) number(backlog, WAITING),
        backlog.getValue(NEXT_DUE) == null ? null : number(backlog, NEXT_DUE),
        (int) number(json, DEAD_LETTERS), json.getValue(PAUSED) instanceof Boolean b && b,
        json.getValue(PAUSED_SINCE) == null ? null : number(json, PAUSED_SINCE), groups(json),
        (int) number(json, GROUP_COUNT), size(json));
  }

  /** The busiest groups (F1 in docs/rules.md); none for a pool of a version without them. */
  private static List<PoolSnapshot.GroupStatus> groups(JsonObject json) {
    List<PoolSnapshot.GroupStatus> groups = new ArrayList<>();
    for (JsonObject g : objects(json, GROUPS)) {
      groups.add(FlowJson.decodeStatus(g));
    }
    return groups;
  }

  /** The {@code size} block (F6 in docs/rules.md), or null for a snapshot without one. */
  private static PoolSize size(JsonObject json) {
    if (json.getValue(SIZE) == null) {
      return null;
    }
    JsonObject size = object(json, SIZE);
    return new PoolSize((int) number(size, INSTANCES), (int) number(size, MAX_CONCURRENCY));
  }

  /** The {@code ha} block (A1 in docs/rules.md), or null for a pool without one. */
  private static HaStatus ha(JsonObject json) {
    if (json.getValue(HA) == null) {
      return null;
    }
    JsonObject ha = object(json, HA);
    return new HaStatus(ha.getBoolean(ENABLED, false), ha.getBoolean(AVAILABLE, false),
        ha.getString(ACTIVE), number(ha, TERM));
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
