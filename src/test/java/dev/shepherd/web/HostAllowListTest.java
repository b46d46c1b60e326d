package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The {@code Host} allow-list ({@code http.allowedHosts}): a browser tricked by DNS rebinding
 * sends {@code Host: evil.example:<port>} with a matching {@code Origin}; it must get 421 and
 * change nothing on every path, while the server's own names keep working.
 */
class HostAllowListTest {
  private static final String[] EVERY_PATH = {"/", "/index.html", "/js/main.js", "/api/pools",
      "/api/pools/jobs", "/metrics", "/health", "/ready", "/eventbus/info",
      "/eventbus/websocket", "/api/pools/jobs/events", "/no/such/page"};

  private static long accepted(WebTestApp app) {
    return Http.get(app.url("/api/pools/jobs")).json().getJsonObject("counters")
        .getLong("accepted");
  }

  private static void assertMisdirected(RawHttp.Response r, String what) {
    assertThat(r.status()).as(what).isEqualTo(421);
    assertThat(r.json().getString("error")).as(what).isEqualTo("MISDIRECTED_REQUEST");
    assertThat(r.json().getString("message")).as(what).contains("Host");
    assertThat(r.header("Access-Control-Allow-Origin")).as(what).isNull();
  }

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class Bound_to_loopback {
    private WebTestApp app;

    @BeforeAll
    void start() {
      app = WebTestApp.start(WebTestApp.config(null, WebTestApp.demoPool("jobs", 1)));
    }

    @AfterAll
    void stop() {
      app.close();
    }

    @Test
    void a_rebinding_page_cannot_submit_upgrade_sockets_or_get_cors_approval() {
      long before = accepted(app);
      String evil = "evil.example:" + app.port();
      String origin = "Origin: http://" + evil;
      assertMisdirected(RawHttp.exchange(app.port(), RawHttp.request("POST",
          "/api/pools/jobs/jobs", evil, "{\"payload\":{\"echo\":1}}", origin,
          "Content-Type: text/plain")), "submit");
      assertMisdirected(RawHttp.exchange(app.port(), RawHttp.request("POST",
          "/api/pools/jobs/rebalance", evil, "{\"key\":\"k\",\"worker\":\"w-0\"}", origin)),
          "rebalance");
      assertMisdirected(RawHttp.exchange(app.port(), RawHttp.request("DELETE",
          "/api/pools/jobs/jobs/j1", evil, null, origin)), "cancel");
      assertMisdirected(RawHttp.get(app.port(), "/eventbus/info", evil, origin), "info");
      assertMisdirected(RawHttp.exchange(app.port(), RawHttp.request("OPTIONS",
          "/eventbus/info", evil, null, origin, "Access-Control-Request-Method: GET")),
          "preflight");
      for (String path : new String[] {"/api/pools/jobs/events", "/eventbus/websocket"}) {
        assertMisdirected(RawHttp.get(app.port(), path, evil, origin, "Upgrade: websocket",
            "Connection: Upgrade", "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="), path);
        Throwable refused = Sockets.refusal(new WebSocketConnectOptions().setHost("127.0.0.1")
            .setPort(app.port()).setURI(path).putHeader("Host", evil)
            .addHeader("Origin", "http://" + evil));
        assertThat(refused).isInstanceOf(UpgradeRejectedException.class);
        assertThat(((UpgradeRejectedException) refused).getStatus()).isEqualTo(421);
      }
      assertThat(accepted(app)).isEqualTo(before);
    }

    @Test
    void every_path_refuses_a_foreign_host() {
      for (String host : new String[] {"evil.example:" + app.port(), "evil.example",
          "localhost.evil.example:" + app.port(), "127.0.0.1.nip.io:" + app.port(),
          "localhost:" + (app.port() + 1), "localhost", "127.0.0.2:" + app.port(),
          "[::2]:" + app.port(), "0.0.0.0:" + app.port(), "not a host", ""}) {
        for (String path : EVERY_PATH) {
          assertMisdirected(RawHttp.get(app.port(), path, host), host + " " + path);
        }
      }
      RawHttp.Response none = RawHttp.exchange(app.port(), "GET /health HTTP/1.0\r\n\r\n");
      assertMisdirected(none, "no Host at all");
    }

    @Test
    void the_servers_own_names_are_served_in_any_case() {
      for (String host : new String[] {"localhost:" + app.port(), "127.0.0.1:" + app.port(),
          "[::1]:" + app.port(), "LocalHost:" + app.port(), "[0:0:0:0:0:0:0:1]:" + app.port()}) {
        for (String path : new String[] {"/", "/api/pools", "/metrics", "/health",
            "/eventbus/info"}) {
          assertThat(RawHttp.get(app.port(), path, host).status()).as(host + " " + path)
              .isEqualTo(200);
        }
      }
      RawHttp.Response submit = RawHttp.exchange(app.port(), RawHttp.request("POST",
          "/api/pools/jobs/jobs", "localhost:" + app.port(), "{\"payload\":{\"echo\":1}}",
          "Origin: http://localhost:" + app.port()));
      assertThat(submit.json().getString("type")).isEqualTo("completed");
    }

    @Test
    void two_host_headers_are_refused() {
      RawHttp.Response r = RawHttp.get(app.port(), "/health", "localhost:" + app.port(),
          "Host: evil.example:" + app.port());
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.json().getString("message")).contains("Host");
    }

