package dev.shepherd.runtime.observe;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.access.PoolHistoryRequest;
import dev.shepherd.runtime.coordinator.PoolObserver;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A pool's recent past, so that a live view opened after an incident shows it (J8 in
 * docs/rules.md): the latest events the pool published, kept by {@link Kind} in a ring each (stops,
 * phases, retirements, budget refusals, poisoned jobs, dead-letter arrivals and removals, revives,
 * hosts, the pool's own state, rejections, other job outcomes), so that a flood of one kind cannot
 * push out another, and a burst of rejections never pushes out what caused them; the budget refusal
 * and retirement behind each slot that is retired now (however long ago that was); each slot's last
 * exit with its cause and time; and the outcomes per second over the last {@value #SECONDS}
 * seconds. Everything is bounded whatever the pool does: a ring per kind, a map per slot up to
 * {@value #MAX_SLOTS} slots, and an event keeps at most {@value #JOBS_KEPT} job ids (the rest
 * counted in {@code jobCount}).
 *
 * <p>A {@link PoolObserver} on the coordinator's context; {@link EventPublisher} hands it every
 * event it publishes but {@code stats}. {@link #frame} is the live WebSocket's {@code history}
 * frame, also the reply of {@code <prefix>.history} ({@link PoolHistoryRequest} fetches it).
 */
public final class PoolHistory implements PoolObserver {
  static final int SECONDS = 180;
  /** Slots whose last exit and retirement are remembered (registered hosts can add slots). */
  static final int MAX_SLOTS = 1024;
  /** Job ids an event of the history keeps ({@code jobs} of a stop or budget refusal). */
  static final int JOBS_KEPT = 20;
  private static final String[] SERIES = {"completed", "failed", "interrupted", "rejected"};

  /** What an event is about, each kind with a ring of its own and the ring's size. */
  enum Kind {
    /** {@code restart}: a slot stopped and is replaced. */
    STOPS(100),
    /** {@code phase}: installing, up, backing off, lost. */
    PHASES(60),
    /** {@code retired}. */
    RETIREMENTS(50),
    /** {@code budget}: the restart budget refused a replacement. */
    BUDGET(50),
    /** {@code job} answered {@code interrupted(POISON)} (J2 in docs/rules.md). */
    POISON(50),
    /** {@code deadLettered} (J5 in docs/rules.md). */
    DEAD_LETTERED(50),
    /** {@code deadLetterRemoved}: replayed, discarded, evicted (J5 in docs/rules.md). */
    DEAD_LETTER_REMOVED(30),
    /** {@code revive}. */
    REVIVES(30),
    /** {@code host}: registered, lost, left. */
    HOSTS(50),
    /** {@code state}, {@code recovered}: the pool's own life. */
    POOL(20),
    /** {@code job} answered {@code rejected}. */
    REJECTIONS(50),
    /** Any other {@code job}: failed, interrupted, cancelled. */
    OUTCOMES(50),
    /** Events of a type this history does not know. */
    OTHER(20);

    final int limit;

    Kind(int limit) {
      this.limit = limit;
    }

    /** The kind of an event the pool published. */
    static Kind of(JsonObject event) {
      String type = String.valueOf(event.getValue("type"));
      return switch (type) {
        case "restart" -> STOPS;
        case "phase" -> PHASES;
        case "retired" -> RETIREMENTS;
        case "budget" -> BUDGET;
        case "deadLettered" -> DEAD_LETTERED;
        case "deadLetterRemoved" -> DEAD_LETTER_REMOVED;
        case "revive" -> REVIVES;
        case "host" -> HOSTS;
        case "state", "recovered" -> POOL;
        case "job" -> job(event.getValue("outcome"));
        default -> OTHER;
      };
    }

    private static Kind job(Object outcome) {
      if (!(outcome instanceof JsonObject o)) {
        return OUTCOMES;
      }
      if ("rejected".equals(o.getValue("type"))) {
        return REJECTIONS;
      }
      return o.getValue("reason") instanceof JsonObject r && "POISON".equals(r.getValue("kind"))
          ? POISON : OUTCOMES;
    }
  }

  private final Map<Kind, ArrayDeque<JsonObject>> rings = new EnumMap<>(Kind.class);
  /** A budget refusal not yet followed by its slot's retirement. */
  private final Map<String, JsonObject> refusals = bounded();
  /** For each retired slot: the events that retired it (its budget refusal, if any, first). */
  private final Map<String, List<JsonObject>> retirements = bounded();
  private final Map<String, JsonObject> lastExits = bounded();
  /** Per-second outcome counts in a ring: {@code counts[i]} belongs to second {@code seconds[i]}. */
  private final long[] seconds = new long[SECONDS];
  private final long[][] counts = new long[SECONDS][SERIES.length];
  /** The last wall reading an outcome was counted at, and the slot of its second. */
  private long lastWall = Long.MIN_VALUE;
  private int lastAt;
  private final LongSupplier clock;

  public PoolHistory(LongSupplier clock) {
    this.clock = clock;
    Arrays.fill(seconds, -1);
    for (Kind kind : Kind.values()) {
      rings.put(kind, new ArrayDeque<>(Math.min(kind.limit, 16)));
    }
  }

  /** An event the pool published on {@code <prefix>.events} ({@code stats} aside). */
  void published(JsonObject published) {
    JsonObject event = trimmed(published);
    Kind kind = Kind.of(event);
    ArrayDeque<JsonObject> ring = rings.get(kind);
    if (ring.size() == kind.limit) {
      ring.removeFirst();
    }
    ring.addLast(event);
    if (!(event.getValue("worker") instanceof String worker)) {
      return;
    }
    switch (kind) {
      case BUDGET -> refusals.put(worker, event);
      case RETIREMENTS -> {
        List<JsonObject> why = new ArrayList<>(2);
        JsonObject refusal = refusals.remove(worker);
        if (refusal != null) {
          why.add(refusal);
        }
        why.add(event);
        retirements.remove(worker);
        retirements.put(worker, why);
      }
      case PHASES, REVIVES -> {
        refusals.remove(worker);
        retirements.remove(worker);
      }
      case STOPS -> {
        JsonObject exit = exit(event.getString("exit"), event.getString("cause"),
            event.getLong("at"));
        lastExits.remove(worker);
        lastExits.put(worker, exit);
      }
      default -> { }
    }
  }

  @Override
  public void onStop(String worker, int incarnation, Exit reason) {
    // The restart event that may follow in the same step brings the cause.
    lastExits.remove(worker);
    lastExits.put(worker, exit(reason.name(), null, clock.getAsLong()));
  }

  @Override
  public void onOutcome(Outcome outcome) {
    int series = outcome instanceof Outcome.Completed ? 0
        : outcome instanceof Outcome.Failed ? 1
        : outcome instanceof Outcome.Interrupted ? 2
        : outcome instanceof Outcome.Rejected ? 3 : -1;
    if (series < 0) {
      return;
    }
    long wall = clock.getAsLong();
    if (wall != lastWall) {
      // A new reading (the coordinator's is one per batch): its second's slot, cleared if reused.
      lastWall = wall;
      long second = Math.floorDiv(wall, 1000);
      lastAt = (int) Math.floorMod(second, (long) SECONDS);
      if (seconds[lastAt] != second) {
        seconds[lastAt] = second;
        Arrays.fill(counts[lastAt], 0);
      }
    }
    counts[lastAt][series]++;
  }

  /**
   * {@code {"type": "history", "pool", "at", "events", "series", "lastExits"}}: the events of
   * every ring and those behind each retired slot, oldest first; the series' seconds with any
   * outcome, up to and including the current one, each as {@code {"at": <epoch ms of the
   * second's start>, "completed", "failed", "interrupted", "rejected"}}; the last exits as
   * {@code {"<slot>": {"exit", "cause", "at"}}}.
   */
  public JsonObject frame(String pool, long at) {
    Set<JsonObject> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<JsonObject> events = new ArrayList<>();
    for (List<JsonObject> why : retirements.values()) {
      why.forEach(e -> add(events, seen, e));
    }
    rings.values().forEach(ring -> ring.forEach(e -> add(events, seen, e)));
    // Stable: events of the same millisecond keep the order they were published in per kind.
    events.sort(Comparator.comparingLong(e -> e.getLong("at", 0L)));
    JsonArray series = new JsonArray();
    long now = Math.floorDiv(at, 1000);
    for (long second = now - SECONDS + 1; second <= now; second++) {
      int i = (int) Math.floorMod(second, (long) SECONDS);
      if (seconds[i] != second) {
        continue;
      }
      JsonObject entry = new JsonObject().put("at", second * 1000);
      for (int s = 0; s < SERIES.length; s++) {
        entry.put(SERIES[s], counts[i][s]);
      }
      series.add(entry);
    }
    JsonObject exits = new JsonObject();
    lastExits.forEach((worker, exit) -> exits.put(worker, exit.copy()));
    return new JsonObject().put("type", "history").put("pool", pool).put("at", at)
        .put("events", new JsonArray(new ArrayList<>(events))).put("series", series)
        .put("lastExits", exits);
  }

  /** How many events of {@code kind} the history holds now. */
  int held(Kind kind) {
    return rings.get(kind).size();
  }

  /**
   * The event as the history keeps it: a copy with at most {@value #JOBS_KEPT} of its job ids
   * and their number in {@code jobCount}, when it lists more; else the event itself.
   */
  private static JsonObject trimmed(JsonObject event) {
    if (!(event.getValue("jobs") instanceof JsonArray jobs) || jobs.size() <= JOBS_KEPT) {
      return event;
    }
    JsonObject copy = event.copy();
    copy.put("jobs", new JsonArray(new ArrayList<>(jobs.getList().subList(0, JOBS_KEPT))))
        .put("jobCount", jobs.size());
    return copy;
  }

  private static void add(List<JsonObject> events, Set<JsonObject> seen, JsonObject event) {
    if (seen.add(event)) {
      events.add(event);
    }
  }

  private static JsonObject exit(String exit, String cause, Long at) {
    return new JsonObject().put("exit", exit).put("cause", cause).put("at", at);
  }

  /** A map that forgets its least recently written entry beyond {@value #MAX_SLOTS}. */
  private static <V> Map<String, V> bounded() {
    return new LinkedHashMap<>() {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > MAX_SLOTS;
      }
    };
  }
}
