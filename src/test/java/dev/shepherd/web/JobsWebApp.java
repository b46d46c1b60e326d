package dev.shepherd.web;

import dev.shepherd.core.JobSettings;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.access.BusPoolHandle;
import dev.shepherd.runtime.JobsFixture;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.access.PoolHandle;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Pools with section 10's job settings (which the configuration's JSON of this base does not say
 * yet) behind a web server, on one Vert.x instance, reached either straight ({@code local}) or
 * over the bus as a node that does not coordinate them reaches them ({@code bus}: a {@link
 * BusPoolHandle} in the server's directory). For the J5 and J6 HTTP tests.
 */
final class JobsWebApp implements AutoCloseable {
  private final Vertx vertx = Vertx.vertx();
  private final MapPoolDirectory directory = new MapPoolDirectory();
  private WebServer server;

  private JobsWebApp() {}

  /** Starts {@code pools} with {@code jobs}, served as {@code via} says. */
  static JobsWebApp start(String via, JobSettings jobs, JsonObject... pools) {
    JobsWebApp app = new JobsWebApp();
    try {
      for (JsonObject pool : pools) {
        JobsFixture.deployReady(app.vertx, pool, jobs);
        String name = pool.getString("name");
        app.directory.put(via.equals("local") ? LocalPools.handle(app.vertx, name)
            : new BusPoolHandle(app.vertx, name, Addresses.forPool(name), "node-x",
                120_000, 5_000));
      }
      app.server = new WebServer(app.vertx, new HttpConfig("127.0.0.1", 0, 1 << 20, null),
          app.directory);
      ClusteredWebNode.join(app.server.start(), 10);
    } catch (RuntimeException | Error e) {
      app.close();
      throw e;
    }
    return app;
  }

  /** Adds a pool to the directory that only {@code handle} knows (a stand-in). */
  void put(PoolHandle handle) {
    directory.put(handle);
  }

  Vertx vertx() {
    return vertx;
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.port() + path;
  }

  @Override
  public void close() {
    ClusteredWebNode.join(vertx.close(), 20);
  }
}
