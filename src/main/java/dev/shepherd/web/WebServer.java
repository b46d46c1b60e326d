package dev.shepherd.web;

import dev.shepherd.app.HttpConfig;
import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.PoolState;
import dev.shepherd.runtime.Coordinator;
import dev.shepherd.runtime.LocalPools;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server: the pools' API, health, and the live view's static files from {@code
 * webroot/} on the classpath. Binds loopback unless configured otherwise.
 */
public final class WebServer {
  private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);

  private final Vertx vertx;
  private final HttpConfig config;
  private HttpServer server;

  public WebServer(Vertx vertx, HttpConfig config) {
    this.vertx = vertx;
    this.config = config;
  }

  public Future<HttpServer> start() {
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create(false).setBodyLimit(config.maxBodyBytes()));
    router.route("/api/*").handler(this::authorize);
    new PoolApi(vertx).mount(router);
    router.get("/health").handler(this::health);
    router.route("/*").handler(StaticHandler.create("webroot").setCachingEnabled(false));
    router.route().last().handler(ctx ->
        HttpErrors.send(ctx, 404, "NOT_FOUND", "no route for " + ctx.request().path()));
    router.route().failureHandler(this::failure);
    return vertx.createHttpServer()
        .requestHandler(router)
        .listen(config.port(), config.host())
        .onSuccess(s -> {
          server = s;
          LOG.info("Shepherd is serving http://{}:{}/", config.host(), s.actualPort());
        });
  }

  public int port() {
    return server == null ? -1 : server.actualPort();
  }

  public Future<Void> close() {
    return server == null ? Future.succeededFuture() : server.close();
  }

  /** State-changing requests need the bearer token when one is configured. */
  private void authorize(RoutingContext ctx) {
    HttpMethod method = ctx.request().method();
    if (config.token() == null || method == HttpMethod.GET || method == HttpMethod.HEAD
        || method == HttpMethod.OPTIONS) {
      ctx.next();
      return;
    }
    String header = ctx.request().getHeader("Authorization");
    String expected = "Bearer " + config.token();
    if (header == null || !MessageDigest.isEqual(header.getBytes(StandardCharsets.UTF_8),
        expected.getBytes(StandardCharsets.UTF_8))) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer");
      HttpErrors.send(ctx, 401, "UNAUTHORIZED",
          "this request needs the header Authorization: Bearer <token>");
      return;
    }
    ctx.next();
  }

  private void health(RoutingContext ctx) {
    List<Future<PoolSnapshot>> snapshots = new ArrayList<>();
    for (Coordinator pool : LocalPools.all(vertx)) {
      snapshots.add(pool.snapshotLocal());
    }
    Future.all(snapshots).onComplete(ar -> {
      boolean up = true;
      JsonArray pools = new JsonArray();
      for (Future<PoolSnapshot> f : snapshots) {
        PoolSnapshot s = f.result();
        boolean live = s.state() == PoolState.RUNNING
            && s.slots().stream().anyMatch(slot -> slot.phase() != Phase.RETIRED);
        up &= live;
        pools.add(new JsonObject().put("name", s.name()).put("state", s.state().name())
            .put("status", live ? "UP" : "DOWN"));
      }
      HttpErrors.json(ctx, up ? 200 : 503,
          new JsonObject().put("status", up ? "UP" : "DOWN").put("pools", pools));
    });
  }

  private void failure(RoutingContext ctx) {
    int status = ctx.statusCode();
    if (status == 413) {
      HttpErrors.send(ctx, 413, "PAYLOAD_TOO_LARGE",
          "request bodies are limited to " + config.maxBodyBytes() + " bytes");
    } else if (status == 400) {
      HttpErrors.badRequest(ctx, "body: unreadable request");
    } else if (status == 404) {
      HttpErrors.send(ctx, 404, "NOT_FOUND", "no route for " + ctx.request().path());
    } else if (status == 405) {
      HttpErrors.send(ctx, 405, "METHOD_NOT_ALLOWED",
          ctx.request().method() + " is not allowed on " + ctx.request().path());
    } else {
      LOG.error("HTTP {} {} failed", ctx.request().method(), ctx.request().path(), ctx.failure());
      HttpErrors.send(ctx, 500, "INTERNAL_ERROR", "the server failed to answer this request");
    }
  }
}
