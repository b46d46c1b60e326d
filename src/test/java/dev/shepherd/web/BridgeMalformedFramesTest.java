package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.LogCapture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Malformed frames on the SockJS event-bus bridge each get one {@code err} frame naming what is
 * wrong, never an exception: the connection stays usable, nothing is submitted, and no warning,
 * stack trace or forged line reaches the log.
 */
class BridgeMalformedFramesTest {
  private static final String RAW = "/eventbus/websocket";
  private static final String SUBMIT = "shepherd.jobs.submit";

  private static String send(String extra) {
    return "{\"type\":\"send\",\"address\":\"" + SUBMIT + "\",\"body\":{\"payload\":1}" + extra
        + "}";
  }

  /** Each frame, and the reason its err frame must give. */
  private static List<String[]> malformed() {
    String deep = "[".repeat(5000) + "]".repeat(5000);
    List<String[]> frames = new ArrayList<>();
    frames.add(new String[] {"not json", "invalid_json"});
    frames.add(new String[] {"[1, 2]", "invalid_json"});
    frames.add(new String[] {"\"text\"", "invalid_json"});
    frames.add(new String[] {"{\"type\":\"send\",\"body\":" + deep + "}", "invalid_json"});
    frames.add(new String[] {"{}", "missing_type"});
    frames.add(new String[] {"{\"type\":null,\"address\":\"" + SUBMIT + "\"}", "missing_type"});
    frames.add(new String[] {"{\"type\":5,\"address\":\"" + SUBMIT + "\"}", "invalid_type"});
    frames.add(new String[] {"{\"type\":[\"send\"]}", "invalid_type"});
    frames.add(new String[] {"{\"type\":\"SEND\",\"address\":\"" + SUBMIT + "\"}",
        "invalid_type"});
    frames.add(new String[] {"{\"type\":\"bogus\\nFORGED LOG LINE\"}", "invalid_type"});
    frames.add(new String[] {"{\"type\":\"send\",\"body\":{}}", "missing_address"});
    frames.add(new String[] {"{\"type\":\"send\",\"address\":5,\"body\":{}}",
        "invalid_address"});
    frames.add(new String[] {"{\"type\":\"send\",\"address\":{\"a\":1},\"body\":{}}",
        "invalid_address"});
    frames.add(new String[] {"{\"type\":\"send\",\"address\":\"\",\"body\":{}}",
        "invalid_address"});
    frames.add(new String[] {"{\"type\":\"send\",\"address\":\"" + "a".repeat(100_000)
        + "\",\"body\":{}}", "invalid_address"});
    frames.add(new String[] {"{\"type\":\"send\",\"address\":\"x\\n\\u2028FORGED\",\"body\":{}}",
        "access_denied"});
    frames.add(new String[] {send(",\"headers\":\"x\""), "invalid_headers"});
    frames.add(new String[] {send(",\"headers\":[1]"), "invalid_headers"});
    frames.add(new String[] {send(",\"headers\":{\"a\":1}"), "invalid_headers"});
    frames.add(new String[] {send(",\"headers\":{\"a\":{\"b\":\"c\"}}"), "invalid_headers"});
    frames.add(new String[] {"{\"type\":\"send\",\"address\":\"" + SUBMIT + "\"}",
        "missing_body"});
    frames.add(new String[] {send(",\"replyAddress\":5"), "invalid_reply_address"});
    frames.add(new String[] {send(",\"replyAddress\":\"\""), "invalid_reply_address"});
    frames.add(new String[] {send(",\"replyAddress\":\"" + "r".repeat(37) + "\""),
        "invalid_reply_address"});
    frames.add(new String[] {send(",\"replyAddress\":\"" + "r".repeat(100_000) + "\""),
        "invalid_reply_address"});
    frames.add(new String[] {send(",\"replyAddress\":\"a\\nFORGED\""),
        "invalid_reply_address"});
    frames.add(new String[] {send(",\"replyAddress\":\"a b\""), "invalid_reply_address"});
    frames.add(new String[] {send(",\"replyAddress\":{\"x\":1}"), "invalid_reply_address"});
    frames.add(new String[] {"{\"type\":\"send\",\"address\":\"" + SUBMIT
        + "\",\"body\":123456789012345678901234567890,\"replyAddress\":\"r1\"}",
        "invalid_body"});
    frames.add(new String[] {"{\"type\":\"publish\",\"address\":\"" + SUBMIT
        + "\",\"body\":{\"payload\":1}}", "rejected"});
    frames.add(new String[] {"{\"type\":\"register\",\"address\":\"shepherd.jobs.events\","
        + "\"headers\":\"x\"}", "invalid_headers"});
    frames.add(new String[] {"{\"type\":\"register\",\"address\":5}", "invalid_address"});
    frames.add(new String[] {"{\"type\":\"register\"}", "missing_address"});
    frames.add(new String[] {"{\"type\":\"unregister\",\"address\":[1]}", "invalid_address"});
    frames.add(new String[] {"{\"type\":\"unregister\",\"address\":\"" + SUBMIT + "\"}",
        "access_denied"});
    return frames;
  }

