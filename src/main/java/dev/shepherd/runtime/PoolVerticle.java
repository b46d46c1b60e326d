package dev.shepherd.runtime;

import dev.shepherd.core.ConfigException;
import io.vertx.core.Closeable;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.VertxInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The pool coordinator as a verticle: deploy one per pool, with one {@code pools} entry as its
 * configuration. Invalid configuration fails the deployment with a message naming the field, and
 * nothing is deployed. Undeploying it stops the pool gracefully (P16): new submits are refused,
 * queued jobs are answered {@code interrupted(POOL_STOPPED)}, running ones get {@code
 * drainTimeoutMs} to finish. Closing Vert.x (as the launcher does on SIGTERM) stops it the same
 * way, before Vert.x undeploys anything.
 *
 * <p>Every {@link PoolExtension} on the classpath runs beside the coordinator (found with {@link
 * ServiceLoader}); with the cluster package there, the pool accepts worker hosts (section 8.2)
 * with no configuration of its own. On a clustered Vert.x the pool announces itself to every node
 * ({@link PoolAnnouncement}), so any node can serve it (section 8.4).
 */
public class PoolVerticle extends VerticleBase {
  private Coordinator coordinator;
  private BusEndpoints endpoints;
  private EventPublisher events;
  private final List<PoolExtension> extensions = new ArrayList<>();
  /**
   * Vert.x runs its close hooks before it undeploys verticles: the pool drains while its
   * incarnations, the bus and the HTTP server are all still there.
   */
  private final Closeable drainOnClose =
      completion -> coordinator.execute(() -> coordinator.stop().onComplete(completion));

  @Override
  public Future<?> start() {
    PoolConfig config;
    try {
      config = PoolConfig.parse(config(), "", vertx.isClustered());
    } catch (ConfigException e) {
      return Future.failedFuture(e);
    }
    coordinator = new Coordinator(vertx, context, config);
    try {
      LocalPools.register(vertx, coordinator);
    } catch (IllegalStateException e) {
      return Future.failedFuture(e);
    }
    PoolHistory history = new PoolHistory(coordinator::now);
    events = new EventPublisher(coordinator, history);
    coordinator.observe(events);
    coordinator.observe(history);
    coordinator.observe(new PoolLog(coordinator.name()));
    if (vertx.isClustered()) {
      coordinator.observe(new PoolAnnouncer(coordinator));
    }
    endpoints = new BusEndpoints(coordinator, history);
    ServiceLoader.load(PoolExtension.class, PoolExtension.class.getClassLoader())
        .forEach(extensions::add);
    return endpoints.register()
        .compose(v -> startExtensions())
        .onSuccess(v -> {
          coordinator.start();
          ((VertxInternal) vertx).addCloseHook(drainOnClose);
        })
        .onFailure(e -> {
          endpoints.unregister();
          stopExtensions();
          LocalPools.unregister(vertx, coordinator);
        });
  }

  @Override
  public Future<?> stop() {
    ((VertxInternal) vertx).removeCloseHook(drainOnClose);
    return coordinator.stop()
        .eventually(this::stopExtensions)
        .eventually(() -> endpoints.unregister())
        .eventually(() -> {
          LocalPools.unregister(vertx, coordinator);
          return Future.succeededFuture();
        });
  }

  private Future<Void> startExtensions() {
    List<Future<Void>> started = new ArrayList<>();
    extensions.forEach(e -> started.add(e.start(coordinator)));
    return Future.all(started).mapEmpty();
  }

  private Future<Void> stopExtensions() {
    List<Future<Void>> stopped = new ArrayList<>();
    extensions.forEach(e -> stopped.add(e.stop()));
    return Future.join(stopped).mapEmpty();
  }

  /** The coordinator, once started (for embedding and tests). */
  public Coordinator coordinator() {
    return coordinator;
  }
}
