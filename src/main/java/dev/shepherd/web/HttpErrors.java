package dev.shepherd.web;

import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.access.PoolHandle;
import io.vertx.core.Future;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Errors that are not outcomes: {@code {"error": NAME, "message": …}} with their status. Every
 * HTTP error the server gives has this body, including those given before routing (a foreign
 * {@code Host}, a malformed URI, a request the HTTP decoder could not read).
 */
final class HttpErrors {
  private static final Logger LOG = LoggerFactory.getLogger(HttpErrors.class);

  private HttpErrors() {}

  static void send(RoutingContext ctx, int status, String name, String message) {
    send(ctx.response(), status, name, message);
  }

  static void badRequest(RoutingContext ctx, String message) {
    send(ctx, 400, "BAD_REQUEST", message);
  }

  static void unknownPool(RoutingContext ctx, String pool) {
    send(ctx, 404, "UNKNOWN_POOL", "no pool named '" + pool + "'");
  }

  /**
   * The pool the request's {@code :pool} names, or null once it has answered {@code 404
   * UNKNOWN_POOL}: what every route about one pool starts with.
   */
  static PoolHandle pool(PoolDirectory pools, RoutingContext ctx) {
    String name = ctx.pathParam("pool");
    PoolHandle pool = pools.find(name);
    if (pool == null) {
      unknownPool(ctx, name);
    }
    return pool;
  }

  /**
   * A call to a pool that did not give an answer: its refusal of bad input (400) or of the
   * request (by the error's name: 409, or 404 {@code UNKNOWN_JOB}, or 429 {@code
   * TOO_MANY_WAITERS} with {@code Retry-After}), or, for a pool reached over the bus, that it has gone
   * (404 {@code UNKNOWN_POOL}), did not answer in time (504 {@code POOL_TIMEOUT}) or could not
   * be reached (502 {@code POOL_UNREACHABLE}). A highly available pool that no node leads now
   * (a failover under way: nobody consumes its address, or the node that led it left the cluster
   * while it was asked) is 503 {@code NO_LEADER} with {@code Retry-After}. Anything else is a
   * failure of this server. No message shows an event-bus address ({@link #why}).
   */
  static void poolFailure(RoutingContext ctx, PoolHandle pool, Throwable failure) {
    if (failure instanceof BadRequest) {
      badRequest(ctx, failure.getMessage());
    } else if (failure instanceof PoolErrorException e) {
      if (e.code() == 429) {
        ctx.response().putHeader("Retry-After", "1");
      }
      send(ctx, e.code(), e.name(), e.getMessage());
    } else if (failure instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS
        && pool.awaitsLeader()) {
      ctx.response().putHeader("Retry-After", "1");
      send(ctx, 503, "NO_LEADER", "no node leads highly available pool '" + pool.name()
          + "' now (a failover under way, or too few cluster members for a majority); try again");
    } else if (failure instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS) {
      send(ctx, 404, "UNKNOWN_POOL", "no pool named '" + pool.name() + "' answers any more");
    } else if (failure instanceof ReplyException e && e.failureType() == ReplyFailure.TIMEOUT) {
      send(ctx, 504, "POOL_TIMEOUT", "pool '" + pool.name() + "' did not answer in time");
    } else if (!pool.local()) {
      LOG.debug("pool {} over the bus: {}", LogText.quote(pool.name()),
          LogText.quote(String.valueOf(failure)));
      send(ctx, 502, "POOL_UNREACHABLE", "pool '" + pool.name() + "' could not be reached: "
          + why(failure));
    } else {
      ctx.fail(failure);
    }
  }

  /**
   * What went wrong in a call to a pool, in words for the caller: the bus's own timeouts and
   * missing handlers name the event bus's internal addresses (a reply address, the pool's), which
   * mean nothing to a caller of the HTTP API and are not its to see.
   */
  static String why(Throwable failure) {
    if (failure instanceof ReplyException e && e.failureType() == ReplyFailure.TIMEOUT) {
      return "it did not answer in time";
    }
    if (failure instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS) {
      return "no node answers for it now";
    }
    return String.valueOf(failure.getMessage());
  }

  static void json(RoutingContext ctx, int status, JsonObject body) {
    json(ctx.response(), status, body);
  }

  static void send(HttpServerResponse response, int status, String name, String message) {
    json(response, status, new JsonObject().put("error", name).put("message", message));
  }

  /**
   * The error, then the connection closed: for requests whose body will not be read (it could be
   * large) or that the decoder could not frame, so nothing that follows can be trusted.
   */
  static void sendAndClose(HttpServerRequest request, int status, String name, String message) {
    HttpServerResponse response = request.response();
    if (response.ended() || response.closed()) {
      request.connection().close();
      return;
    }
    response.putHeader("Connection", "close");
    json(response, status, new JsonObject().put("error", name).put("message", message))
        .onComplete(ar -> request.connection().close());
  }

  /**
   * Writes {@code body}; one that cannot be encoded (nested beyond the JSON encoder's limit) is
   * answered 500 {@code ENCODING_FAILED} instead, so the caller is never left waiting.
   */
  private static Future<Void> json(HttpServerResponse response, int status, JsonObject body) {
    if (response.ended() || response.closed()) {
      return Future.succeededFuture();
    }
    String text;
    try {
      text = body.encode();
    } catch (RuntimeException e) {
      LOG.warn("an HTTP answer could not be encoded as JSON: {}", LogText.quote(e.toString()));
      status = 500;
      text = new JsonObject().put("error", "ENCODING_FAILED")
          .put("message", "the answer could not be encoded as JSON").encode();
    }
    return response.setStatusCode(status)
        .putHeader("Content-Type", "application/json; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        .end(text);
  }
}
