package dev.shepherd.web;

import dev.shepherd.runtime.BadRequest;
import dev.shepherd.runtime.Coordinator;
import dev.shepherd.runtime.LocalPools;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.RequestDecoder;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /api/pools/<name>/slots/<id>/restart}: an operator puts a retired slot back in
 * service with a new incarnation (a revive, which the restart budget does not count). 200 {@code
 * {"worker", "incarnation"}}; 404 {@code UNKNOWN_POOL}; 409 {@code REVIVE_REFUSED} (the slot is
 * not retired, its host is lost, or the pool is not running) or {@code UNKNOWN_WORKER}; 400
 * naming {@code slot} for an id over 256 characters, or the body for a body other than none or
 * {@code {}}. A host's slot id ({@code h1/w-0}) is written with its slash encoded: {@code
 * h1%2Fw-0}. It changes a pool, so it passes the same origin and token checks as a submit.
 */
final class ReviveRoute {
  static final String PATH = "/api/pools/:pool/slots/:slot/restart";

  private final Vertx vertx;

  ReviveRoute(Vertx vertx) {
    this.vertx = vertx;
  }

  void mount(Router router) {
    router.post(PATH).handler(this::restart);
  }

  private void restart(RoutingContext ctx) {
    String name = ctx.pathParam("pool");
    Coordinator pool = LocalPools.find(vertx, name);
    if (pool == null) {
      HttpErrors.unknownPool(ctx, name);
      return;
    }
    String slot = ctx.pathParam("slot");
    if (slot == null || slot.isEmpty() || slot.length() > 256) {
      HttpErrors.badRequest(ctx, "slot: must be 1 to 256 characters (was "
          + (slot == null ? 0 : slot.length()) + ")");
      return;
    }
    Buffer body = ctx.body() == null ? null : ctx.body().buffer();
    try {
      if (body != null && body.length() > 0) {
        RequestDecoder.status(body);
      }
    } catch (BadRequest e) {
      HttpErrors.badRequest(ctx, e.getMessage() + " (a restart takes no body, or {})");
      return;
    }
    PoolClient.create(vertx, name, pool.config().addresses().prefix(),
            PoolClient.DEFAULT_REQUEST_TIMEOUT_MS)
        .revive(slot)
        .onComplete(ar -> {
          if (ar.succeeded()) {
            HttpErrors.json(ctx, 200,
                new JsonObject().put("worker", slot).put("incarnation", ar.result()));
          } else if (ar.cause() instanceof PoolErrorException e) {
            HttpErrors.send(ctx, 409, e.name(), e.getMessage());
          } else if (ar.cause() instanceof BadRequest e) {
            HttpErrors.badRequest(ctx, e.getMessage());
          } else {
            ctx.fail(ar.cause());
          }
        });
  }
}
