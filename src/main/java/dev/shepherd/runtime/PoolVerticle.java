package dev.shepherd.runtime;

import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.access.BusEndpoints;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.access.PoolAnnouncement;
import dev.shepherd.runtime.access.PoolAnnouncer;
import dev.shepherd.runtime.access.ReadyConsumers;
import dev.shepherd.runtime.access.Standbys;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.HostedPool;
import dev.shepherd.runtime.coordinator.PoolExtension;
import dev.shepherd.runtime.coordinator.TermRunner;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.ha.NetworkWarmUp;
import dev.shepherd.runtime.ha.WarmUpThread;
import dev.shepherd.runtime.observe.EventPublisher;
import dev.shepherd.runtime.observe.PoolHistory;
import dev.shepherd.runtime.observe.PoolLog;
import io.vertx.core.Closeable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.VertxInternal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool coordinator as a verticle: deploy one per pool, with one {@code pools} entry as its
 * configuration. Invalid configuration fails the deployment with a message naming the field, and
 * nothing is deployed. Undeploying it stops the pool gracefully (P16 in docs/rules.md): new submits
 * are refused, queued jobs are answered {@code interrupted(POOL_STOPPED)}, running ones get {@code
 * drainTimeoutMs} to finish. Closing Vert.x (as the launcher does on SIGTERM) stops it the same
 * way, before Vert.x undeploys anything.
 *
 * <p>Every {@link PoolExtension} on the classpath runs beside the coordinator (found with {@link
 * ServiceLoader}); with the cluster package there, the pool accepts worker hosts (section 8.2)
 * with no configuration of its own. On a clustered Vert.x the pool announces itself to every node
 * ({@link PoolAnnouncement}), so any node can serve it (section 8.4).
 *
 * <p>A pool with {@code "ha": {"enabled": true}} (A1) stands by instead: a {@link Leadership}
 * tells it when this node leads the pool, in which term and from what it recovers; only then is
 * there a coordinator here, consuming the pool's addresses. When the leader must step down it
 * abandons that coordinator at once (nothing more leaves it) and stands by again. Stopping such
 * a verticle, or closing Vert.x, does not drain the pool: it leaves the pool, with its jobs, to a
 * standby at once, and completes once this node's incarnations are undeployed.
 */
public class PoolVerticle extends VerticleBase {
  /** The local map that records a takeover's coordinator warmed up ({@link #warmUpTerm}). */
  private static final String WARMED_MAP = "shepherd.takeover.warmed";
  private static final Logger LOG = LoggerFactory.getLogger(PoolVerticle.class);
  /** What this verticle changes in the configuration it parsed (see the constructor). */
  private final UnaryOperator<PoolConfig> adjust;
  /** What makes the slots' handlers, or null when {@code worker.class} names their class. */
  private final Supplier<? extends JobHandler> handlers;
  private PoolConfig config;
  private Coordinator coordinator;
  private BusEndpoints endpoints;
  private EventPublisher events;
  private PoolAnnouncer announcer;
  private List<PoolExtension> extensions = new ArrayList<>();
  private Leadership leadership;
  /** The terms this node leads of a highly available pool; null for other pools. */
  private TermRunner terms;
  /**
   * How long consumers made ready while this node claims the pool stay without it leading: the
   * 5 s a takeover is meant to take (A3 in docs/rules.md).
   */
  static final long READY_MS = 5_000;
  /** Consumers registered while this node claims the pool (HA), or null. */
  private ReadyConsumers ready;
  private long readyTimer = -1;
  /**
   * Vert.x runs its close hooks before it undeploys verticles: the pool drains while its
   * incarnations, the bus and the HTTP server are all still there.
   */
  private final Closeable drainOnClose =
      completion -> coordinator.execute(() -> coordinator.stop().onComplete(completion));
  /**
   * A highly available pool's counterpart: the node gives the pool up and the pool undeploys its
   * own incarnations before Vert.x undeploys whatever is left. Otherwise Vert.x undeploys them
   * too (an ERROR "Undeploy failed: Already undeployed" for each one the pool stopped first), and
   * an incarnation Vert.x reaches first reads as the pool going away, which would drain it.
   */
  private final Closeable leaveOnClose =
      completion -> context.runOnContext(v -> leave().onComplete(completion));
  /** The node's leaving of a highly available pool, once begun (verticle's context). */
  private Future<Void> leaving;

