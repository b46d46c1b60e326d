package dev.shepherd.web;

import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.wire.RequestDecoder;
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
 * h1%2Fw-0}. It changes a pool, so it passes the same origin and token checks as a submit. Any
 * pool of the {@link PoolDirectory}, reached over the bus when it is coordinated elsewhere.
 */
final class ReviveRoute {
  static final String PATH = "/api/pools/:pool/slots/:slot/restart";

  private final PoolDirectory pools;

  ReviveRoute(PoolDirectory pools) {
    this.pools = pools;
  }

  void mount(Router router) {
    router.post(PATH).handler(this::restart);
  }

  private void restart(RoutingContext ctx) {
    String name = ctx.pathParam("pool");
    PoolHandle pool = pools.find(name);
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
    pool.revive(slot)
        .onSuccess(incarnation -> HttpErrors.json(ctx, 200,
            new JsonObject().put("worker", slot).put("incarnation", incarnation)))
        .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
  }
}
