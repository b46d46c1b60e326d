package dev.shepherd.web;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** Errors that are not outcomes: {@code {"error": NAME, "message": …}} with their status. */
final class HttpErrors {
  private HttpErrors() {}

  static void send(RoutingContext ctx, int status, String name, String message) {
    if (ctx.response().ended() || ctx.response().closed()) {
      return;
    }
    json(ctx, status, new JsonObject().put("error", name).put("message", message));
  }

  static void badRequest(RoutingContext ctx, String message) {
    send(ctx, 400, "BAD_REQUEST", message);
  }

  static void unknownPool(RoutingContext ctx, String pool) {
    send(ctx, 404, "UNKNOWN_POOL", "no pool named '" + pool + "'");
  }

  static void json(RoutingContext ctx, int status, JsonObject body) {
    if (ctx.response().ended() || ctx.response().closed()) {
      return;
    }
    ctx.response().setStatusCode(status)
        .putHeader("Content-Type", "application/json; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        .end(body.encode());
  }
}
