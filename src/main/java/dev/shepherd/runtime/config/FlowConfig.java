package dev.shepherd.runtime.config;

import dev.shepherd.core.ConfigException;
import dev.shepherd.core.FlowSettings;
import dev.shepherd.core.GroupDefaults;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.RateLimit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the fields of a {@code pools} entry that control its flow (section 11) into {@link
 * FlowSettings}: {@code groups} (the defaults of every group, F1, F2 and F4 in docs/rules.md, and
 * {@code groups.overrides}, configured settings of named groups), {@code rateLimit} (the pool's
 * own token bucket, F4), {@code priorityAgingMs} (F3) and {@code rejectWhenPaused} (F5). An
 * absent field takes no limit; a bad one is a {@link ConfigException} naming its full path and
 * value.
 *
 * <pre>{@code
 * "groups": {"concurrency": 4, "queueCapacity": 500,
 *            "overrides": {"tenant-big": {"concurrency": 16, "weight": 4},
 *                          "mail": {"rateLimit": {"permits": 5, "perMs": 1000}}}},
 * "rateLimit": {"permits": 100, "perMs": 1000}, "priorityAgingMs": 30000
 * }</pre>
 */
public final class FlowConfig {
  /** The fields of a pool entry this class reads. */
  public static final List<String> FIELDS =
      List.of("groups", "rateLimit", "priorityAgingMs", "rejectWhenPaused");

  /** The most jobs of one group that may run at once when a limit is given. */
  public static final int MAX_CONCURRENCY = 1_000_000;
  /** The most jobs one group may queue when a limit is given. */
  public static final int MAX_QUEUE = 100_000_000;
  /** The largest weight of a group (F2 in docs/rules.md): its share of starts under contention. */
  public static final int MAX_WEIGHT = GroupDefaults.MAX_WEIGHT;
  /** The most permits a bucket may hold. */
  public static final int MAX_PERMITS = RateLimit.MAX_PERMITS;
  /** The longest refill period of a bucket: a day. */
  public static final long MAX_PER_MS = RateLimit.MAX_PER_MS;
  /** The most groups the configuration may name. */
  public static final int MAX_OVERRIDES = 100_000;
  /** The most groups a status lists (and meters by name). */
  public static final int MAX_BUSIEST = 1_000;
  /** The default of {@code groups.busiest}. */
  public static final int DEFAULT_BUSIEST = FlowSettings.DEFAULT_BUSIEST;

  private FlowConfig() {}

  /** The flow settings of the pool entry {@code pool}. */
  public static FlowSettings parse(ConfigReader pool) {
    ConfigReader groups = pool.object("groups");
    groups.onlyFields("concurrency", "queueCapacity", "weight", "rateLimit", "overrides",
        "busiest");
    GroupDefaults defaults = new GroupDefaults(
        groups.intValue("concurrency", 0, 0, MAX_CONCURRENCY),
        groups.intValue("queueCapacity", 0, 0, MAX_QUEUE),
        groups.intValue("weight", 1, 1, MAX_WEIGHT),
        rateLimit(groups.object("rateLimit")));
    int busiest = groups.intValue("busiest", DEFAULT_BUSIEST, 0, MAX_BUSIEST);
    Map<String, GroupSettings> overrides = overrides(groups.object("overrides"));
    RateLimit poolLimit = rateLimit(pool.object("rateLimit"));
    long aging = pool.longValue("priorityAgingMs", 0, 0, JobSettingsConfig.MAX_MS);
    boolean reject = pool.bool("rejectWhenPaused", false);
    return new FlowSettings(defaults, overrides, poolLimit, aging, reject, busiest);
  }

  /**
   * A bucket {@code {"permits", "perMs"}}: {@code permits} starts per {@code perMs} ms (default
   * 1000). {@code permits} 0 (the default) is no limit: null.
   */
  static RateLimit rateLimit(ConfigReader r) {
    r.onlyFields("permits", "perMs");
    int permits = r.intValue("permits", 0, 0, MAX_PERMITS);
    long perMs = r.longValue("perMs", 1000, 1, MAX_PER_MS);
    return permits == 0 ? null : new RateLimit(permits, perMs);
  }

  /** {@code groups.overrides}: group name to its settings, each field null when not given. */
  private static Map<String, GroupSettings> overrides(ConfigReader overrides) {
    Map<String, GroupSettings> out = new LinkedHashMap<>();
    for (String name : overrides.names()) {
      if (!FlowSettings.validGroup(name)) {
        throw new ConfigException(overrides.field(name), name,
            "a group name must be 1 to 256 characters");
      }
      if (out.size() == MAX_OVERRIDES) {
        throw new ConfigException(overrides.path(), "(" + overrides.names().size() + " groups)",
            "may name at most " + MAX_OVERRIDES + " groups");
      }
      out.put(name, override(overrides.object(name)));
    }
    return out;
  }

  private static GroupSettings override(ConfigReader g) {
    g.onlyFields("concurrency", "queueCapacity", "weight", "rateLimit", "paused");
    return new GroupSettings(
        g.has("concurrency") ? g.intValue("concurrency", 0, 0, MAX_CONCURRENCY) : null,
        g.has("queueCapacity") ? g.intValue("queueCapacity", 0, 0, MAX_QUEUE) : null,
        g.has("weight") ? g.intValue("weight", 1, 1, MAX_WEIGHT) : null,
        g.has("rateLimit") ? rateLimit(g.object("rateLimit")) : null,
        g.has("paused") ? g.bool("paused", false) : null);
  }
}
