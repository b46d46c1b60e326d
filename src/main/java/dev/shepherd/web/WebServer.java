package dev.shepherd.web;

import dev.shepherd.app.HttpConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server (section 7): the live view's static files from {@code webroot/} on the
 * classpath, the pools' API, the live view's WebSocket ({@code /api/pools/<name>/events}), the
 * SockJS event-bus bridge ({@code /eventbus}), {@code /metrics}, {@code /health} and {@code
 * /ready}. Binds loopback unless configured otherwise; state-changing requests need the bearer
 * token when one is configured; request bodies over {@code maxBodyBytes} are refused with 413.
 */
public final class WebServer {
  private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);

  private final Vertx vertx;
  private final HttpConfig config;
  private final BearerToken token;
  private final LiveEvents live;
  private final MetricsEndpoint metrics;
  private final HealthEndpoints health;
  private HttpServer server;

  public WebServer(Vertx vertx, HttpConfig config) {
    this.vertx = vertx;
    this.config = config;
    this.token = new BearerToken(config.token());
    this.live = new LiveEvents(vertx);
    this.metrics = new MetricsEndpoint(vertx);
    this.health = new HealthEndpoints(vertx);
  }

  public Future<HttpServer> start() {
    Router router = Router.router(vertx);
    router.route().handler(WebServer::securityHeaders);
    // WebSocket and SockJS routes come before the body handler, which must not read their
    // upgrade requests and polling bodies.
    router.get("/api/pools/:pool/events").handler(live::handle);
    if (config.bridge().enabled()) {
      router.route("/eventbus/*").handler(SameOrigin::guard);
      router.route("/eventbus/*").subRouter(new EventBusBridge(vertx, config.bridge(), token)
          .router());
    }
    router.route("/api/*").handler(BodyHandler.create(false).setBodyLimit(config.maxBodyBytes()));
    router.route("/api/*").handler(this::authorize);
    new PoolApi(vertx).mount(router);
    router.get("/metrics").handler(metrics::handle);
    router.get("/health").handler(health::health);
    router.get("/ready").handler(health::ready);
    router.route("/*").handler(StaticHandler.create("webroot").setCachingEnabled(false)
        .setDefaultContentEncoding("UTF-8"));
    router.route().last().handler(ctx ->
        HttpErrors.send(ctx, 404, "NOT_FOUND", "no route for " + ctx.request().path()));
    router.route().failureHandler(this::failure);
    return metrics.sync()
        .compose(v -> vertx.createHttpServer()
            .requestHandler(router)
            .listen(config.port(), config.host()))
        .onSuccess(s -> {
          server = s;
          LOG.info("Shepherd is serving http://{}:{}/", config.host(), s.actualPort());
        });
  }

  public int port() {
    return server == null ? -1 : server.actualPort();
  }

  public Future<Void> close() {
    live.close();
    metrics.close();
    return server == null ? Future.succeededFuture() : server.close();
  }

  private static void securityHeaders(RoutingContext ctx) {
    ctx.response()
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "no-referrer");
    ctx.next();
  }

  /**
   * State-changing requests come from this origin (or from no browser at all), and carry the
   * bearer token when one is configured.
   */
  private void authorize(RoutingContext ctx) {
    HttpMethod method = ctx.request().method();
    if (method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS) {
      ctx.next();
      return;
    }
    if (!SameOrigin.allows(ctx)) {
      HttpErrors.send(ctx, 403, "FORBIDDEN",
          "Origin: pages from another origin may not change a pool");
      return;
    }
    if (!token.required()) {
      ctx.next();
      return;
    }
    if (!token.accepts(ctx.request().getHeader("Authorization"))) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer");
      HttpErrors.send(ctx, 401, "UNAUTHORIZED",
          "this request needs the header Authorization: Bearer <token>");
      return;
    }
    ctx.next();
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
