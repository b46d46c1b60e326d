package dev.shepherd.web;

import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.access.PoolDirectory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server (section 7 in docs/rules.md): the live view's static files from {@code webroot/}
 * on the classpath, the pools' API, the live view's WebSocket ({@code /api/pools/<name>/events}),
 * the SockJS event-bus bridge ({@code /eventbus}), {@code /metrics}, {@code /health} and {@code
 * /ready} (each also for {@code HEAD}: the same status and headers, no body, T3 in
 * docs/rules.md), for every pool of its {@link PoolDirectory} (in a cluster, every pool of the
 * cluster). Binds loopback unless configured otherwise and answers only to its own {@code Host}
 * names; pages of other origins may not change pools or open its sockets; state-changing requests
 * need the bearer token when one is configured; request bodies over {@code maxBodyBytes} are
 * refused with 413; connections that hold a socket without sending requests are closed. HTTP/1.1
 * only. Every error has the JSON body {@code {"error", "message"}}.
 */
public final class WebServer {
  private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);

  private final Vertx vertx;
  private final HttpConfig config;
  private final PoolDirectory pools;
  private final BearerToken token;
  private final AllowedHosts hosts;
  private final SameOrigin sameOrigin;
  private final LiveEvents live;
  private final MetricsEndpoint metrics;
  private final HealthEndpoints health;
  private final ConnectionDeadlines deadlines;
  private HttpServer server;
  private Router router;

  /** A server for the pools of {@code vertx}. */
  public WebServer(Vertx vertx, HttpConfig config) {
    this(vertx, config, PoolDirectory.local(vertx));
  }

  /** A server for the pools of {@code pools} (in a cluster: every pool of the cluster). */
  public WebServer(Vertx vertx, HttpConfig config, PoolDirectory pools) {
    this.vertx = vertx;
    this.config = config;
    this.pools = pools;
    this.token = new BearerToken(config.token());
    this.hosts = AllowedHosts.of(config.host(), config.allowedHosts());
    this.sameOrigin = new SameOrigin(hosts, this::servingPort);
    this.live = new LiveEvents(vertx, pools, sameOrigin, config.idleTimeoutMs());
    this.metrics = new MetricsEndpoint(vertx, pools);
    this.health = new HealthEndpoints(vertx, pools);
    this.deadlines = new ConnectionDeadlines(vertx, config.headerTimeoutMs(),
        config.idleTimeoutMs());
  }

  public Future<HttpServer> start() {
    router = Router.router(vertx);
    router.route().handler(WebServer::securityHeaders);
    BodyReader bodies = new BodyReader(config.maxBodyBytes());
    // The WebSocket route comes before the body reader, which must not read upgrade requests.
    // HEAD wherever GET (T3 in docs/rules.md): the same status and headers, no body.
    router.get("/api/pools/:pool/events").handler(live::handle);
    router.head("/api/pools/:pool/events").handler(live::handle);
    if (config.bridge().enabled()) {
      router.route("/eventbus/*").handler(sameOrigin::guard);
      router.post("/eventbus/*").handler(bodies::handle); // SockJS xhr_send, within the limit
      router.route("/eventbus/*").subRouter(new EventBusBridge(vertx, pools, config.bridge(), token)
          .router());
    }
    router.route("/api/*").handler(bodies::handle);
    router.route("/api/*").handler(this::authorize);
    new PoolApi(pools).mount(router);
    new ReviveRoute(pools).mount(router);
    new FlowRoutes(pools).mount(router);
    new SizeRoute(pools).mount(router);
    new JobLookupRoute(pools).mount(router);
    new DeadLetterRoutes(pools).mount(router);
    router.get("/metrics").handler(metrics::handle);
    router.head("/metrics").handler(metrics::handle);
    router.get("/health").handler(health::health);
    router.head("/health").handler(health::health);
    router.get("/ready").handler(health::ready);
    router.head("/ready").handler(health::ready);
    // Vert.x's static handler answers HEAD without the Content-Type its GET has: served as a GET,
    // whose body the HTTP server does not send for a HEAD request.
    router.head("/*").handler(ctx -> ctx.reroute(HttpMethod.GET, ctx.request().uri()));
    router.route("/*").handler(StaticHandler.create("webroot").setCachingEnabled(false)
        .setDefaultContentEncoding("UTF-8"));
    router.route().last().handler(ctx ->
        HttpErrors.send(ctx, 404, "NOT_FOUND", "no route for " + ctx.request().path()));
    router.route().failureHandler(this::failure);
    RequestGate gate = new RequestGate(hosts, this::servingPort, deadlines, router);
    // No cleartext HTTP/2: browsers never use it, and the deadlines count one request at a time.
    server = vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false))
        .connectionHandler(deadlines::opened)
        .invalidRequestHandler(gate::invalid)
        .exceptionHandler(e -> LOG.debug("HTTP connection: {}", LogText.quote(e.toString())))
        .requestHandler(gate);
    return metrics.sync()
        .compose(v -> server.listen(config.port(), config.host()))
        .recover(e -> Future.failedFuture(listenFailure(e, config.host(), config.port())))
        .onSuccess(s -> LOG.info("Shepherd is serving http://{}:{}/", config.host(),
            s.actualPort()));
  }

  /**
   * What a failed listen says to the person starting the node: the address and port, and what to
   * change, in one line (the socket's own exception names neither). Other failures pass as they
   * are.
   */
  static Throwable listenFailure(Throwable failure, String host, int port) {
    if (!(failure instanceof java.net.BindException bind)) {
      return failure;
    }
    String where = "http: " + host + ":" + port;
    String message = String.valueOf(bind.getMessage());
    String says = message.toLowerCase(java.util.Locale.ROOT).contains("in use")
        ? where + " is already in use (set http.port, or 0 for a free one)"
        : where + " cannot be bound: " + message + " (set http.host to an address of this"
            + " machine, and http.port to a port it may open, or 0 for a free one)";
    return VertxException.noStackTrace(says, bind);
  }

  /** The routes, once started: what a test checks serves {@code HEAD} wherever {@code GET}. */
  List<Route> routes() {
    return router == null ? List.of() : router.getRoutes();
  }

  public int port() {
    return server == null || server.actualPort() == 0 ? -1 : server.actualPort();
  }

  /** The port requests arrive on: the configured one, or the one picked for port 0. */
  private int servingPort() {
    return config.port() != 0 || server == null ? config.port() : server.actualPort();
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
   * State-changing requests come from a page of this server (or from no browser at all), and
   * carry the bearer token when one is configured.
   */
  private void authorize(RoutingContext ctx) {
    HttpMethod method = ctx.request().method();
    if (method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS) {
      ctx.next();
      return;
    }
    String refused = sameOrigin.refusal(ctx.request());
    if (refused != null) {
      HttpErrors.send(ctx, 403, "FORBIDDEN",
          refused + ": pages from another origin may not change a pool");
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
    String path = ctx.request().path();
    if (status == 413) {
      HttpErrors.send(ctx, 413, "PAYLOAD_TOO_LARGE",
          "request bodies are limited to " + config.maxBodyBytes() + " bytes");
    } else if (status == 404) {
      HttpErrors.send(ctx, 404, "NOT_FOUND", "no route for " + path);
    } else if (status == 405) {
      HttpErrors.send(ctx, 405, "METHOD_NOT_ALLOWED",
          ctx.request().method() + " is not allowed on " + path);
    } else if (status >= 400 && status < 500) {
      LOG.debug("HTTP {} {} refused with {}: {}", ctx.request().method(), LogText.quote(path),
          status, LogText.quote(String.valueOf(ctx.failure())));
      HttpErrors.send(ctx, status, status == 400 ? "BAD_REQUEST" : "REFUSED",
          "request: refused (HTTP " + status + ")");
    } else {
      LOG.error("HTTP {} {} failed", ctx.request().method(), LogText.quote(path),
          ctx.failure());
      HttpErrors.send(ctx, 500, "INTERNAL_ERROR", "the server failed to answer this request");
    }
  }
}
