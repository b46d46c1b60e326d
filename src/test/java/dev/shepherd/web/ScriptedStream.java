package dev.shepherd.web;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A stand-in for the live view's server on 127.0.0.1: the page's own files, {@code GET
 * /api/pools} naming one pool, and that pool's event stream sending the frames a test scripts
 * (those for a new connection, then any it sends later), plus any routes a test adds. Browser
 * tests use it to show the page frames before the real server sends them: hosts, LOST slots,
 * history, and the dead-letter routes' answers.
 */
final class ScriptedStream implements AutoCloseable {
  private final Vertx vertx = Vertx.vertx();
  private final Set<ServerWebSocket> sockets = ConcurrentHashMap.newKeySet();
  private final String pool;
  private final List<JsonObject> onConnect;
  private final HttpServer server;

  private ScriptedStream(String pool, List<JsonObject> onConnect, Consumer<Router> routes)
      throws Exception {
    this.pool = pool;
    this.onConnect = List.copyOf(onConnect);
    Router router = Router.router(vertx);
    routes.accept(router);
    router.get("/api/pools").handler(ctx -> ctx.json(new JsonObject().put("pools",
        new JsonArray().add(new JsonObject().put("name", pool)))));
    router.get("/api/pools/" + pool + "/events").handler(ctx ->
        ctx.request().toWebSocket().onSuccess(this::stream));
    router.route("/*").handler(StaticHandler.create("webroot").setCachingEnabled(false));
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** Serves `pool`, whose stream sends `onConnect` to each new connection. */
  static ScriptedStream start(String pool, List<JsonObject> onConnect) throws Exception {
    return new ScriptedStream(pool, onConnect, router -> { });
  }

  /** The same, with the routes {@code routes} adds first (they take precedence). */
  static ScriptedStream start(String pool, List<JsonObject> onConnect, Consumer<Router> routes)
      throws Exception {
    return new ScriptedStream(pool, onConnect, routes);
  }

  private void stream(ServerWebSocket ws) {
    sockets.add(ws);
    ws.closeHandler(v -> sockets.remove(ws));
    onConnect.forEach(frame -> ws.writeTextMessage(frame.encode()));
  }

  /** Sends a frame to every open connection; answers how many got it. */
  int send(JsonObject frame) {
    vertx.runOnContext(v -> sockets.forEach(ws -> ws.writeTextMessage(frame.encode())));
    return sockets.size();
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.actualPort() + path;
  }

  String pool() {
    return pool;
  }

  @Override
  public void close() {
    ClusteredWebNode.join(vertx.close(), 10);
  }
}
