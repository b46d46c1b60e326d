package dev.shepherd.web;

import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.runtime.BadRequest;
import dev.shepherd.runtime.Coordinator;
import dev.shepherd.runtime.LocalPools;
import dev.shepherd.runtime.OutcomeJson;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.RequestDecoder;
import dev.shepherd.runtime.Requests;
import dev.shepherd.runtime.ResultCheck;
import dev.shepherd.runtime.SnapshotJson;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.impl.RoutingContextInternal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The pools' HTTP API (section 7): submit (waiting for the outcome, or {@code ?wait=false} for the
 * admission), cancel, rebalance, and the status snapshots. The body is authoritative; the status
 * code is a convenience.
 */
final class PoolApi {
  private final Vertx vertx;

  PoolApi(Vertx vertx) {
    this.vertx = vertx;
  }

  void mount(Router router) {
    router.get("/api/pools").handler(this::list);
    router.get("/api/pools/:pool").handler(this::one);
    router.post("/api/pools/:pool/jobs").handler(this::submit);
    router.delete("/api/pools/:pool/jobs/:job").handler(this::cancel);
    router.post("/api/pools/:pool/rebalance").handler(this::rebalance);
  }

  private Coordinator pool(RoutingContext ctx) {
    String name = ctx.pathParam("pool");
    Coordinator coordinator = LocalPools.find(vertx, name);
    if (coordinator == null) {
      HttpErrors.unknownPool(ctx, name);
    }
    return coordinator;
  }

  private void list(RoutingContext ctx) {
    List<Coordinator> pools = new ArrayList<>(LocalPools.all(vertx));
    pools.sort(Comparator.comparing(Coordinator::name));
    List<Future<JsonObject>> snapshots = new ArrayList<>();
    pools.forEach(p -> snapshots.add(p.snapshotLocal().map(SnapshotJson::encode)));
    Future.all(snapshots).onComplete(ar -> {
      if (ar.failed()) {
        ctx.fail(ar.cause());
        return;
      }
      JsonArray array = new JsonArray();
      snapshots.forEach(f -> array.add(f.result()));
      HttpErrors.json(ctx, 200, new JsonObject().put("pools", array));
    });
  }

  private void one(RoutingContext ctx) {
    Coordinator pool = pool(ctx);
    if (pool != null) {
      pool.snapshotLocal().onSuccess(s -> HttpErrors.json(ctx, 200, SnapshotJson.encode(s)))
          .onFailure(ctx::fail);
    }
  }

  private void submit(RoutingContext ctx) {
    Coordinator pool = pool(ctx);
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
      request = RequestDecoder.submit(ctx.body().buffer(), pool.config().maxPayloadDepth());
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
    Promise<Outcome> promise = ((ContextInternal) vertx.getOrCreateContext()).promise();
    pool.submitLocal(request, promise, wait.equals("false"));
    promise.future().onSuccess(outcome -> answer(ctx, outcome));
  }

  static void answer(RoutingContext ctx, Outcome outcome) {
    int status;
    if (outcome instanceof Outcome.Rejected rejected) {
      status = rejected.reason() == RejectionReason.BACKLOG_FULL ? 429 : 409;
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
    Coordinator pool = pool(ctx);
    if (pool == null) {
      return;
    }
    String job = ctx.pathParam("job");
    if (job == null || job.isEmpty() || job.length() > 256) {
      HttpErrors.badRequest(ctx, "job: must be 1 to 256 characters");
      return;
    }
    pool.cancelLocal(job).onSuccess(cancelled -> HttpErrors.json(ctx, 200,
        new JsonObject().put("job", job).put("cancelled", cancelled))).onFailure(ctx::fail);
  }

  private void rebalance(RoutingContext ctx) {
    Coordinator pool = pool(ctx);
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
    pool.rebalanceLocal(request.key(), request.worker()).onComplete(ar -> {
      if (ar.succeeded()) {
        HttpErrors.json(ctx, 200,
            new JsonObject().put("key", request.key()).put("worker", request.worker()));
      } else if (ar.cause() instanceof PoolErrorException e) {
        HttpErrors.send(ctx, 409, e.name(), e.getMessage());
      } else {
        ctx.fail(ar.cause());
      }
    });
  }

  private static String clip(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "…" : text;
  }
}
