package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.LogCapture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every HTTP error, down to requests the HTTP decoder cannot read, is answered with the {@code
 * {"error", "message"}} JSON body, changes nothing, puts no warning or stack trace in the log, and
 * leaves the server serving. Spoken over raw sockets, since well-behaved clients cannot send most
 * of these.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpErrorsAreJsonTest {
  private WebTestApp app;
  private String host;
  private LogCapture log;

  @BeforeAll
  void start() {
    app = WebTestApp.start(WebTestApp.config(null, WebTestApp.demoPool("jobs", 1)));
    host = "Host: 127.0.0.1:" + app.port() + "\r\n";
  }

  @AfterAll
  void stop() {
    app.close();
  }

  @BeforeEach
  void capture() {
    log = LogCapture.start("dev.shepherd", "io.vertx");
  }

  @AfterEach
  void nothingAlarming() {
    try {
      assertThat(log.alarming()).as("warnings or stack traces logged").isEmpty();
      assertThat(Http.get(app.url("/health")).status()).isEqualTo(200);
      assertThat(Http.get(app.url("/api/pools/jobs")).json().getJsonObject("counters")
          .getLong("accepted")).isZero();
    } finally {
      log.close();
    }
  }

  static Stream<Arguments> malformed() {
    String submit = "{\"payload\":{\"echo\":1}}";
    String form = "Content-Type: application/x-www-form-urlencoded\r\n";
    return Stream.of(
        Arguments.of("POST /api/pools/jobs/jobs?wait=%ZZ", form, submit, 400, "query"),
        Arguments.of("POST /api/pools/jobs/jobs?wait=%ZZ", "", submit, 400, "query"),
        Arguments.of("POST /api/pools/jobs/jobs?wait=%", "", submit, 400, "query"),
        Arguments.of("GET /api/pools?x=%G1", "", null, 400, "query"),
        Arguments.of("GET /api/pools/jobs?%=1", "", null, 400, "query"),
        Arguments.of("GET /metrics?%ZZ", "", null, 400, "query"),
        Arguments.of("GET /%ZZ", "", null, 400, "path"),
        Arguments.of("GET /api/pools/%Z", "", null, 400, "path"),
        Arguments.of("GET /api/pools/%", "", null, 400, "path"),
        Arguments.of("GET /js/main.js%G0", "", null, 400, "path"),
        Arguments.of("POST /api/pools/%ZZ/jobs", "", submit, 400, "path"),
        Arguments.of("GET /eventbus/%ZZ/websocket", "", null, 400, "path"),
        Arguments.of("GET /api/pools/%FF%FE", "", null, 404, "pool"),
        Arguments.of("GET /api/pools/%00", "", null, 404, "pool"),
        Arguments.of("GET /../../etc/passwd", "", null, 404, "route"),
        Arguments.of("GET /%2e%2e/%2e%2e/etc/passwd", "", null, 404, "route"),
        Arguments.of("BREW /api/pools", "", null, 501, "method"),
        Arguments.of("TRACE /", "", null, 501, "method"),
        Arguments.of("get /health", "", null, 501, "method"),
        Arguments.of("PUT /api/pools/jobs", "", "{}", 404, "route"),
        Arguments.of("GET /api/pools/jobs/jobs/j1?wait=%ZZ", "", null, 400, "query"),
        Arguments.of("GET /api/pools/jobs/jobs/j1?wait=true&timeoutMs=%", "", null, 400,
            "query"),
        Arguments.of("GET /api/pools/jobs/jobs/%ZZ", "", null, 400, "path"),
        Arguments.of("GET /api/pools/jobs/dead?limit=%G1", "", null, 400, "query"),
        Arguments.of("GET /api/pools/jobs/dead/%", "", null, 400, "path"),
        Arguments.of("POST /api/pools/jobs/dead/%ZZ/replay", "", "{}", 400, "path"),
        Arguments.of("DELETE /api/pools/jobs/dead/j1%", "", null, 400, "path"),
        Arguments.of("GET /api/pools/jobs/jobs/%FF%FE", "", null, 404, "job"),
        Arguments.of("GET /api/pools/jobs/dead/%00", "", null, 404, "job"),
        Arguments.of("PUT /api/pools/jobs/dead/j1", "", "{}", 404, "route"),
        Arguments.of("POST /api/pools/jobs/dead", "", "{}", 404, "route"),
        Arguments.of("POST /api/pools/jobs/jobs", "Expect: 200-ok\r\n", submit, 417,
            "Expect"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("malformed")
  void malformed_requests_get_a_json_error_naming_what_is_wrong(String line, String headers,
      String body, int status, String named) {
    String request = line + " HTTP/1.1\r\n" + host + headers
        + (body == null ? "" : "Content-Length: " + body.length() + "\r\n") + "\r\n"
        + (body == null ? "" : body);
    RawHttp.Response r = RawHttp.exchange(app.port(), request);
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    assertThat(r.header("Content-Type")).startsWith("application/json");
    assertThat(r.json().getString("error")).isNotBlank();
    assertThat(r.json().getString("message")).contains(named);
  }

  static Stream<Arguments> undecodable() {
    return Stream.of(
        Arguments.of("request line too long",
            "GET /" + "a".repeat(5000) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        Arguments.of("query too long",
            "GET /health?" + "a=1&".repeat(2000) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        Arguments.of("headers too large",
            "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(9000) + "\r\n\r\n", 431),
        Arguments.of("too many headers", "GET /health HTTP/1.1\r\nHost: x\r\n"
            + "X-Many: aaaaaaaaaaaaaaaaaaaaa\r\n".repeat(400) + "\r\n", 431),
        Arguments.of("header without a colon",
            "GET /health HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n", 400),
        Arguments.of("Content-Length not a number", "POST /api/pools/jobs/jobs HTTP/1.1\r\n"
            + "Host: x\r\nContent-Length: abc\r\n\r\n{}", 400),
        Arguments.of("two Content-Lengths", "POST /api/pools/jobs/jobs HTTP/1.1\r\nHost: x\r\n"
            + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400),
        Arguments.of("binary garbage (a TLS hello)",
            "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003\r\n\r\n", 400),
        Arguments.of("no request line", "\r\n\r\nHost: x\r\n\r\n", 400));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("undecodable")
  void requests_the_decoder_cannot_read_get_a_json_error_and_the_connection_closes(
      String name, String request, int status) {
    RawHttp.Response r = RawHttp.exchangeUntilClosed(app.port(),
        request.getBytes(StandardCharsets.ISO_8859_1));
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    assertThat(r.json().getString("error")).isNotBlank();
    assertThat(r.json().getString("message")).isNotBlank();
    assertThat(r.closed()).isTrue();
  }

  static Stream<String> badChunks() {
    String head = "POST /api/pools/jobs/jobs HTTP/1.1\r\nHost: x\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n";
    return Stream.of(head + "zz\r\nabc\r\n0\r\n\r\n",
        head + "5\r\n{\"pay\r\nQQ\r\nxx\r\n0\r\n\r\n",
        head + "-1\r\n{}\r\n0\r\n\r\n",
        head + "FFFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n");
  }

  /**
   * Vert.x closes the connection as soon as its decoder fails on a body, before an answer
   * written then can leave; so the client sees the connection close, promptly, and anything it
   * does receive is the JSON 400.
   */
  @ParameterizedTest
  @MethodSource("badChunks")
  void a_malformed_chunk_closes_the_connection_at_once(String request) {
    RawHttp.Response r = RawHttp.exchangeUntilClosed(app.port(),
        request.getBytes(StandardCharsets.UTF_8));
    assertThat(r.closed()).isTrue();
    if (r.status() != -1) {
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.json().getString("message")).contains("body");
    }
  }

  @Test
  void a_body_cut_short_by_the_client_changes_nothing() throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", app.port()));
      OutputStream out = socket.getOutputStream();
      out.write(("POST /api/pools/jobs/jobs HTTP/1.1\r\n" + host
          + "Content-Length: 100\r\n\r\n{\"payload\":").getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
    assertThat(Http.get(app.url("/health")).status()).isEqualTo(200);
  }
}
