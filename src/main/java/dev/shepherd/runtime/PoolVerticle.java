package dev.shepherd.runtime;

import dev.shepherd.core.ConfigException;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

/**
 * The pool coordinator as a verticle: deploy one per pool, with one {@code pools} entry as its
 * configuration. Invalid configuration fails the deployment with a message naming the field, and
 * nothing is deployed. Undeploying it stops the pool gracefully (P16): new submits are refused,
 * queued jobs are answered {@code interrupted(POOL_STOPPED)}, running ones get {@code
 * drainTimeoutMs} to finish.
 */
public class PoolVerticle extends VerticleBase {
  private Coordinator coordinator;
  private BusEndpoints endpoints;
  private EventPublisher events;

  @Override
  public Future<?> start() {
    PoolConfig config;
    try {
      config = PoolConfig.parse(config(), "");
    } catch (ConfigException e) {
      return Future.failedFuture(e);
    }
    coordinator = new Coordinator(vertx, context, config);
    try {
      LocalPools.register(vertx, coordinator);
    } catch (IllegalStateException e) {
      return Future.failedFuture(e);
    }
    events = new EventPublisher(coordinator);
    coordinator.observe(events);
    coordinator.observe(new PoolLog(coordinator.name()));
    endpoints = new BusEndpoints(coordinator);
    return endpoints.register()
        .onSuccess(v -> coordinator.start())
        .onFailure(e -> LocalPools.unregister(vertx, coordinator));
  }

  @Override
  public Future<?> stop() {
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
