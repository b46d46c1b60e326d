package dev.shepherd.web;

import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.DeadLetterJson;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.wire.RequestDecoder;
import dev.shepherd.runtime.wire.Requests;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * A pool's dead-letter set over HTTP (J5 in docs/rules.md), for any pool of the {@link
 * PoolDirectory}:
 *
 * <ul>
 *   <li>{@code GET /api/pools/<name>/dead?offset=0&limit=50}: 200 {@code {"pool", "size",
 *       "evicted", "offset", "limit", "entries": [entry, …]}}, newest first ({@link
 *       DeadLetterJson}); {@code limit} 1 to 500, {@code offset} 0 or more.</li>
 *   <li>{@code GET /api/pools/<name>/dead/<job>}: 200 the entry.</li>
 *   <li>{@code POST /api/pools/<name>/dead/<job>/replay}: the admission of a new submission of
 *       its payload, key and timeout under its id, with a submit's statuses: 200 {@code
 *       accepted}, 429 (with {@code Retry-After}) {@code rejected} {@code BACKLOG_FULL}, 409 other
 *       rejections. Its outcome is not waited for: {@code GET …/jobs/<job>?wait=true} gives it.</li>
 *   <li>{@code DELETE /api/pools/<name>/dead/<job>}: 200 {@code {"job", "discarded": true}}.</li>
 * </ul>
 *
 * A job the set does not hold is 404 {@code UNKNOWN_JOB}; a bad id, bound or body (anything but
 * none or {@code {}} on a replay or discard) is 400 naming it; an unknown pool 404 {@code
 * UNKNOWN_POOL}. Reads are also served for {@code HEAD}; replay and discard change the pool, so
 * they pass the same origin and token checks as a submit.
 */
final class DeadLetterRoutes {
  static final String LIST = "/api/pools/:pool/dead";
  static final String ONE = "/api/pools/:pool/dead/:job";
  static final String REPLAY = "/api/pools/:pool/dead/:job/replay";

  private final PoolDirectory pools;

  DeadLetterRoutes(PoolDirectory pools) {
    this.pools = pools;
  }

  void mount(Router router) {
    router.get(LIST).handler(this::list);
    router.head(LIST).handler(this::list);
    router.get(ONE).handler(this::one);
    router.head(ONE).handler(this::one);
    router.post(REPLAY).handler(this::replay);
    router.delete(ONE).handler(this::discard);
  }

  private PoolHandle pool(RoutingContext ctx) {
    return HttpErrors.pool(pools, ctx);
  }

  private void list(RoutingContext ctx) {
    PoolHandle pool = pool(ctx);
    if (pool == null) {
      return;
    }
    Requests.DeadLetters page;
    try {
      page = RequestDecoder.page(QueryParams.integer(ctx, "offset", 0),
          QueryParams.integer(ctx, "limit", RequestDecoder.DEFAULT_PAGE));
    } catch (BadRequest e) {
      HttpErrors.badRequest(ctx, e.getMessage());
      return;
    }
    pool.deadLetters(page.offset(), page.limit())
        .onSuccess(p -> HttpErrors.json(ctx, 200, DeadLetterJson.encode(p)))
        .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
  }

  private void one(RoutingContext ctx) {
    PoolHandle pool = pool(ctx);
    String job = pool == null ? null : job(ctx, false);
    if (job == null) {
      return;
    }
    pool.deadLetter(job).onSuccess(e -> HttpErrors.json(ctx, 200, DeadLetterJson.encode(e)))
        .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
  }

  private void replay(RoutingContext ctx) {
    PoolHandle pool = pool(ctx);
    String job = pool == null ? null : job(ctx, true);
    if (job == null) {
      return;
    }
    pool.replay(job).onSuccess(admission -> PoolApi.answer(ctx, admission))
        .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
  }

  private void discard(RoutingContext ctx) {
    PoolHandle pool = pool(ctx);
    String job = pool == null ? null : job(ctx, true);
    if (job == null) {
      return;
    }
    pool.discard(job).onSuccess(v -> HttpErrors.json(ctx, 200,
            new JsonObject().put("job", job).put("discarded", true)))
        .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
  }

  /**
   * The path's job id, or null after answering 400; with {@code noBody}, the body must be none
   * or {@code {}} too.
   */
  private static String job(RoutingContext ctx, boolean noBody) {
    try {
      String job = JobLookupRoute.pathId(ctx, "job");
      Buffer body = ctx.body() == null ? null : ctx.body().buffer();
      if (noBody && body != null && body.length() > 0) {
        try {
          RequestDecoder.status(body);
        } catch (BadRequest e) {
          throw new BadRequest(e.getMessage() + " (this request takes no body, or {})");
        }
      }
      return job;
    } catch (BadRequest e) {
      HttpErrors.badRequest(ctx, e.getMessage());
      return null;
    }
  }
}
