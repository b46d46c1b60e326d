package dev.shepherd.web;

import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.JobViewJson;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.wire.RequestDecoder;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /api/pools/<name>/jobs/<job>} (J6 in docs/rules.md): where a job is, 200 {@code
 * {"job", "state", …}} ({@link JobViewJson}), or 404 {@code UNKNOWN_JOB} for one the pool never
 * accepted or has forgotten. With {@code ?wait=true} the request is held until the job is answered
 * and gets the outcome exactly as a waiting submit would (same body, same status); a job already
 * answered gets it at once. The wait lasts at most {@code timeoutMs} (1 ms to an hour; default 120
 * s, what a waiting submit over the bus is given); when that passes first the answer is the job's
 * view then, 200 with {@code "waited": true}. A pool holding as many waiters as it allows answers
 * 429 {@code TOO_MANY_WAITERS} with {@code Retry-After}. 400 naming {@code job}, {@code wait} or
 * {@code timeoutMs}; 404 {@code UNKNOWN_POOL}. Also for {@code HEAD}. Any pool of the {@link
 * PoolDirectory}, reached over the bus when it is coordinated elsewhere.
 */
final class JobLookupRoute {
  static final String PATH = "/api/pools/:pool/jobs/:job";

  private final PoolDirectory pools;

  JobLookupRoute(PoolDirectory pools) {
    this.pools = pools;
  }

  void mount(Router router) {
    router.get(PATH).handler(this::lookup);
    router.head(PATH).handler(this::lookup);
  }

  private void lookup(RoutingContext ctx) {
    PoolHandle pool = HttpErrors.pool(pools, ctx);
    if (pool == null) {
      return;
    }
    String job;
    boolean wait;
    long timeoutMs;
    try {
      job = pathId(ctx, "job");
      wait = QueryParams.bool(ctx, "wait", false);
      if (!wait && QueryParams.has(ctx, "timeoutMs")) {
        throw new BadRequest("timeoutMs: only with wait=true");
      }
      timeoutMs = RequestDecoder.waitMs(
          QueryParams.integer(ctx, "timeoutMs", RequestDecoder.DEFAULT_WAIT_MS));
    } catch (BadRequest e) {
      HttpErrors.badRequest(ctx, e.getMessage());
      return;
    }
    if (!wait) {
      pool.lookup(job).onSuccess(view -> HttpErrors.json(ctx, 200, JobViewJson.encode(view)))
          .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
      return;
    }
    pool.await(job, timeoutMs).onSuccess(awaited -> {
      if (awaited.answered()) {
        PoolApi.answer(ctx, awaited.outcome());
      } else {
        HttpErrors.json(ctx, 200, JobViewJson.encodeWaited(awaited.view()));
      }
    }).onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
  }

  /** A job id from the path: 1 to 256 characters. */
  static String pathId(RoutingContext ctx, String param) {
    String id = ctx.pathParam(param);
    if (id == null || id.isEmpty() || id.length() > 256) {
      throw new BadRequest(param + ": must be 1 to 256 characters (was "
          + (id == null ? 0 : id.length()) + ")");
    }
    return id;
  }
}
