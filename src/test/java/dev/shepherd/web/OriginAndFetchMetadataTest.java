package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Pages of other origins, told apart by {@code Origin} (scheme, host and port against the
 * server's own names, never against the request's own {@code Host}) and by Fetch Metadata ({@code
 * Sec-Fetch-Site}, sent by browsers even where they leave {@code Origin} out): refused with 403
 * on every state-changing request, WebSocket upgrade and bridge request, and nothing changes.
 * Reads and page loads stay open to links from anywhere.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OriginAndFetchMetadataTest {
  private static final String WS = "Upgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==";
  private WebTestApp app;
  private String host;

  @BeforeAll
  void start() {
    app = WebTestApp.start(WebTestApp.config(null, WebTestApp.demoPool("jobs", 1)));
    host = "127.0.0.1:" + app.port();
  }

  @AfterAll
  void stop() {
    app.close();
  }

  private long accepted() {
    return Http.get(app.url("/api/pools/jobs")).json().getJsonObject("counters")
        .getLong("accepted");
  }

  /** Every request a foreign page could use to change a pool or open a socket. */
  private List<String> guarded(String header) {
    List<String> requests = new ArrayList<>();
    requests.add(RawHttp.request("POST", "/api/pools/jobs/jobs", host,
        "{\"payload\":{\"echo\":1}}", header, "Content-Type: text/plain"));
    requests.add(RawHttp.request("POST", "/api/pools/jobs/jobs?wait=false", host,
        "{\"payload\":{\"echo\":1}}", header));
    requests.add(RawHttp.request("POST", "/api/pools/jobs/rebalance", host,
        "{\"key\":\"k\",\"worker\":\"w-0\"}", header));
    requests.add(RawHttp.request("DELETE", "/api/pools/jobs/jobs/j1", host, null, header));
    requests.add(RawHttp.request("POST", "/api/pools/jobs/slots/w-0/restart", host, "", header));
    requests.add(RawHttp.request("GET", "/api/pools/jobs/events", host, null, header, WS));
    requests.add(RawHttp.request("GET", "/eventbus/websocket", host, null, header, WS));
    requests.add(RawHttp.request("GET", "/eventbus/info", host, null, header));
    requests.add(RawHttp.request("POST", "/eventbus/000/abc/xhr", host, "", header));
    return requests;
  }

  private void assertAllRefused(String header) {
    long before = accepted();
    for (String request : guarded(header)) {
      RawHttp.Response r = RawHttp.exchange(app.port(), request);
      String line = request.substring(0, request.indexOf('\r'));
      assertThat(r.status()).as("%s with %s", line, header).isEqualTo(403);
      assertThat(r.json().getString("error")).isEqualTo("FORBIDDEN");
      assertThat(r.json().getString("message")).contains(header.substring(0,
          header.indexOf(':')));
      assertThat(r.header("Access-Control-Allow-Origin")).isNull();
    }
    assertThat(accepted()).isEqualTo(before);
  }

  @Test
  void origins_that_are_not_this_server_are_refused() {
    int port = app.port();
    for (String origin : new String[] {"http://evil.example:" + port,
        "https://127.0.0.1:" + port, "https://localhost:" + port, "ws://127.0.0.1:" + port,
        "http://127.0.0.1:" + (port + 1), "http://127.0.0.1", "http://127.0.0.2:" + port,
        "http://127.0.0.1.evil.example:" + port, "http://user@127.0.0.1:" + port,
        "http://127.0.0.1:" + port + "/path", "http://127.0.0.1:" + port + "?q",
        "null", "file://", "", "garbage", "http://"}) {
      assertAllRefused("Origin: " + origin);
    }
  }

  @Test
  void cross_site_and_same_site_fetches_are_refused_even_without_an_origin() {
    for (String site : new String[] {"cross-site", "same-site", "Cross-Site", "bogus"}) {
      assertAllRefused("Sec-Fetch-Site: " + site);
    }
  }

  @Test
  void this_servers_own_pages_and_clients_that_are_not_browsers_are_served() {
    int port = app.port();
    for (String header : new String[] {"Origin: http://127.0.0.1:" + port,
        "Origin: http://localhost:" + port, "Origin: http://[::1]:" + port,
        "Origin: HTTP://LOCALHOST:" + port, "Sec-Fetch-Site: same-origin",
        "Sec-Fetch-Site: none", "X-Nothing: browser-free"}) {
      RawHttp.Response submit = RawHttp.exchange(port, RawHttp.request("POST",
          "/api/pools/jobs/jobs", host, "{\"payload\":{\"echo\":1}}", header));
      assertThat(submit.status()).as(header).isEqualTo(200);
      assertThat(RawHttp.exchange(port, RawHttp.request("GET", "/api/pools/jobs/events", host,
          null, header, WS)).status()).as(header).isEqualTo(101);
      assertThat(RawHttp.exchange(port, RawHttp.request("GET", "/eventbus/info", host, null,
          header)).status()).as(header).isEqualTo(200);
    }
  }

  @Test
  void two_origin_headers_are_refused() {
    int port = app.port();
    assertAllRefused("Origin: http://127.0.0.1:" + port + "\r\nOrigin: http://evil.example");
  }

  @Test
  void a_link_from_another_site_still_opens_the_live_view_and_reads() {
    for (String path : new String[] {"/", "/js/main.js", "/api/pools", "/api/pools/jobs",
        "/health", "/metrics"}) {
      RawHttp.Response r = RawHttp.exchange(app.port(), RawHttp.request("GET", path, host,
          null, "Sec-Fetch-Site: cross-site", "Origin: http://evil.example"));
      assertThat(r.status()).as(path).isEqualTo(200);
      assertThat(r.header("Access-Control-Allow-Origin")).as(path).isNull();
    }
  }
}
