package dev.shepherd.web;

import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.OutcomeJson;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.wire.RequestDecoder;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.runtime.slot.ResultCheck;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.impl.RoutingContextInternal;
import java.util.ArrayList;
import java.util.List;

/**
 * The pools' HTTP API (section 7 in docs/rules.md): submit (waiting for the outcome, or {@code
 * ?wait=false} for the admission), cancel, rebalance, and the status snapshots, for every pool of
 * the {@link PoolDirectory} (section 8.4: in a cluster, pools coordinated elsewhere are reached
 * over the bus). The status snapshots are also served for {@code HEAD} (T3 in docs/rules.md). The
 * body is authoritative; the status code is a convenience.
 */
final class PoolApi {
  private final PoolDirectory pools;

  PoolApi(PoolDirectory pools) {
    this.pools = pools;
  }

  void mount(Router router) {
    router.get("/api/pools").handler(this::list);
    router.head("/api/pools").handler(this::list);
    router.get("/api/pools/:pool").handler(this::one);
    router.head("/api/pools/:pool").handler(this::one);
    router.post("/api/pools/:pool/jobs").handler(this::submit);
    router.delete("/api/pools/:pool/jobs/:job").handler(this::cancel);
    router.post("/api/pools/:pool/rebalance").handler(this::rebalance);
  }

  private PoolHandle pool(RoutingContext ctx) {
    return HttpErrors.pool(pools, ctx);
  }

  /**
   * Every pool's snapshot, by name. A pool that left while it was asked is not listed; one that
   * does not answer in time, or not with a snapshot, is listed as {@code {"name", "unreachable":
   * <why>}}.
   */
  private void list(RoutingContext ctx) {
    List<PoolHandle> all = pools.pools();
    List<Future<JsonObject>> snapshots = new ArrayList<>();
    all.forEach(p -> snapshots.add(p.status()));
    Future.join(snapshots).onComplete(ar -> {
      JsonArray array = new JsonArray();
      for (int i = 0; i < all.size(); i++) {
        Future<JsonObject> snapshot = snapshots.get(i);
        if (snapshot.succeeded()) {
          array.add(snapshot.result());
        } else if (gone(snapshot.cause()) && all.get(i).awaitsLeader()) {
          array.add(new JsonObject().put("name", all.get(i).name())
              .put("unreachable", "no node leads it now (highly available: a failover under way,"
                  + " or too few members for a majority)"));
        } else if (!gone(snapshot.cause())) {
          array.add(new JsonObject().put("name", all.get(i).name())
              .put("unreachable", HttpErrors.why(snapshot.cause())));
        }
      }
      HttpErrors.json(ctx, 200, new JsonObject().put("pools", array));
    });
  }

  private void one(RoutingContext ctx) {
    PoolHandle pool = pool(ctx);
    if (pool != null) {
      pool.status().onSuccess(s -> HttpErrors.json(ctx, 200, s))
          .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
    }
  }

  /** Whether a bus failure says the pool is no longer there. */
  private static boolean gone(Throwable failure) {
    return failure instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS;
  }

  private void submit(RoutingContext ctx) {
    PoolHandle pool = pool(ctx);
    if (pool == null) {
      return;
    }
    String wait = ctx.request().getParam("wait", "true");
    if (!wait.equals("true") && !wait.equals("false")) {
      HttpErrors.badRequest(ctx, "wait: must be true or false (was \"" + clip(wait) + "\")");
      return;
    }
    Requests.Submit request;
    try {
      // Read as bytes: the payload stays the RawJson it arrived as, and its length is what it
      // counts against the pool's byte budget while queued.
      request = RequestDecoder.submit(ctx.body().buffer(), pool.maxPayloadDepth());
    } catch (BadRequest e) {
      HttpErrors.badRequest(ctx, e.getMessage());
      return;
    }
    // The request stays open until the job's outcome; without this its body buffer (up to twice
    // the body's size as it grew) would be held beside the payload's own copy all that time.
    if (ctx instanceof RoutingContextInternal internal) {
      internal.setBody(null);
    }
    if (request.replyTo() != null) {
      HttpErrors.badRequest(ctx, "replyTo: is for event-bus submitters; use ?wait=false");
      return;
    }
    pool.submit(request, wait.equals("false"), outcome -> answer(ctx, outcome),
        failure -> HttpErrors.poolFailure(ctx, pool, failure));
  }

  static void answer(RoutingContext ctx, Outcome outcome) {
    int status;
    if (outcome instanceof Outcome.Rejected rejected) {
      // A full group (F1 in docs/rules.md) is a full backlog for that group: try again later.
      status = rejected.reason() == RejectionReason.BACKLOG_FULL
          || rejected.reason() == RejectionReason.GROUP_FULL ? 429 : 409;
      if (status == 429) {
        ctx.response().putHeader("Retry-After", "1");
      }
    } else if (outcome instanceof Outcome.Interrupted) {
      status = 503;
    } else {
      status = 200;
    }
    Buffer body;
    try {
      body = OutcomeJson.toBuffer(outcome);
    } catch (RuntimeException | StackOverflowError e) {
      body = OutcomeJson.toBuffer(ResultCheck.unsendable(outcome, e));
    }
    if (ctx.response().ended() || ctx.response().closed()) {
      return;
    }
    ctx.response().setStatusCode(status)
        .putHeader("Content-Type", "application/json; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        .end(body);
  }

  private void cancel(RoutingContext ctx) {
    PoolHandle pool = pool(ctx);
    if (pool == null) {
      return;
    }
    String job = ctx.pathParam("job");
    if (job == null || job.isEmpty() || job.length() > 256) {
      HttpErrors.badRequest(ctx, "job: must be 1 to 256 characters");
      return;
    }
    pool.cancel(job).onSuccess(cancelled -> HttpErrors.json(ctx, 200,
            new JsonObject().put("job", job).put("cancelled", cancelled)))
        .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
  }

  private void rebalance(RoutingContext ctx) {
    PoolHandle pool = pool(ctx);
    if (pool == null) {
      return;
    }
    Requests.Rebalance request;
    try {
      request = RequestDecoder.rebalance(ctx.body().buffer());
    } catch (BadRequest e) {
      HttpErrors.badRequest(ctx, e.getMessage());
      return;
    }
    pool.rebalance(request.key(), request.worker())
        .onSuccess(v -> HttpErrors.json(ctx, 200,
            new JsonObject().put("key", request.key()).put("worker", request.worker())))
        .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
  }

  private static String clip(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "…" : text;
  }
}
