package dev.shepherd.web;

import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.wire.SnapshotJson;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /metrics}: the Prometheus text of the Vert.x instance's Micrometer registry, with a
 * {@link PoolMeters} for every pool of the {@link PoolDirectory}. A pool coordinated here is
 * observed on its coordinator's context and read afresh before each scrape; a pool coordinated on
 * another node is followed through the {@code stats} events it publishes (its meters appear with
 * the first one). Without Vert.x metrics enabled it still serves the pools' meters, from a
 * registry of its own.
 */
final class MetricsEndpoint {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);

  private final PoolDirectory directory;
  private final PrometheusMeterRegistry registry;
  private final boolean ownRegistry;
  private final Map<PoolHandle, Followed> pools = new IdentityHashMap<>();
  private boolean closed;

  /** One pool being metered: its meters once it has a first snapshot, and how it is heard. */
  private static final class Followed {
    final PoolHandle pool;
    PoolMeters meters;
    MessageConsumer<?> events;

    Followed(PoolHandle pool) {
      this.pool = pool;
    }

    void close() {
      if (meters != null) {
        pool.unobserve(meters);
        meters.close();
      }
      if (events != null) {
        events.unregister();
      }
    }
  }

  MetricsEndpoint(Vertx vertx, PoolDirectory directory) {
    this.directory = directory;
    PrometheusMeterRegistry shared = Metrics.prometheusRegistry(vertx);
    this.ownRegistry = shared == null;
    this.registry = shared != null ? shared : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  }

  /** Attaches meters to pools that appeared and drops those of pools that are gone. */
  synchronized Future<Void> sync() {
    if (closed) {
      return Future.succeededFuture();
    }
    List<PoolHandle> live = directory.pools();
    Set<PoolHandle> present = Collections.newSetFromMap(new IdentityHashMap<>());
    present.addAll(live);
    pools.entrySet().removeIf(e -> {
      if (!present.contains(e.getKey())) {
        e.getValue().close();
        return true;
      }
      return false;
    });
    List<Future<Void>> attached = new ArrayList<>();
    for (PoolHandle pool : live) {
      if (pools.containsKey(pool)) {
        continue;
      }
      Followed followed = new Followed(pool);
      pools.put(pool, followed);
      if (pool.local()) {
        attached.add(pool.snapshot().map(first -> {
          attach(followed, first);
          return null;
        }));
      } else {
        followed.events = pool.events(event -> heard(followed, event));
      }
    }
    return Future.join(attached).mapEmpty();
  }

  /** Gives {@code followed} its meters, unless it was dropped (or the endpoint closed) since. */
  private synchronized void attach(Followed followed, PoolSnapshot first) {
    if (closed || pools.get(followed.pool) != followed || followed.meters != null) {
      return;
    }
    followed.meters = new PoolMeters(followed.pool, registry, first);
    followed.pool.observe(followed.meters);
  }

  /** An event of a remote pool: its {@code stats} snapshot feeds the meters, others count. */
  private void heard(Followed followed, JsonObject event) {
    if (!"stats".equals(event.getValue("type"))
        || !(event.getValue("snapshot") instanceof JsonObject json)) {
      synchronized (this) {
        if (followed.meters != null) {
          followed.meters.heard(event);
        }
      }
      return;
    }
    PoolSnapshot snapshot;
    try {
      snapshot = SnapshotJson.decode(json);
    } catch (IllegalArgumentException e) {
      LOG.debug("metrics: a stats event of pool {} is not a snapshot: {}",
          LogText.quote(followed.pool.name()), LogText.quote(e.getMessage()));
      return;
    }
    synchronized (this) {
      if (followed.meters == null) {
        attach(followed, snapshot);
      } else {
        followed.meters.onStats(snapshot);
      }
    }
  }

  void handle(RoutingContext ctx) {
    sync().compose(v -> {
      List<Future<Void>> fresh = new ArrayList<>();
      synchronized (this) {
        pools.values().stream().filter(f -> f.meters != null)
            .forEach(f -> fresh.add(f.meters.refresh()));
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
    pools.values().forEach(Followed::close);
    pools.clear();
    if (ownRegistry) {
      registry.close();
    }
  }
}