  /**
   * A coordinator of the pool its deployment's configuration describes, whose {@code
   * worker.class} names the {@link JobHandler} class (made by its public no-argument
   * constructor).
   */
  public PoolVerticle() {
    this(UnaryOperator.identity());
  }

  /**
   * A coordinator of the pool its deployment's configuration describes, as {@code adjust}
   * changes it once parsed: for an embedding application (or a test) that sets what the JSON
   * does not say, such as {@code PoolSettings.withJobs}. A {@link ConfigException} it throws
   * fails the deployment as invalid configuration does.
   */
  public PoolVerticle(UnaryOperator<PoolConfig> adjust) {
    this(null, adjust);
  }

  /**
   * A coordinator of the pool its deployment's configuration describes, whose handlers {@code
   * handlers} makes: the way to give them what they need (a connection pool, a client, settings
   * of the application) rather than a no-argument constructor.
   *
   * <pre>{@code
   * DataSource db = …;
   * vertx.deployVerticle(new PoolVerticle(() -> new ReportHandler(db)),
   *     new DeploymentOptions().setConfig(new JsonObject().put("name", "reports")
   *         .put("worker", new JsonObject().put("instances", 4))));
   * }</pre>
   *
   * <p>The configuration then leaves {@code worker.class} out (one with it fails the deployment,
   * naming {@code worker.class}); every other field means what it always does. {@code handlers}
   * is called once for each incarnation of each slot, on that incarnation's context as it
   * deploys, and should return a new handler each time: incarnations run side by side on their
   * own threads, and a replacement starts afresh. One that throws, or returns null, fails that
   * creation (P2 in docs/rules.md), as a failing {@link JobHandler#start} does. Worker hosts
   * (section 8.2) are configured by JSON and keep naming their class.
   */
  public PoolVerticle(Supplier<? extends JobHandler> handlers) {
    this(java.util.Objects.requireNonNull(handlers, "handlers"), UnaryOperator.identity());
  }

  /** {@link #PoolVerticle(Supplier)}, with the configuration as {@code adjust} changes it. */
  public PoolVerticle(Supplier<? extends JobHandler> handlers, UnaryOperator<PoolConfig> adjust) {
    this.handlers = handlers;
    this.adjust = java.util.Objects.requireNonNull(adjust, "adjust");
  }

  @Override
  public Future<?> start() {
    try {
      config = adjust.apply(PoolConfig.parse(config(), "", vertx.isClustered(), handlers));
    } catch (ConfigException e) {
      return Future.failedFuture(e);
    }
    if (!config.ha()) {
      return startPool(config).onSuccess(v -> ((VertxInternal) vertx).addCloseHook(drainOnClose));
    }
    try {
      Iterator<Leadership> found = ServiceLoader.load(Leadership.class,
          Leadership.class.getClassLoader()).iterator();
      if (!found.hasNext()) {
        return Future.failedFuture(new ConfigException("ha.enabled", true,
            "needs the cluster package on the class path (it provides the leadership)"));
      }
      leadership = found.next();
    } catch (ServiceConfigurationError | LinkageError e) {
      return Future.failedFuture(new ConfigException("ha.enabled", true,
          "needs vertx-hazelcast on the class path (" + e.getMessage() + ")"));
    }
    Standbys.add(vertx, config.name(), config.addresses());
    terms = new TermRunner(config, leadership, new NodeSite());
    return leadership.start(context, config, terms).onSuccess(v -> {
      ((VertxInternal) vertx).addCloseHook(leaveOnClose);
      warmUpTerm();
    })
        .onFailure(e -> Standbys.remove(vertx, config.name()));
  }

  /** A coordinator of {@code poolConfig} here, its observers on, not yet started or serving. */
  private Coordinator open(PoolConfig poolConfig) {
    TermParts parts = build(poolConfig);
    LocalPools.register(vertx, parts.coordinator());
    events = parts.events();
    announcer = parts.announcer();
    endpoints = parts.endpoints();
    extensions = parts.extensions();
    return parts.coordinator();
  }

