package dev.shepherd.app;

import dev.shepherd.runtime.MemoryBudget;
import dev.shepherd.runtime.PoolVerticle;
import dev.shepherd.web.WebServer;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The application: one {@link PoolVerticle} per configured pool (children, so on shutdown they
 * drain first) and, unless {@code http.enabled} is false, the HTTP server (owned here, so it keeps
 * answering until every pool has answered every waiting caller).
 */
public final class ShepherdVerticle extends VerticleBase {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ShepherdVerticle.class);
  private WebServer web;

  @Override
  public Future<?> start() {
    AppConfig config;
    try {
      config = AppConfig.parse(Launch.effectiveConfig(config()));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    MemoryBudget.warnings(config.pools(), config.http().maxBodyBytes(),
        Runtime.getRuntime().maxMemory()).forEach(LOG::warn);
    List<Future<String>> pools = new ArrayList<>();
    for (JsonObject pool : config.poolJson()) {
      pools.add(vertx.deployVerticle(new PoolVerticle(), new DeploymentOptions().setConfig(pool)));
    }
    web = config.http().enabled() ? new WebServer(vertx, config.http()) : null;
    return Future.all(pools).compose(v -> web == null ? Future.succeededFuture() : web.start());
  }

  /** Runs after the pools (children) have drained: closes sockets and drops the pools' meters. */
  @Override
  public Future<?> stop() {
    return web == null ? Future.succeededFuture() : web.close();
  }

  /** The HTTP port actually bound (for tests that ask for port 0); -1 without a server. */
  public int httpPort() {
    return web == null ? -1 : web.port();
  }
}
