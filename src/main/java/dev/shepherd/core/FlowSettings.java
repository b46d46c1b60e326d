package dev.shepherd.core;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A pool's flow control (section 11, F1-F5 in docs/rules.md): group defaults and configured
 * per-group overrides, the pool's own token bucket, priority aging, and what a paused pool does
 * with submits.
 *
 * @param defaults what each group has unless overridden
 * @param groups configured overrides by group name (1-256 characters); an operator's {@link
 *     PoolEvent.SetGroup} replaces one at run time
 * @param poolRateLimit the pool's token bucket over all starts, or null for none (F4)
 * @param priorityAgingMs a queued job is lifted one priority level per this many milliseconds of
 *     waiting (F3); 0 = no aging
 * @param rejectWhenPaused whether a submit to a paused pool or group is {@code rejected(PAUSED)}
 *     rather than accepted into the bound (F5)
 * @param busiest how many groups a status lists (the busiest by running + queued); 0 none
 */
public record FlowSettings(GroupDefaults defaults, Map<String, GroupSettings> groups,
    RateLimit poolRateLimit, long priorityAgingMs, boolean rejectWhenPaused, int busiest) {

  /** The longest group name. */
  public static final int MAX_GROUP_LENGTH = 256;
  /** How many groups a status lists by default. */
  public static final int DEFAULT_BUSIEST = 20;

  /** No flow control: unlimited groups of weight 1, no rate limits, no aging. */
  public static final FlowSettings NONE =
      new FlowSettings(GroupDefaults.NONE, Map.of(), null, 0, false, DEFAULT_BUSIEST);

  public FlowSettings {
    Objects.requireNonNull(defaults, "defaults");
    Objects.requireNonNull(groups, "groups");
    for (Map.Entry<String, GroupSettings> e : groups.entrySet()) {
      if (!validGroup(e.getKey())) {
        throw new ConfigException("groups.overrides", e.getKey(),
            "a group name is 1 to " + MAX_GROUP_LENGTH + " characters");
      }
      Objects.requireNonNull(e.getValue(), "group override " + e.getKey());
    }
    groups = java.util.Collections.unmodifiableMap(new TreeMap<>(groups));
    if (priorityAgingMs < 0) {
      throw new ConfigException("priorityAgingMs", priorityAgingMs,
          "must not be negative (0 = no aging)");
    }
    if (busiest < 0) {
      throw new ConfigException("groups.busiest", busiest, "must not be negative");
    }
  }

  /** Whether {@code group} is a valid group name: 1 to 256 characters. */
  public static boolean validGroup(String group) {
    return group != null && !group.isEmpty() && group.length() <= MAX_GROUP_LENGTH;
  }

  public FlowSettings withDefaults(GroupDefaults newDefaults) {
    return new FlowSettings(newDefaults, groups, poolRateLimit, priorityAgingMs, rejectWhenPaused,
        busiest);
  }

  public FlowSettings withGroups(Map<String, GroupSettings> newGroups) {
    return new FlowSettings(defaults, newGroups, poolRateLimit, priorityAgingMs, rejectWhenPaused,
        busiest);
  }

  public FlowSettings withPoolRateLimit(RateLimit limit) {
    return new FlowSettings(defaults, groups, limit, priorityAgingMs, rejectWhenPaused, busiest);
  }

  public FlowSettings withPriorityAgingMs(long agingMs) {
    return new FlowSettings(defaults, groups, poolRateLimit, agingMs, rejectWhenPaused, busiest);
  }

  public FlowSettings withRejectWhenPaused(boolean reject) {
    return new FlowSettings(defaults, groups, poolRateLimit, priorityAgingMs, reject, busiest);
  }

  public FlowSettings withBusiest(int count) {
    return new FlowSettings(defaults, groups, poolRateLimit, priorityAgingMs, rejectWhenPaused,
        count);
  }
}