  /** A coordinator with its observers, routes and extensions, built; nothing registered yet. */
  private record TermParts(Coordinator coordinator, EventPublisher events,
      PoolAnnouncer announcer, BusEndpoints endpoints, List<PoolExtension> extensions) {}

  /** Builds what {@link #open} registers; from any thread, touching none of this verticle. */
  private TermParts build(PoolConfig poolConfig) {
    Coordinator opened = new Coordinator(vertx, context, poolConfig);
    PoolHistory history = new PoolHistory(opened::wallNow);
    EventPublisher publisher = new EventPublisher(opened, history);
    opened.observe(publisher);
    opened.observe(history);
    opened.observe(new PoolLog(opened.name(),
        poolConfig.settings().supervision().restartWindowMs()));
    PoolAnnouncer announcing = null;
    if (vertx.isClustered()) {
      announcing = new PoolAnnouncer(opened);
      opened.observe(announcing);
    }
    List<PoolExtension> found = new ArrayList<>();
    ServiceLoader.load(PoolExtension.class, PoolExtension.class.getClassLoader())
        .forEach(found::add);
    return new TermParts(opened, publisher, announcing, new BusEndpoints(opened, history), found);
  }

  /**
   * Once per Vert.x instance, on a thread of its own ({@link WarmUpThread}), once this node takes
   * part in a highly available pool: a term's coordinator, observers and routes built and
   * dropped, so that a takeover does not build its first one on a cold JVM (28-98 ms in {@code
   * HaBench} against 3 ms warm, docs/benchmarks.md); nothing is registered, started or sent. And,
   * on another such thread, one exchange over loopback on a Vert.x of its own ({@link
   * NetworkWarmUp}): the takeover's first connections then run warm network code.
   */
  private void warmUpTerm() {
    if (vertx.sharedData().getLocalMap(WARMED_MAP).putIfAbsent("term", true) != null) {
      return;
    }
    WarmUpThread.start("shepherd-coordinator-warm-up", () -> {
      long start = System.nanoTime();
      build(config).endpoints().routes();
      LOG.debug("pool {}: a takeover's coordinator warmed up in {} ms", config.name(),
          (System.nanoTime() - start) / 1_000_000);
    }, e -> LOG.debug("pool {}: warming up a takeover's coordinator failed: {}", config.name(),
        String.valueOf(e)));
    WarmUpThread.start("shepherd-network-warm-up", () -> {
      long start = System.nanoTime();
      NetworkWarmUp.runAlone();
      LOG.debug("pool {}: a takeover's network code warmed up in {} ms", config.name(),
          (System.nanoTime() - start) / 1_000_000);
    }, e -> LOG.debug("pool {}: warming up a takeover's network code failed: {}", config.name(),
        String.valueOf(e)));
  }

  /**
   * Consumes the pool's addresses and starts the extensions beside {@code opened}; once they
   * are there a pool without high availability starts (a leader started and recovered before).
   * A failure undoes what this began.
   */
  private Future<Void> serve(Coordinator opened) {
    BusEndpoints registered = endpoints;
    List<PoolExtension> ours = extensions;
    ReadyConsumers adopted = ready;
    ready = null;
    vertx.cancelTimer(readyTimer);
    return registered.register(adopted)
        .compose(v -> startExtensions(ours, opened))
        .onFailure(e -> {
          registered.unregister();
          stopExtensions(ours);
        });
  }

  private Future<Void> startPool(PoolConfig poolConfig) {
    Coordinator started;
    try {
      started = open(poolConfig);
    } catch (IllegalStateException e) {
      return Future.failedFuture(e);
    }
    coordinator = started;
    return serve(started)
        .onSuccess(v -> started.start())
        .onFailure(e -> LocalPools.unregister(vertx, started));
  }

  // ---- high availability (A1-A3) --------------------------------------------------------------

