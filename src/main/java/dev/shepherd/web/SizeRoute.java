package dev.shepherd.web;

import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.RequestDecoder;
import dev.shepherd.runtime.wire.Requests;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code PUT /api/pools/<name>/size} {@code {"instances"?, "maxConcurrency"?}}: an operator
 * resizes the pool's own slots at run time (F6 in docs/rules.md); a field left out keeps what the
 * pool has. 200 {@code {"instances", "maxConcurrency"}} (the size now); 400 {@code BAD_REQUEST}
 * naming {@code instances} or {@code maxConcurrency} (not a whole number, out of range, 0 slots
 * for a pool that does not run on worker hosts alone, an unknown field, neither given, or a body
 * that is not a JSON object); 404 {@code UNKNOWN_POOL}; 409 {@code RESIZE_REFUSED} while the pool
 * stops. A worker host's slots are not touched. It changes a pool, so it passes the same origin
 * and token checks as a submit. Any pool of the {@link PoolDirectory}, reached over the bus when
 * it is coordinated elsewhere.
 */
final class SizeRoute {
  static final String PATH = "/api/pools/:pool/size";

  private final PoolDirectory pools;

  SizeRoute(PoolDirectory pools) {
    this.pools = pools;
  }

  void mount(Router router) {
    router.put(PATH).handler(this::resize);
  }

  private void resize(RoutingContext ctx) {
    PoolHandle pool = HttpErrors.pool(pools, ctx);
    if (pool == null) {
      return;
    }
    Requests.Resize request;
    try {
      request = RequestDecoder.resize(ctx.body() == null ? null : ctx.body().buffer());
    } catch (BadRequest e) {
      HttpErrors.badRequest(ctx, e.getMessage());
      return;
    }
    pool.resize(request.instances(), request.maxConcurrency())
        .onSuccess(size -> HttpErrors.json(ctx, 200, new JsonObject()
            .put("instances", size.instances()).put("maxConcurrency", size.maxConcurrency())))
        .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
  }
}
