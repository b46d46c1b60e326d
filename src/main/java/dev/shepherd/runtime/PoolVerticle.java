package dev.shepherd.runtime;

import dev.shepherd.core.ConfigException;
import io.vertx.core.Closeable;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.VertxInternal;

/**
 * The pool coordinator as a verticle: deploy one per pool, with one {@code pools} entry as its
 * configuration. Invalid configuration fails the deployment with a message naming the field, and
 * nothing is deployed. Undeploying it stops the pool gracefully (P16): new submits are refused,
 * queued jobs are answered {@code interrupted(POOL_STOPPED)}, running ones get {@code
 * drainTimeoutMs} to finish. Closing Vert.x (as the launcher does on SIGTERM) stops it the same
 * way, before Vert.x undeploys anything.
 */
public class PoolVerticle extends VerticleBase {
  private Coordinator coordinator;
  private BusEndpoints endpoints;
  private EventPublisher events;
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
    endpoints = new BusEndpoints(coordinator, history);
    return endpoints.register()
        .onSuccess(v -> {
          coordinator.start();
          ((VertxInternal) vertx).addCloseHook(drainOnClose);
        })
        .onFailure(e -> LocalPools.unregister(vertx, coordinator));
  }

  @Override
  public Future<?> stop() {
    ((VertxInternal) vertx).removeCloseHook(drainOnClose);
    return coordinator.stop()
        .eventually(() -> endpoints.unregister())
        .eventually(() -> {
          LocalPools.unregister(vertx, coordinator);
          return Future.succeededFuture();
        });
  }

  /** The coordinator, once started (for embedding and tests). */
  public Coordinator coordinator() {
    return coordinator;
  }
}
