package dev.shepherd.app;

import dev.shepherd.cluster.HostAgent;
import dev.shepherd.cluster.HostConfig;
import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.MemoryBudget;
import dev.shepherd.runtime.PoolVerticle;
import dev.shepherd.web.WebServer;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application on one node: one {@link PoolVerticle} per configured pool and one {@link
 * HostAgent} per worker host (children, so on shutdown pools drain and hosts leave first), and
 * the HTTP server unless {@code http.enabled} is false (owned here, so it keeps answering until
 * every pool has answered every waiting caller). Logs one line when all of it is up.
 */
public final class ShepherdVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(ShepherdVerticle.class);
  private final Handler<ConfigException> onHostRefused;
  private WebServer web;

  /** An application whose refused worker hosts only log it (embedding, tests). */
  public ShepherdVerticle() {
    this(e -> { });
  }

  /** {@code onHostRefused} hears when a pool refuses a host's id (H1: the launcher exits). */
  public ShepherdVerticle(Handler<ConfigException> onHostRefused) {
    this.onHostRefused = onHostRefused;
  }

  @Override
  public Future<?> start() {
    AppConfig config;
    try {
      config = AppConfig.parse(Launch.effectiveConfig(config()), vertx.isClustered());
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    MemoryBudget.warnings(config.pools(), config.http().maxBodyBytes(),
        Runtime.getRuntime().maxMemory()).forEach(LOG::warn);
    List<Future<String>> parts = new ArrayList<>();
    for (JsonObject pool : config.poolJson()) {
      parts.add(vertx.deployVerticle(new PoolVerticle(), new DeploymentOptions().setConfig(pool)));
    }
    for (HostConfig host : config.hosts()) {
      parts.add(vertx.deployVerticle(new HostAgent(host, onHostRefused)));
    }
    web = config.http().enabled() ? new WebServer(vertx, config.http()) : null;
    return Future.all(parts).compose(v -> web == null ? Future.succeededFuture() : web.start())
        .onSuccess(v -> LOG.info("Shepherd node ready: pools {}, hosts {}, http {}",
            config.pools().stream().map(p -> p.name()).toList(),
            config.hosts().stream().map(h -> h.id() + "@" + h.pool()).toList(),
            web == null ? "off" : config.http().host() + ":" + web.port()));
  }

  /** Runs after the pools (children) have drained: closes sockets and drops the pools' meters. */
  @Override
  public Future<?> stop() {
    return web == null ? Future.succeededFuture() : web.close();
  }

  /** The HTTP port actually bound (for tests that ask for port 0); -1 without HTTP. */
  public int httpPort() {
    return web == null ? -1 : web.port();
  }
}
