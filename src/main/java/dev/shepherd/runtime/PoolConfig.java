package dev.shepherd.runtime;

import dev.shepherd.core.AffinitySelector;
import dev.shepherd.core.ConfigException;
import dev.shepherd.core.HostSettings;
import dev.shepherd.core.InterruptionPolicy;
import dev.shepherd.core.PoolLimits;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.Selectors;
import dev.shepherd.core.SlotSpec;
import dev.shepherd.runtime.config.ConfigReader;
import dev.shepherd.runtime.config.FlowConfig;
import dev.shepherd.runtime.config.HandlerFactory;
import dev.shepherd.runtime.config.JobSettingsConfig;
import dev.shepherd.runtime.config.SupervisionConfig;
import dev.shepherd.runtime.config.WorkerConfig;
import dev.shepherd.runtime.payload.JsonCheck;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.ThreadingModel;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One {@code pools} entry of the configuration, validated: the core's settings plus what the
 * runtime needs (the worker class and threading model, the address prefix, the deepest payload
 * a submit may carry, how long a worker host may stay silent).
 * {@link #parse} throws a {@link ConfigException} naming the field; every field but {@code
 * worker.class} has a default, and that one is left out when the handlers come from a factory
 * ({@link PoolVerticle#PoolVerticle(Supplier)}). The defaults heal (J7 in docs/rules.md): section
 * 10's job rules are on ({@link JobSettingsConfig}), replacements back off and retired slots are
 * probed again ({@link SupervisionConfig}); docs/configuration.md lists them and how to turn each
 * off. Flow control (groups, rate limits, priority aging, pauses: section 11) is off until
 * configured ({@link FlowConfig}).
 *
 * @param heartbeatTimeoutMs a worker host that sent no heartbeat for this long is lost (H5)
 * @param ha whether the pool is highly available (A1): coordinated by one of the nodes that list
 *     it, the others standing by, every accepted job written to the cluster first
 * @param workerClass the handler class named by {@code worker.class}, or null when the
 *     handlers come from {@code handlerFactory}
 * @param onException what an exception thrown by the worker's handler means ({@code
 *     worker.onException}, J1)
 * @param handlerFactory what makes each incarnation's handler when it is not {@code
 *     workerClass}, or null
 */
