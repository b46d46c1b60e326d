package dev.shepherd.app;

import dev.shepherd.cluster.directory.ClusterPoolDirectory;
import dev.shepherd.cluster.hosts.HostAgent;
import dev.shepherd.cluster.hosts.HostConfig;
import dev.shepherd.cluster.setup.RegistrationGuard;
import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.payload.MemoryBudget;
import dev.shepherd.runtime.access.PoolDirectory;
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
 * every pool has answered every waiting caller). On a clustered Vert.x the server serves every
 * pool of the cluster ({@link ClusterPoolDirectory}, section 8.4 in docs/rules.md), otherwise the
 * pools of this node, and this node's consumers stay listed in the cluster ({@link
 * RegistrationGuard}). Logs one line when all of it is up.
 */
public final class ShepherdVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(ShepherdVerticle.class);
  private final Handler<ConfigException> onHostRefused;
  private WebServer web;
  private ClusterPoolDirectory directory;
  private RegistrationGuard guard;

  /** An application whose refused worker hosts only log it (embedding, tests). */
  public ShepherdVerticle() {
    this(e -> { });
  }

  /**
   * {@code onHostRefused} hears when a pool refuses a host's id (H1 in docs/rules.md: the launcher
   * exits).
   */
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
    if (vertx.isClustered()) {
      guard = RegistrationGuard.start(vertx);
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
    return Future.all(parts)
        .compose(v -> config.http().enabled() ? serve(config) : Future.succeededFuture())
        .onSuccess(v -> LOG.info("Shepherd node ready: pools {}, hosts {}, http {}",
            config.pools().stream().map(p -> p.name()).toList(),
            config.hosts().stream().map(h -> h.id() + "@" + h.pool()).toList(),
            web == null ? "off" : config.http().host() + ":" + web.port()));
  }

  /** Starts the HTTP server, on the directory of the cluster when there is one. */
  private Future<?> serve(AppConfig config) {
    Future<PoolDirectory> pools = !vertx.isClustered()
        ? Future.succeededFuture(PoolDirectory.local(vertx))
        : ClusterPoolDirectory.start(vertx, config.http().leaderWaitMs()).map(started -> {
          directory = started;
          return started;
        });
    return pools.compose(p -> {
      web = new WebServer(vertx, config.http(), p);
      return web.start();
    });
  }

  /** Runs after the pools (children) have drained: closes sockets and drops the pools' meters. */
  @Override
  public Future<?> stop() {
    Future<Void> closed = web == null ? Future.succeededFuture() : web.close();
    if (guard != null) {
      closed = closed.eventually(() -> {
        guard.close();
        return Future.succeededFuture();
      });
    }
    return directory == null ? closed : closed.eventually(() -> directory.close());
  }

  /** The HTTP port actually bound (for tests that ask for port 0); -1 without HTTP. */
  public int httpPort() {
    return web == null ? -1 : web.port();
  }
}