  /** Where this node runs the terms it leads: on this verticle's context and event bus. */
  private final class NodeSite implements TermRunner.Site {
    /**
     * The submit address stands ready while this node claims the pool: the address every job
     * comes by, so a failover's first job waits for no registration after the claim.
     */
    @Override
    public void standReady() {
      if (ready == null) {
        LOG.info("pool {}: its leader's node left; this node consumes its submits while it"
            + " claims the pool", config.name());
        ready = ReadyConsumers.register(vertx.eventBus(), config.name(),
            List.of(config.addresses().submit()));
        readyTimer = vertx.setTimer(READY_MS, id -> standDown());
      }
    }

    @Override
    public void standDown() {
      dropReady();
    }

    @Override
    public Coordinator open(PoolConfig termConfig) {
      return PoolVerticle.this.open(termConfig);
    }

    @Override
    public void serve(Coordinator opened, Consumer<Throwable> done) {
      PoolVerticle.this.serve(opened).onComplete(ar -> done.accept(ar.cause()));
    }

    @Override
    public void discard(Coordinator opened) {
      LocalPools.unregister(vertx, opened);
    }

    @Override
    public void close(Coordinator led, Runnable done) {
      if (announcer != null) {
        announcer.withdraw();
      }
      List<PoolExtension> ours = extensions;
      endpoints.unregister()
          .eventually(() -> stopExtensions(ours))
          .onComplete(ar -> {
            LocalPools.unregister(vertx, led);
            done.run();
          });
    }
  }

  /** Withdraws the consumers made ready while claiming the pool, if any. */
  private void dropReady() {
    if (ready != null) {
      vertx.cancelTimer(readyTimer);
      ready.withdraw();
      ready = null;
    }
  }

  /**
   * This node leaves the highly available pool for good (it stops): no more claims, and a
   * leader steps down at once, leaving the pool to a standby. Completes once this node's
   * incarnations are undeployed, waiting for them as long as a graceful stop would ({@code
   * drainTimeoutMs}, then {@link Coordinator#UNDEPLOY_GRACE_MS}): Vert.x shuts its worker threads
   * down next, and one still busy in a job would then have nowhere to run its stop. Once,
   * whether Vert.x's close or the verticle's undeploy asks first.
   */
  private Future<Void> leave() {
    if (leaving == null) {
      Standbys.remove(vertx, config.name());
      dropReady();
      Promise<Void> left = Promise.promise();
      leadership.stop()
          .eventually(() -> terms.stepDownAndWait("this node stops; a standby takes the pool over",
              true))
          .onComplete(ar -> left.tryComplete());
      long waitMs = config.settings().drainTimeoutMs() + Coordinator.UNDEPLOY_GRACE_MS;
      long timer = vertx.setTimer(waitMs, id -> {
        if (left.tryComplete()) {
          LOG.warn("pool {}: left; some incarnations did not undeploy within {} ms (a worker"
              + " thread is blocked in a job)", config.name(), waitMs);
        }
      });
      leaving = left.future().onComplete(ar -> vertx.cancelTimer(timer));
    }
    return leaving;
  }

  @Override
  public Future<?> stop() {
    if (leadership != null) {
      ((VertxInternal) vertx).removeCloseHook(leaveOnClose);
      return leave();
    }
    ((VertxInternal) vertx).removeCloseHook(drainOnClose);
    return coordinator.stop()
        .eventually(() -> stopExtensions(extensions))
        .eventually(() -> endpoints.unregister())
        .eventually(() -> {
          LocalPools.unregister(vertx, coordinator);
          return Future.succeededFuture();
        });
  }

  private static Future<Void> startExtensions(List<PoolExtension> extensions,
      Coordinator coordinator) {
    List<Future<Void>> started = new ArrayList<>();
    HostedPool hosted = coordinator.hosted();
    extensions.forEach(e -> started.add(e.start(hosted)));
    return Future.all(started).mapEmpty();
  }

  private static Future<Void> stopExtensions(List<PoolExtension> extensions) {
    List<Future<Void>> stopped = new ArrayList<>();
    extensions.forEach(e -> stopped.add(e.stop()));
    return Future.join(stopped).mapEmpty();
  }
}
