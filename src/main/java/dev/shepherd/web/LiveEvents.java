package dev.shepherd.web;

import dev.shepherd.runtime.wire.EventJson;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.RuntimeTime;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/pools/<name>/events}, a plain WebSocket for the live view: on connect one
 * {@code {"type": "snapshot", "pool", "at", "snapshot"}} text frame, then the pool's {@code
 * history} frame (see {@link PoolHandle#history()}; none if the pool gives none), then every event
 * the pool publishes on {@code <prefix>.events} (section 6 in docs/rules.md), one JSON object per
 * text frame. Any pool of the {@link PoolDirectory}: a pool coordinated on another node is asked
 * over the bus and its events arrive through a clustered consumer. A client that
 * cannot keep up loses events while its write queue is full (the next periodic {@code stats}
 * heals its picture), and one that reads nothing for {@code http.idleTimeoutMs} is closed (1008),
 * so no client makes the server queue without bound. What it sends is ignored. An event that
 * cannot be encoded as JSON is skipped.
 */
final class LiveEvents {
  private static final Logger LOG = LoggerFactory.getLogger(LiveEvents.class);
  /** Events kept while the snapshot is on its way (a remote pool's may take a while). */
  static final int MAX_HELD = 1000;

  private final Vertx vertx;
  private final RuntimeClock clock;
  private final PoolDirectory pools;
  private final SameOrigin sameOrigin;
  private final long slowLimitMs;
  private final Set<ServerWebSocket> sockets = ConcurrentHashMap.newKeySet();

  LiveEvents(Vertx vertx, PoolDirectory pools, SameOrigin sameOrigin, long slowLimitMs) {
    this.vertx = vertx;
    this.clock = RuntimeTime.of(vertx).clock();
    this.pools = pools;
    this.sameOrigin = sameOrigin;
    this.slowLimitMs = slowLimitMs;
  }

  void handle(RoutingContext ctx) {
    PoolHandle pool = HttpErrors.pool(pools, ctx);
    if (pool == null) {
      return;
    }
    String name = pool.name();
    String upgrade = ctx.request().getHeader("Upgrade");
    if (upgrade == null || !upgrade.equalsIgnoreCase("websocket")) {
      HttpErrors.badRequest(ctx, "Upgrade: this endpoint is a WebSocket; connect with"
          + " new WebSocket(\"ws://…/api/pools/" + name + "/events\")");
      return;
    }
    String refused = sameOrigin.refusal(ctx.request());
    if (refused != null) {
      HttpErrors.send(ctx, 403, "FORBIDDEN",
          refused + ": a page from another origin may not read this pool's events");
      return;
    }
    Context context = vertx.getOrCreateContext();
    ctx.request().toWebSocket().onComplete(ar -> {
      if (ar.failed()) {
        LOG.debug("WebSocket upgrade for pool {} failed: {}", LogText.quote(name),
            LogText.quote(ar.cause().toString()));
        return;
      }
      stream(ar.result(), pool, context);
    });
  }

  /** Subscribes first, then snapshots, holding events back until the snapshot frame is out. */
  private void stream(ServerWebSocket ws, PoolHandle pool, Context context) {
    sockets.add(ws);
    List<JsonObject> held = new ArrayList<>();
    boolean[] live = {false};
    long[] fullSince = {-1};
    MessageConsumer<?> consumer = pool.events(event -> {
      if (live[0]) {
        send(ws, event, fullSince);
      } else if (held.size() < MAX_HELD) {
        held.add(event); // beyond that the next stats event heals the picture
      }
    });
    ws.closeHandler(v -> {
      sockets.remove(ws);
      consumer.unregister();
    });
    ws.exceptionHandler(e -> LOG.debug("live view socket: {}", LogText.quote(e.toString())));
    ws.handler(buffer -> { });
    // History before the snapshot: an event after the history is then either in the snapshot
    // or sent live, and one in both the history and the held events is older than the snapshot.
    Future<JsonObject> history = consumer.completion().compose(v -> pool.history());
    history.compose(v -> pool.status())
        .onComplete(ar -> context.runOnContext(v -> {
          if (ws.isClosed()) {
            return;
          }
          if (ar.failed()) {
            LOG.debug("live view of pool {}: no snapshot: {}", LogText.quote(pool.name()),
                LogText.quote(String.valueOf(ar.cause())));
            ws.close((short) 1011, "the pool did not answer");
            return;
          }
          send(ws, EventJson.snapshot(pool.name(), ar.result(), clock.wallMs()), fullSince);
          if (history.result() != null) {
            send(ws, history.result(), fullSince);
          }
          live[0] = true;
          held.forEach(event -> send(ws, event, fullSince));
          held.clear();
        }));
  }

  /** {@code fullSince}: when this socket's write queue was first seen full, or -1. */
  private void send(ServerWebSocket ws, JsonObject event, long[] fullSince) {
    if (ws.isClosed()) {
      return;
    }
    long now = clock.monotonicMs();
    if (ws.writeQueueFull()) {
      if (fullSince[0] < 0) {
        fullSince[0] = now;
      } else if (now - fullSince[0] >= slowLimitMs) {
        ws.close((short) 1008, "too slow: events were not read");
      }
      return;
    }
    fullSince[0] = -1;
    String text;
    try {
      text = event.encode();
    } catch (RuntimeException e) {
      LOG.debug("live view: skipped a {} event that cannot be encoded: {}",
          LogText.quote(event.getValue("type")), LogText.quote(e.toString()));
      return;
    }
    ws.writeTextMessage(text);
  }

  /** Closes every live-view socket (the server is stopping). */
  void close() {
    sockets.forEach(ws -> ws.close((short) 1001, "server stopping"));
    sockets.clear();
  }
}