    @Test
    void an_absolute_request_uri_must_name_this_server_too() {
      assertMisdirected(RawHttp.get(app.port(), "http://evil.example:" + app.port() + "/health",
          "localhost:" + app.port()), "absolute form");
      assertThat(RawHttp.get(app.port(), "http://localhost:" + app.port() + "/health",
          "localhost:" + app.port()).status()).isEqualTo(200);
      assertThat(RawHttp.get(app.port(), "/health?next=http://evil.example/",
          "localhost:" + app.port()).status()).as("a URL in the query is no authority")
          .isEqualTo(200);
      assertThat(RawHttp.exchange(app.port(), RawHttp.request("OPTIONS", "*",
          "localhost:" + app.port(), null)).status()).isEqualTo(400);
    }
  }

  @Test
  void configured_names_are_added_with_the_servers_port_or_their_own() {
    JsonObject http = new JsonObject().put("allowedHosts",
        new JsonArray().add("shepherd.test").add("other.test:9999"));
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(http,
        WebTestApp.demoPool("jobs", 1)))) {
      int port = app.port();
      assertThat(RawHttp.get(port, "/health", "shepherd.test:" + port).status()).isEqualTo(200);
      assertThat(RawHttp.get(port, "/health", "SHEPHERD.test:" + port).status()).isEqualTo(200);
      assertThat(RawHttp.get(port, "/health", "other.test:9999").status()).isEqualTo(200);
      assertThat(RawHttp.get(port, "/health", "localhost:" + port).status()).isEqualTo(200);
      assertMisdirected(RawHttp.get(port, "/health", "other.test:" + port), "other port");
      assertMisdirected(RawHttp.get(port, "/health", "shepherd.test:9999"), "other port");
      assertMisdirected(RawHttp.get(port, "/health", "evil.example:" + port), "evil");
      // A configured name's pages are this server's own: they may submit.
      RawHttp.Response submit = RawHttp.exchange(port, RawHttp.request("POST",
          "/api/pools/jobs/jobs", "shepherd.test:" + port, "{\"payload\":{\"echo\":1}}",
          "Origin: http://shepherd.test:" + port));
      assertThat(submit.json().getString("type")).isEqualTo("completed");
    }
  }

  @Test
  void a_star_answers_to_any_host_but_origins_must_still_match_it() {
    JsonObject http = new JsonObject().put("allowedHosts", new JsonArray().add("*"));
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(http,
        WebTestApp.demoPool("jobs", 1)))) {
      int port = app.port();
      assertThat(RawHttp.get(port, "/health", "anything.test:" + port).status()).isEqualTo(200);
      RawHttp.Response foreign = RawHttp.exchange(port, RawHttp.request("POST",
          "/api/pools/jobs/jobs", "anything.test:" + port, "{\"payload\":1}",
          "Origin: http://evil.example:" + port));
      assertThat(foreign.status()).isEqualTo(403);
      assertThat(accepted(app)).isZero();
    }
  }

  @Test
  void defaults_follow_the_bound_address() {
    AllowedHosts loopback = AllowedHosts.of("127.0.0.1", java.util.List.of());
    assertThat(loopback.describe(8080)).isEqualTo("localhost:8080, 127.0.0.1:8080, [::1]:8080");
    assertThat(AllowedHosts.of("10.1.2.3", java.util.List.of()).describe(80))
        .endsWith(", 10.1.2.3:80");
    assertThat(AllowedHosts.of("::1", java.util.List.of("shepherd.test")).describe(80))
        .isEqualTo("localhost:80, 127.0.0.1:80, [::1]:80, shepherd.test:80");
    // Every address: the machine's own addresses too (loopback at least), read without DNS.
    assertThat(AllowedHosts.of("0.0.0.0", java.util.List.of()).describe(80))
        .startsWith("localhost:80, 127.0.0.1:80, [::1]:80");
    assertThat(AllowedHosts.of("::", java.util.List.of()).describe(80)).doesNotContain("[::]");
    assertThat(AllowedHosts.of("0.0.0.0", java.util.List.of("*")).describe(80))
        .isEqualTo("any host");
  }
}
