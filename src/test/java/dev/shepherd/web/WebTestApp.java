package dev.shepherd.web;

import dev.shepherd.app.ShepherdVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The whole application ({@link ShepherdVerticle}: pools and web server) on its own Vert.x
 * instance with Micrometer metrics in a registry of its own, bound to 127.0.0.1 on a free port
 * unless the configuration says otherwise. {@link #restart()} stops everything and starts it
 * again on the same port, as a server restart would.
 */
final class WebTestApp implements AutoCloseable {
  private final JsonObject config;
  private final boolean metrics;
  /** The time the application runs on; null for the system's. */
  private final dev.shepherd.runtime.FakeTime time;
  private Vertx vertx;
  private int port;

  private WebTestApp(JsonObject config, boolean metrics, dev.shepherd.runtime.FakeTime time) {
    this.config = config;
    this.metrics = metrics;
    this.time = time;
  }

  static WebTestApp start(JsonObject config) {
    return start(config, true);
  }

  /** The same on a Vert.x instance without metrics. */
  static WebTestApp startWithoutMetrics(JsonObject config) {
    return start(config, false);
  }

  /**
   * The same on {@code time}: the pools' clocks and timers (dispatch holds, rate limits, job
   * timeouts) stand still until the test advances it; the HTTP server and the workers run as
   * usual.
   */
  static WebTestApp startWithTime(JsonObject config, dev.shepherd.runtime.FakeTime time) {
    WebTestApp app = new WebTestApp(config.copy(), true, time);
    app.boot(config.getJsonObject("http", new JsonObject()).getInteger("port", 0));
    return app;
  }

  private static WebTestApp start(JsonObject config, boolean metrics) {
    WebTestApp app = new WebTestApp(config.copy(), metrics, null);
    app.boot(config.getJsonObject("http", new JsonObject()).getInteger("port", 0));
    return app;
  }

  /** A DemoWorker pool entry: {@code instances} slots, WORKER threading, FAIL on interruption. */
  static JsonObject demoPool(String name, int instances) {
    return new JsonObject().put("name", name)
        .put("worker", new JsonObject().put("class", "dev.shepherd.demo.DemoWorker")
            .put("instances", instances).put("threading", "WORKER"))
        .put("interruption", "FAIL")
        .put("jobTimeoutMs", 20_000)
        .put("drainTimeoutMs", 500)
        .put("supervision", new JsonObject().put("maxRestarts", 20)
            .put("restartWindowMs", 60_000));
  }

  static JsonObject config(JsonObject http, JsonObject... pools) {
    JsonObject h = http == null ? new JsonObject() : http.copy();
    h.put("host", h.getString("host", "127.0.0.1")).put("port", h.getInteger("port", 0));
    return new JsonObject().put("http", h).put("pools", new JsonArray(java.util.List.of(pools)));
  }

  private void boot(int wantedPort) {
    JsonObject conf = config.copy();
    conf.getJsonObject("http").put("port", wantedPort);
    VertxOptions options = new VertxOptions();
    if (metrics) {
      options.setMetricsOptions(Metrics.vertxMetricsOptions("test-" + UUID.randomUUID()));
    }
    vertx = Vertx.builder().with(options).build();
    if (time != null) {
      time.installOn(vertx);
    }
    ShepherdVerticle app = new ShepherdVerticle();
    try {
      vertx.deployVerticle(app, new DeploymentOptions().setConfig(conf))
          .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    } catch (Exception e) {
      vertx.close();
      throw new IllegalStateException("the application did not start", e);
    }
    port = app.httpPort();
  }

  Vertx vertx() {
    return vertx;
  }

  int port() {
    return port;
  }

  String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  /** Stops the application (as a crash or a restart would) and starts it on the same port. */
  void restart() {
    int samePort = port;
    stop();
    boot(samePort);
  }

  void stop() {
    if (vertx != null) {
      try {
        vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException("Vert.x did not close", e);
      } finally {
        vertx = null;
      }
    }
  }

  @Override
  public void close() {
    stop();
  }
}
