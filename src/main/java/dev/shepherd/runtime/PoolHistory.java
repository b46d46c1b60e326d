package dev.shepherd.runtime;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Outcome;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pool's recent past, so that a live view opened after an incident shows it: the last {@value
 * #NOTICES} supervision events and the last {@value #JOB_EVENTS} job events the pool published,
 * the budget refusal and retirement behind each slot that is retired now (however long ago that
 * was), each slot's last exit with its cause and time, and the outcomes per second over the last
 * {@value #SECONDS} seconds. Job events have a ring of their own so that a flood of rejections
 * cannot push an incident out. Everything is bounded whatever the pool does.
 *
 * <p>A {@link PoolObserver} on the coordinator's context; {@link EventPublisher} hands it every
 * event it publishes but {@code stats}. {@link #frame} is the live WebSocket's {@code history}
 * frame, also the reply of {@code <prefix>.history}.
 */
final class PoolHistory implements PoolObserver {
  static final int NOTICES = 150;
  static final int JOB_EVENTS = 50;
  static final int SECONDS = 180;
  /** Slots whose last exit and retirement are remembered (registered hosts can add slots). */
  static final int MAX_SLOTS = 1024;
  private static final String[] SERIES = {"completed", "failed", "interrupted", "rejected"};

  private final ArrayDeque<JsonObject> notices = new ArrayDeque<>();
  private final ArrayDeque<JsonObject> jobs = new ArrayDeque<>();
  /** A budget refusal not yet followed by its slot's retirement. */
  private final Map<String, JsonObject> refusals = bounded();
  /** For each retired slot: the events that retired it (its budget refusal, if any, first). */
  private final Map<String, List<JsonObject>> retirements = bounded();
  private final Map<String, JsonObject> lastExits = bounded();
  /** Per-second outcome counts in a ring: {@code counts[i]} belongs to second {@code seconds[i]}. */
  private final long[] seconds = new long[SECONDS];
  private final long[][] counts = new long[SECONDS][SERIES.length];
  private final java.util.function.LongSupplier clock;

  PoolHistory(java.util.function.LongSupplier clock) {
    this.clock = clock;
    java.util.Arrays.fill(seconds, -1);
  }

  /** An event the pool published on {@code <prefix>.events} ({@code stats} aside). */
  void published(JsonObject event) {
    String type = event.getString("type");
    if ("job".equals(type)) {
      keep(jobs, event, JOB_EVENTS);
      return;
    }
    keep(notices, event, NOTICES);
    String worker = event.getString("worker");
    if (worker == null) {
      return;
    }
    switch (type) {
      case "budget" -> refusals.put(worker, event);
      case "retired" -> {
        List<JsonObject> why = new ArrayList<>(2);
        JsonObject refusal = refusals.remove(worker);
        if (refusal != null) {
          why.add(refusal);
        }
        why.add(event);
        retirements.remove(worker);
        retirements.put(worker, why);
      }
      case "phase", "revive" -> {
        refusals.remove(worker);
        retirements.remove(worker);
      }
      case "restart" -> {
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
    long second = Math.floorDiv(clock.getAsLong(), 1000);
    int at = (int) Math.floorMod(second, (long) SECONDS);
    if (seconds[at] != second) {
      seconds[at] = second;
      java.util.Arrays.fill(counts[at], 0);
    }
    counts[at][series]++;
  }

  /**
   * {@code {"type": "history", "pool", "at", "events", "series", "lastExits"}}: the events oldest
   * first; the series' seconds with any outcome, up to and including the current one, each as
   * {@code {"at": <epoch ms of the second's start>, "completed", "failed", "interrupted",
   * "rejected"}}; the last exits as {@code {"<slot>": {"exit", "cause", "at"}}}.
   */
  JsonObject frame(String pool, long at) {
    Set<JsonObject> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<JsonObject> events = new ArrayList<>();
    for (List<JsonObject> why : retirements.values()) {
      why.forEach(e -> add(events, seen, e));
    }
    notices.forEach(e -> add(events, seen, e));
    jobs.forEach(e -> add(events, seen, e));
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

  private static void add(List<JsonObject> events, Set<JsonObject> seen, JsonObject event) {
    if (seen.add(event)) {
      events.add(event);
    }
  }

  private static JsonObject exit(String exit, String cause, Long at) {
    return new JsonObject().put("exit", exit).put("cause", cause).put("at", at);
  }

  private static void keep(ArrayDeque<JsonObject> ring, JsonObject event, int limit) {
    if (ring.size() == limit) {
      ring.removeFirst();
    }
    ring.addLast(event);
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