  private static long accepted(WebTestApp app) {
    return Http.get(app.url("/api/pools/jobs")).json().getJsonObject("counters")
        .getLong("accepted");
  }

  @Test
  void each_malformed_frame_gets_one_err_naming_the_problem_and_the_socket_stays_usable() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
            WebTestApp.demoPool("jobs", 1)));
        Sockets bridge = Sockets.connect(app.port(), RAW);
        LogCapture log = LogCapture.start("dev.shepherd", "io.vertx")) {
      List<String[]> frames = malformed();
      for (String[] frame : frames) {
        bridge.sendText(frame[0]);
      }
      await().atMost(10, SECONDS).until(() -> bridge.received().size() >= frames.size());
      List<String> reasons = bridge.received().stream().map(f -> f.getString("body")).toList();
      assertThat(bridge.received()).allMatch(f -> "err".equals(f.getString("type")));
      assertThat(reasons).containsExactlyElementsOf(frames.stream().map(f -> f[1]).toList());

      // Registering twice is refused; the first registration works.
      bridge.sendText("{\"type\":\"register\",\"address\":\"shepherd.jobs.events\"}");
      bridge.sendText("{\"type\":\"register\",\"address\":\"shepherd.jobs.events\"}");
      await().atMost(5, SECONDS).until(() -> bridge.any(f ->
          "address_already_registered".equals(f.getString("body")))
          && bridge.any(f -> "shepherd.jobs.events".equals(f.getString("address"))));
      assertThat(accepted(app)).isZero();

      bridge.sendText(send(",\"replyAddress\":\"ok-1\",\"headers\":{\"x-note\":\"fine\"}"));
      await().atMost(10, SECONDS).until(() -> bridge.any(f -> "ok-1".equals(
          f.getString("address"))));
      assertThat(bridge.first(f -> "ok-1".equals(f.getString("address")))
          .getJsonObject("body").getString("type")).isEqualTo("completed");

      assertThat(log.alarming()).isEmpty();
      assertThat(log.events()).allSatisfy(e -> assertThat(e.getFormattedMessage())
          .doesNotContain("\n").doesNotContain("\u2028"));
    }
  }

  @Test
  void the_xhr_transports_work_and_read_bodies_within_the_limit() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(
        new JsonObject().put("maxBodyBytes", 4096), WebTestApp.demoPool("jobs", 1)))) {
      String session = app.url("/eventbus/000/s" + System.nanoTime() + "/");
      assertThat(post(session + "xhr", "").body()).startsWith("o");
      JsonObject frame = new JsonObject().put("type", "send").put("address", SUBMIT)
          .put("body", new JsonObject().put("payload", new JsonObject().put("echo", "xhr")))
          .put("replyAddress", "xhr-1");
      Http.Response sent = post(session + "xhr_send",
          new JsonArray().add(frame.encode()).encode());
      assertThat(sent.status()).isEqualTo(204);
      await().atMost(10, SECONDS).until(() -> post(session + "xhr", "").body()
          .contains("xhr-1"));

      // Raw, on a connection of its own: SockJS closes the polling connections it answers.
      RawHttp.Response big = RawHttp.exchange(app.port(), RawHttp.request("POST",
          session.substring(session.indexOf("/eventbus")) + "xhr_send",
          "127.0.0.1:" + app.port(), "[\"" + "x".repeat(5000) + "\"]"));
      assertThat(big.status()).isEqualTo(413);
      assertThat(big.json().getString("error")).isEqualTo("PAYLOAD_TOO_LARGE");
    }
  }

  private static Http.Response post(String url, String body) {
    return Http.send(HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "text/plain")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }
}
