package dev.shepherd.web;

import dev.shepherd.runtime.Coordinator;
import dev.shepherd.runtime.LocalPools;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /metrics}: the Prometheus text of the Vert.x instance's Micrometer registry, with a
 * {@link PoolMeters} for every pool of this Vert.x instance. Without Vert.x metrics enabled it
 * still serves the pools' meters, from a registry of its own.
 */
final class MetricsEndpoint {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final Vertx vertx;
  private final PrometheusMeterRegistry registry;
  private final boolean ownRegistry;
  private final Map<Coordinator, PoolMeters> pools = new IdentityHashMap<>();
  private boolean closed;

  MetricsEndpoint(Vertx vertx) {
    this.vertx = vertx;
    PrometheusMeterRegistry shared = Metrics.prometheusRegistry(vertx);
    this.ownRegistry = shared == null;
    this.registry = shared != null ? shared : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  }

  /** Attaches meters to pools that appeared and drops those of pools that are gone. */
  synchronized Future<Void> sync() {
    if (closed) {
      return Future.succeededFuture();
    }
    List<Coordinator> live = new ArrayList<>(LocalPools.all(vertx));
    pools.entrySet().removeIf(e -> {
      if (!live.contains(e.getKey())) {
        e.getValue().close();
        return true;
      }
      return false;
    });
    List<Future<Void>> attached = new ArrayList<>();
    for (Coordinator pool : live) {
      if (!pools.containsKey(pool)) {
        pools.put(pool, null);
        attached.add(pool.snapshotLocal().map(first -> {
          PoolMeters meters = new PoolMeters(pool, registry, first);
          synchronized (this) {
            if (closed || !pools.containsKey(pool)) {
              meters.close();
              return null;
            }
            pools.put(pool, meters);
          }
          pool.observe(meters);
          return null;
        }));
      }
    }
    return Future.all(attached).mapEmpty();
  }

  void handle(RoutingContext ctx) {
    sync().compose(v -> {
      List<Future<Void>> fresh = new ArrayList<>();
      synchronized (this) {
        pools.values().stream().filter(m -> m != null).forEach(m -> fresh.add(m.refresh()));
      }
      return Future.join(fresh);
    }).onComplete(ar -> {
      if (ctx.response().ended() || ctx.response().closed()) {
        return;
      }
      ctx.response().putHeader("Content-Type", CONTENT_TYPE)
          .putHeader("Cache-Control", "no-store")
          .end(registry.scrape());
    });
  }

  synchronized void close() {
    closed = true;
    pools.values().stream().filter(m -> m != null).forEach(PoolMeters::close);
    pools.clear();
    if (ownRegistry) {
      registry.close();
    }
  }
}