public record PoolConfig(
    PoolSettings settings,
    Class<? extends JobHandler> workerClass,
    ThreadingModel threading,
    JsonObject workerConfig,
    String addressPrefix,
    int maxPayloadDepth,
    long heartbeatTimeoutMs,
    boolean ha,
    OnException onException,
    Supplier<? extends JobHandler> handlerFactory) {

  /** Levels of nesting a payload may have unless configured ({@code maxPayloadDepth}). */
  public static final int DEFAULT_MAX_PAYLOAD_DEPTH = 64;
  /**
   * The most {@code maxPayloadDepth} may be: a worker that wraps its payload in a result a few
   * levels deep still answers well inside what JSON encoding allows (see {@code
   * JsonCheck.MAX_RESULT_DEPTH}).
   */
  public static final int MAX_PAYLOAD_DEPTH = 500;
  /** The default of {@code heartbeatTimeoutMs}: five missed heartbeats of a host's default. */
  public static final long DEFAULT_HEARTBEAT_TIMEOUT_MS = HostSettings.DEFAULT_LEASE_MS;

  public PoolConfig {
    if ((workerClass == null) == (handlerFactory == null)) {
      throw new IllegalArgumentException("exactly one of workerClass and handlerFactory");
    }
  }

  public String name() {
    return settings.name();
  }

  /**
   * What makes each incarnation's handler, called once per incarnation on its context: the
   * factory given in code, or a new {@code workerClass} by its no-argument constructor.
   */
  public Supplier<? extends JobHandler> handlers() {
    return handlerFactory != null ? handlerFactory : HandlerFactory.of(workerClass);
  }

  /** This configuration with other core settings (a new leader's term, durability). */
  public PoolConfig withSettings(PoolSettings newSettings) {
    return new PoolConfig(newSettings, workerClass, threading, workerConfig, addressPrefix,
        maxPayloadDepth, heartbeatTimeoutMs, ha, onException, handlerFactory);
  }

  public Addresses addresses() {
    return new Addresses(addressPrefix);
  }

  /** Parses one pool entry; {@code path} prefixes field names in errors (e.g. {@code pools[0]}). */
  public static PoolConfig parse(JsonObject json, String path) {
    return parse(json, path, false);
  }

  /** Parses one pool entry of a node that is clustered or not. */
  public static PoolConfig parse(JsonObject json, String path, boolean clustered) {
    return parse(json, path, clustered, null);
  }

  /**
   * Parses one pool entry whose handlers come from {@code handlers}, or, when it is null, from
   * the class {@code worker.class} names. Exactly one of the two: a factory with a {@code
   * worker.class} too, or neither, is a {@link ConfigException} naming {@code worker.class}.
   */
  public static PoolConfig parse(JsonObject json, String path, boolean clustered,
      Supplier<? extends JobHandler> handlers) {
    ConfigReader pool = new ConfigReader(json, path);
    List<String> fields = new ArrayList<>(List.of("name", "address", "worker",
        "backlogCapacity", "interruption", "maxAttempts", "jobTimeoutMs", "supervision",
        "affinity", "drainTimeoutMs", "term", "backlogMaxBytes", "hostGraceMs",
        "maxPayloadDepth", "heartbeatTimeoutMs", "ha"));
    fields.addAll(JobSettingsConfig.FIELDS);
    fields.addAll(FlowConfig.FIELDS);
    pool.onlyFields(fields.toArray(String[]::new));
    String name = pool.string("name", "jobs");
    if (!name.matches("[A-Za-z0-9_.-]{1,64}")) {
      throw new ConfigException(pool.field("name"), name,
          "must be 1-64 letters, digits, '.', '_' or '-'");
    }
    WorkerConfig worker = WorkerConfig.parse(pool.object("worker"), minInstances(clustered),
        handlers != null);
    List<SlotSpec> slots = new ArrayList<>(worker.instances());
    for (int i = 0; i < worker.instances(); i++) {
      slots.add(new SlotSpec("w-" + i, worker.maxConcurrency()));
    }
    ConfigReader affinity = pool.object("affinity");
    AffinitySelector selector = selector(affinity);
    PoolLimits limits = new PoolLimits(
        pool.longValue("backlogMaxBytes", defaultBacklogMaxBytes(), 1, Long.MAX_VALUE),
        affinity.intValue("maxIdleKeys", PoolLimits.DEFAULT.maxIdleKeys(), 0, 100_000_000),
        affinity.intValue("maxRebalancedKeys", PoolLimits.DEFAULT.maxRebalancedKeys(), 0,
            100_000_000));
    // The lease of H5 is the core's: a host silent this long is lost (a core timer).
    long heartbeatTimeoutMs =
        pool.longValue("heartbeatTimeoutMs", DEFAULT_HEARTBEAT_TIMEOUT_MS, 100, 3_600_000);
    PoolSettings settings = new PoolSettings(
        name,
        slots,
        pool.intValue("backlogCapacity", 1000, 0, 100_000_000),
        pool.enumValue("interruption", InterruptionPolicy.class, InterruptionPolicy.RETRY),
        pool.intValue("maxAttempts", 3, 0, 1_000_000),
        pool.longValue("jobTimeoutMs", 30_000, 0, Long.MAX_VALUE / 4),
        SupervisionConfig.parse(pool.object("supervision")),
        selector,
        pool.longValue("drainTimeoutMs", 10_000, 0, Long.MAX_VALUE / 4),
        pool.longValue("term", 0, 0, (1L << 23) - 1),
        limits,
        new HostSettings(clustered && worker.instances() == 0,
            pool.longValue("hostGraceMs", HostSettings.DEFAULT.graceMs(), 0, Long.MAX_VALUE / 4),
            heartbeatTimeoutMs),
        false,
        JobSettingsConfig.parse(pool)).withFlow(FlowConfig.parse(pool));
    String prefix = pool.string("address", "shepherd." + name);
    int maxPayloadDepth = pool.intValue("maxPayloadDepth", DEFAULT_MAX_PAYLOAD_DEPTH, 1,
        MAX_PAYLOAD_DEPTH);
    boolean ha = ha(pool.object("ha"), clustered);
    return new PoolConfig(settings.withDurable(ha), worker.type(), worker.threading(),
        worker.config(), prefix, maxPayloadDepth, heartbeatTimeoutMs, ha, worker.onException(),
        handlers);
  }

  /**
   * The {@code ha} object: {@code enabled} (default false). High availability rests on the
   * cluster (a replicated store, a majority), so a node that is not clustered refuses it.
   */
  private static boolean ha(ConfigReader ha, boolean clustered) {
    ha.onlyFields("enabled");
    boolean enabled = ha.bool("enabled", false);
    if (enabled && !clustered) {
      throw new ConfigException(ha.field("enabled"), true,
          "needs a clustered node (start with -cluster): the standbys and the replicated store"
              + " are cluster members");
    }
    return enabled;
  }

  /** The default byte budget of a pool's queued payloads: an eighth of the maximum heap. */
  public static long defaultBacklogMaxBytes() {
    return Math.max(1L << 20, Runtime.getRuntime().maxMemory() / 8);
  }

  /**
   * The local slots a pool needs at least: H2 (docs/rules.md) lets a clustered pool run on worker
   * hosts alone.
   */
  static int minInstances(boolean clustered) {
    return clustered ? 0 : 1;
  }

  private static AffinitySelector selector(ConfigReader affinity) {
    affinity.onlyFields("selector", "maxIdleKeys", "maxRebalancedKeys");
    String name = affinity.string("selector", "RENDEZVOUS");
    if (name.contains(".")) {
      try {
        Class<?> type = Class.forName(name, true, Thread.currentThread().getContextClassLoader());
        return (AffinitySelector) type.getConstructor().newInstance();
      } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
        throw new ConfigException(affinity.field("selector"), name,
            "must name an AffinitySelector class with a public no-argument constructor");
      }
    }
    try {
      return Selectors.named(name);
    } catch (ConfigException e) {
      throw new ConfigException(affinity.field("selector"), name,
          "must be RENDEZVOUS, ROUND_ROBIN, LEAST_LOADED or an AffinitySelector class name");
    }
  }
}
