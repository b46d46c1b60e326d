package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.ConfigException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/** Secure defaults: loopback binding, the bearer token on state changes, the body limit. */
class SecurityTest {
  private static final String TOKEN = "s3cret-token";

  private static JsonObject counters(WebTestApp app) {
    return Http.get(app.url("/api/pools/jobs")).json().getJsonObject("counters");
  }

  @Test
  void state_changing_requests_without_the_right_token_get_401_and_change_nothing() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(
        new JsonObject().put("token", TOKEN), WebTestApp.demoPool("jobs", 2)))) {
      String submit = app.url("/api/pools/jobs/jobs");
      for (String auth : new String[] {null, "Bearer wrong", "Bearer " + TOKEN + "x", TOKEN,
          "bearer " + TOKEN, "Basic " + TOKEN}) {
        Http.Response r = Http.post(submit, "{\"payload\":{\"echo\":1}}", auth);
        assertThat(r.status()).as("submit with %s", auth).isEqualTo(401);
        assertThat(r.json().getString("error")).isEqualTo("UNAUTHORIZED");
        assertThat(r.headers().firstValue("WWW-Authenticate")).contains("Bearer");
        assertThat(Http.post(app.url("/api/pools/jobs/rebalance"),
            "{\"key\":\"k\",\"worker\":\"w-1\"}", auth).status()).isEqualTo(401);
        assertThat(Http.delete(app.url("/api/pools/jobs/jobs/j1"), auth).status())
            .isEqualTo(401);
      }
      assertThat(counters(app).getLong("accepted")).isZero();

      // Reads stay open; with the token, the same requests go through.
      assertThat(Http.get(app.url("/api/pools")).status()).isEqualTo(200);
      assertThat(Http.get(app.url("/metrics")).status()).isEqualTo(200);
      String auth = "Bearer " + TOKEN;
      JsonObject bound = Http.post(app.url("/api/pools/jobs/rebalance"),
          "{\"key\":\"k\",\"worker\":\"w-1\"}", auth).json();
      assertThat(bound.getString("worker")).isEqualTo("w-1");
      Http.Response ok = Http.post(submit, "{\"key\":\"k\",\"payload\":{\"echo\":1}}", auth);
      assertThat(ok.status()).isEqualTo(200);
      assertThat(ok.json().getString("worker")).isEqualTo("w-1");
      assertThat(Http.delete(app.url("/api/pools/jobs/jobs/j1"), auth).status()).isEqualTo(200);
      assertThat(counters(app).getLong("accepted")).isEqualTo(1);
    }
  }

  @Test
  void pages_of_another_origin_cannot_change_a_pool_even_without_a_token() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 1)))) {
      Http.Response foreign = Http.send(java.net.http.HttpRequest.newBuilder(
              java.net.URI.create(app.url("/api/pools/jobs/jobs")))
          .header("Origin", "http://evil.example").header("Content-Type", "text/plain")
          .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"payload\":1}")));
      assertThat(foreign.status()).isEqualTo(403);
      assertThat(foreign.json().getString("error")).isEqualTo("FORBIDDEN");
      assertThat(counters(app).getLong("accepted")).isZero();
      Http.Response same = Http.send(java.net.http.HttpRequest.newBuilder(
              java.net.URI.create(app.url("/api/pools/jobs/jobs")))
          .header("Origin", "http://127.0.0.1:" + app.port())
          .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"payload\":1}")));
      assertThat(same.status()).isEqualTo(200);
    }
  }

  @Test
  void bodies_over_the_limit_are_refused_with_413_and_nothing_is_accepted() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(
        new JsonObject().put("maxBodyBytes", 1024), WebTestApp.demoPool("jobs", 1)))) {
      String big = "{\"payload\":{\"echo\":\"" + "x".repeat(2000) + "\"}}";
      Http.Response r = Http.post(app.url("/api/pools/jobs/jobs"), big);
      assertThat(r.status()).isEqualTo(413);
      assertThat(r.json().getString("error")).isEqualTo("PAYLOAD_TOO_LARGE");
      assertThat(r.json().getString("message")).contains("1024 bytes");
      assertThat(Http.post(app.url("/api/pools/jobs/rebalance"), big).status()).isEqualTo(413);
      assertThat(counters(app).getLong("accepted")).isZero();
      assertThat(Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":{\"echo\":\"small\"}}")
          .status()).isEqualTo(200);
    }
  }

  @Test
  void binds_loopback_by_default_so_other_addresses_are_refused() throws IOException {
    assertThat(HttpConfig.parse(new JsonObject()).host()).isEqualTo("127.0.0.1");
    JsonObject defaults = WebTestApp.config(null, WebTestApp.demoPool("jobs", 1));
    defaults.getJsonObject("http").remove("host");
    try (WebTestApp app = WebTestApp.start(defaults)) {
      assertThat(connects("127.0.0.1", app.port())).isTrue();
      assertThat(connects("127.0.0.2", app.port()))
          .as("127.0.0.2 is another loopback address; a server bound to 127.0.0.1 only refuses it")
          .isFalse();
    }
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(
        new JsonObject().put("host", "0.0.0.0"), WebTestApp.demoPool("jobs", 1)))) {
      assertThat(connects("127.0.0.2", app.port())).as("bound to every address").isTrue();
    }
  }

  private static boolean connects(String host, int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 2000);
      return true;
    } catch (ConnectException e) {
      return false;
    }
  }

  @Test
  void bridge_settings_are_validated_naming_the_field() {
    assertThat(HttpConfig.parse(new JsonObject()).bridge()).isEqualTo(HttpConfig.Bridge.DEFAULT);
    assertThatThrownBy(() -> HttpConfig.parse(new JsonObject().put("bridge",
        new JsonObject().put("inbound", new JsonArray().add("completed")))))
        .isInstanceOf(ConfigException.class).hasMessageContaining("http.bridge.inbound");
    assertThatThrownBy(() -> HttpConfig.parse(new JsonObject().put("bridge",
        new JsonObject().put("outbound", new JsonArray().add("submit")))))
        .isInstanceOf(ConfigException.class).hasMessageContaining("http.bridge.outbound");
    assertThatThrownBy(() -> HttpConfig.parse(new JsonObject().put("bridge",
        new JsonObject().put("enabled", "yes"))))
        .isInstanceOf(ConfigException.class).hasMessageContaining("http.bridge.enabled");
    assertThatThrownBy(() -> HttpConfig.parse(new JsonObject().put("bridge",
        new JsonObject().put("other", 1))))
        .isInstanceOf(ConfigException.class).hasMessageContaining("http.bridge.other");
  }
}
