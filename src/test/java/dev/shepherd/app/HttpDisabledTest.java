package dev.shepherd.app;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.PoolClient;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code "http": {"enabled": false}}: the pools run for event-bus callers and nothing listens. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class HttpDisabledTest {

  @Test
  void no_http_server_is_started_and_the_pools_still_serve(Vertx vertx) throws IOException {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    JsonObject config = new JsonObject()
        .put("http", new JsonObject().put("enabled", false).put("port", port))
        .put("pools", new JsonArray().add(demoPool("jobs", 1)));
    ShepherdVerticle app = new ShepherdVerticle();
    join(vertx.deployVerticle(app, new DeploymentOptions().setConfig(config)));

    assertThat(app.httpPort()).isEqualTo(-1);
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      throw new AssertionError("something listens on port " + port);
    } catch (ConnectException expected) {
      // nothing listens
    }
    Object result = join(PoolClient.create(vertx, "jobs").submit(echo("bus only")));
    assertThat(((JsonObject) result).getString("echo")).isEqualTo("bus only");
  }
}
