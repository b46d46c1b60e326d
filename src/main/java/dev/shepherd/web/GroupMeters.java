package dev.shepherd.web;

import dev.shepherd.core.PoolSnapshot;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * One pool's per-group meters (F1 in docs/rules.md): {@code shepherd.group.running} and {@code
 * shepherd.group.queued}, labelled {@code group}, with a bounded label set however many groups the
 * pool has (a group per tenant must not become a series per tenant): the groups the status lists
 * (the busiest, at most the pool's {@code groups.busiest}) and, on the node that coordinates the
 * pool, the groups its configuration names each have their own series, and every other job, in a
 * group or not, is summed under {@code group="other"}. A group that leaves the list loses its
 * series at the next update, so at most {@code busiest + configured + 1} of each exist at once.
 */
final class GroupMeters {
  static final String OTHER = "other";

  private record Load(int running, int queued) {}

  private final MeterRegistry registry;
  private final String pool;
  private final String coordinator;
  private final Map<String, Load> loads = new HashMap<>();
  private final Map<String, List<Meter>> meters = new HashMap<>();

  GroupMeters(MeterRegistry registry, String pool, String coordinator) {
    this.registry = registry;
    this.pool = pool;
    this.coordinator = coordinator;
  }

  /** Reads the groups of {@code s}: their series, and "other" for the rest. */
  synchronized void update(PoolSnapshot s) {
    update(s, List.of());
  }

  /**
   * Reads the groups of {@code s} and the configured groups it does not list ({@code
   * configured}): a series each, and "other" for the rest.
   */
  synchronized void update(PoolSnapshot s, List<PoolSnapshot.GroupStatus> configured) {
    Map<String, Load> next = new HashMap<>();
    int running = 0;
    for (PoolSnapshot.SlotStatus slot : s.slots()) {
      running += slot.inFlight();
    }
    int queued = s.backlogLength();
    List<PoolSnapshot.GroupStatus> all = new java.util.ArrayList<>(s.groups());
    all.addAll(configured);
    for (PoolSnapshot.GroupStatus g : all) {
      if (!g.name().equals(OTHER) && !next.containsKey(g.name())) {
        next.put(g.name(), new Load(g.running(), g.queued()));
        running -= g.running();
        queued -= g.queued();
      }
    }
    next.put(OTHER, new Load(Math.max(0, running), Math.max(0, queued)));
    for (Iterator<Map.Entry<String, List<Meter>>> it = meters.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, List<Meter>> e = it.next();
      if (!next.containsKey(e.getKey())) {
        e.getValue().forEach(registry::remove);
        it.remove();
      }
    }
    loads.clear();
    loads.putAll(next);
    for (String group : next.keySet()) {
      meters.computeIfAbsent(group, this::register);
    }
  }

  /** How many groups have series now ("other" included). */
  synchronized int series() {
    return meters.size();
  }

  synchronized void close() {
    meters.values().forEach(list -> list.forEach(registry::remove));
    meters.clear();
  }

  private List<Meter> register(String group) {
    return List.of(
        Gauge.builder("shepherd.group.running", this, m -> m.load(group).running())
            .description("Jobs of a group running now (the busiest groups by name, the rest"
                + " as \"other\")")
            .tag("pool", pool).tag("coordinator", coordinator).tag("group", group)
            .register(registry),
        Gauge.builder("shepherd.group.queued", this, m -> m.load(group).queued())
            .description("Jobs of a group held in the backlog (the busiest groups by name, the"
                + " rest as \"other\")")
            .tag("pool", pool).tag("coordinator", coordinator).tag("group", group)
            .register(registry));
  }

  private synchronized Load load(String group) {
    return loads.getOrDefault(group, new Load(0, 0));
  }
}
