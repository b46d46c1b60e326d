package dev.shepherd.web;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * Errors that are not outcomes: {@code {"error": NAME, "message": …}} with their status. Every
 * HTTP error the server gives has this body, including those given before routing (a foreign
 * {@code Host}, a malformed URI, a request the HTTP decoder could not read).
 */
final class HttpErrors {
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

  private static io.vertx.core.Future<Void> json(HttpServerResponse response, int status,
      JsonObject body) {
    if (response.ended() || response.closed()) {
      return io.vertx.core.Future.succeededFuture();
    }
    return response.setStatusCode(status)
        .putHeader("Content-Type", "application/json; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        .end(body.encode());
  }
}
