package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.LogCapture;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Client input that reaches a log line (a {@code Host} header, what the HTTP decoder refused, a
 * path, a bridge address) is quoted and escaped there: no request can forge a log line, whatever
 * control or line-separator characters it carries.
 */
class LogInjectionTest {
  private static final String FORGED = "12:00:00.000 ERROR FORGED - the pool is on fire";

  @Test
  void no_request_forges_a_log_line() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(
            new JsonObject().put("token", "t0ken"), WebTestApp.demoPool("jobs", 1)));
        Sockets bridge = Sockets.connect(app.port(), "/eventbus/websocket");
        LogCapture log = LogCapture.start("dev.shepherd", "io.vertx")) {
      int port = app.port();
      String[] requests = {
          "GET /health HTTP/1.1\r\nHost: evil\r" + FORGED + "\r\n\r\n",
          "GET /health HTTP/1.1\r\nHost: evil\u0085\u2028" + FORGED + "\r\n\r\n",
          "POST /api/pools/jobs/jobs HTTP/1.1\r\nHost: 127.0.0.1:" + port
              + "\r\nContent-Length: 1\r" + FORGED + "\r\n\r\n{",
          "GET /a\r" + FORGED + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n",
          "POST /api/pools/jobs/jobs HTTP/1.1\r\nHost: 127.0.0.1:" + port
              + "\r\nTransfer-Encoding: chunked\r\n\r\nzz\r" + FORGED + "\r\n0\r\n\r\n"};
      for (String request : requests) {
        RawHttp.exchangeUntilClosed(port, request.getBytes(StandardCharsets.UTF_8));
      }
      bridge.send(new JsonObject().put("type", "send").put("address", "shepherd.jobs.submit")
          .put("body", new JsonObject().put("payload", 1)).put("replyAddress", "r1")
          .put("headers", new JsonObject().put("Authorization", "Bearer x\n" + FORGED)));
      bridge.send(new JsonObject().put("type", "register").put("address", "x\n" + FORGED));
      await().atMost(5, SECONDS).until(() -> bridge.received().size() >= 2);

      assertThat(log.events()).as("the refusals were logged, quoted")
          .anyMatch(e -> e.getFormattedMessage().contains("FORGED"));
      for (ILoggingEvent event : log.events()) {
        assertThat(event.getFormattedMessage()).as(event.getLoggerName())
            .doesNotContain("\n").doesNotContain("\r").doesNotContain("\u2028")
            .doesNotContain("\u2029").doesNotContain("\u0085");
      }
    }
  }
}
