package dev.shepherd.app;

import static dev.shepherd.runtime.PoolFixture.join;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

/**
 * The whole application in this JVM: a {@link ShepherdVerticle} with the given pools and its HTTP
 * server on a free loopback port, and a web client that keeps a reference to itself while in use.
 */
final class AppFixture {
  final Vertx vertx;
  final String deployment;
  final int port;
  final WebClient client;

  private AppFixture(Vertx vertx, String deployment, int port) {
    this.vertx = vertx;
    this.deployment = deployment;
    this.port = port;
    this.client = WebClient.create(vertx, new WebClientOptions()
        .setDefaultHost("127.0.0.1").setDefaultPort(port).setKeepAlive(false));
  }

  /** Deploys the application with {@code pools} and an HTTP server on 127.0.0.1, port 0. */
  static AppFixture start(Vertx vertx, JsonObject... pools) {
    return startWithHttp(vertx, new JsonObject(), pools);
  }

  static AppFixture startWithHttp(Vertx vertx, JsonObject http, JsonObject... pools) {
    JsonObject config = new JsonObject()
        .put("http", http.copy().put("host", "127.0.0.1").put("port", 0))
        .put("pools", new JsonArray(java.util.List.of((Object[]) pools)));
    ShepherdVerticle app = new ShepherdVerticle();
    String id = join(vertx.deployVerticle(app, new DeploymentOptions().setConfig(config)));
    return new AppFixture(vertx, id, app.httpPort());
  }

  /** Sends a request with a raw body (null for none) and waits for the whole response. */
  Future<HttpResponse<Buffer>> send(HttpMethod method, String path, String body) {
    var request = client.request(method, path).putHeader("Content-Type", "application/json");
    return body == null ? request.send() : request.sendBuffer(Buffer.buffer(body));
  }

  HttpResponse<Buffer> call(HttpMethod method, String path, String body) {
    return join(send(method, path, body));
  }

  HttpResponse<Buffer> post(String path, JsonObject body) {
    return call(HttpMethod.POST, path, body.encode());
  }

  HttpResponse<Buffer> get(String path) {
    return call(HttpMethod.GET, path, null);
  }

  JsonObject status(String pool) {
    return get("/api/pools/" + pool).bodyAsJsonObject();
  }

  static JsonObject submitBody(String job, JsonObject payload) {
    return new JsonObject().put("job", job).put("payload", payload);
  }
}
