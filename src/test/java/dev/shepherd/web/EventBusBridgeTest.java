package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The SockJS event-bus bridge at {@code /eventbus}, spoken over its raw WebSocket endpoint: only
 * each pool's {@code .events} goes out, only {@code .submit} and {@code .status} come in (or what
 * is configured), and with a token every inbound message must carry it.
 */
class EventBusBridgeTest {
  private static final String RAW = "/eventbus/websocket";
  private final AtomicInteger replies = new AtomicInteger();

  private static JsonObject register(String address) {
    return new JsonObject().put("type", "register").put("address", address);
  }

  private JsonObject send(String address, JsonObject body, String replyAddress) {
    return new JsonObject().put("type", "send").put("address", address).put("body", body)
        .put("replyAddress", replyAddress);
  }

  private String replyAddress() {
    return "test-reply-" + replies.incrementAndGet();
  }

  private static boolean denied(JsonObject frame) {
    return "err".equals(frame.getString("type"))
        && "access_denied".equals(frame.getString("body"));
  }

  private static long accepted(WebTestApp app) {
    return Http.get(app.url("/api/pools/jobs")).json().getJsonObject("counters")
        .getLong("accepted");
  }

  @Test
  void events_go_out_and_submit_and_status_come_in() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
            WebTestApp.demoPool("jobs", 2)));
        Sockets bridge = Sockets.connect(app.port(), RAW)) {
      bridge.send(register("shepherd.jobs.events"));
      await().atMost(5, SECONDS).until(() -> bridge.any(f -> "rec".equals(f.getString("type"))
          && "shepherd.jobs.events".equals(f.getString("address"))
          && "stats".equals(f.getJsonObject("body").getString("type"))));

      String status = replyAddress();
      bridge.send(send("shepherd.jobs.status", new JsonObject(), status));
      String submit = replyAddress();
      bridge.send(send("shepherd.jobs.submit",
          new JsonObject().put("payload", new JsonObject().put("echo", "over the bridge")),
          submit));
      await().atMost(10, SECONDS).until(() ->
          bridge.any(f -> submit.equals(f.getString("address"))));
      JsonObject snapshot = bridge.first(f -> status.equals(f.getString("address")))
          .getJsonObject("body");
      assertThat(snapshot.getString("name")).isEqualTo("jobs");
      JsonObject outcome = bridge.first(f -> submit.equals(f.getString("address")))
          .getJsonObject("body");
      assertThat(outcome.getString("type")).isEqualTo("completed");
      assertThat(outcome.getJsonObject("result").getString("echo")).isEqualTo("over the bridge");
    }
  }

  @Test
  void every_other_address_is_refused_both_ways_and_nothing_changes() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
            WebTestApp.demoPool("jobs", 2)));
        Sockets bridge = Sockets.connect(app.port(), RAW)) {
      String[] refusedInbound = {"shepherd.jobs.rebalance", "shepherd.jobs.cancel",
          "shepherd.jobs.completed", "shepherd.jobs.register", "shepherd.jobs.events",
          "shepherd.jobs.slot.w-0", "shepherd.other.submit", "anything"};
      for (String address : refusedInbound) {
        bridge.send(send(address, new JsonObject().put("key", "k").put("worker", "w-1")
            .put("job", "j").put("payload", 1), replyAddress()));
      }
      bridge.send(new JsonObject().put("type", "publish").put("address", "shepherd.jobs.submit")
          .put("body", new JsonObject().put("payload", 1)));
      String[] refusedOutbound = {"shepherd.jobs.submit", "shepherd.jobs.status",
          "shepherd.jobs.completed", "shepherd.jobs.slot.w-0", "anything"};
      for (String address : refusedOutbound) {
        bridge.send(register(address));
      }
      int expected = refusedInbound.length + refusedOutbound.length;
      await().atMost(5, SECONDS).until(() ->
          bridge.received().stream().filter(EventBusBridgeTest::denied).count() == expected
              && bridge.any(f -> "err".equals(f.getString("type"))
                  && "rejected".equals(f.getString("body"))));
      assertThat(accepted(app)).isZero();
      assertThat(bridge.received()).noneMatch(f -> "rec".equals(f.getString("type")));
    }
  }

  @Test
  void with_a_token_inbound_messages_need_it_in_their_headers() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(
            new JsonObject().put("token", "bridge-token"), WebTestApp.demoPool("jobs", 1)));
        Sockets bridge = Sockets.connect(app.port(), RAW)) {
      JsonObject body = new JsonObject().put("payload", new JsonObject().put("echo", 1));
      bridge.send(send("shepherd.jobs.submit", body, replyAddress()));
      bridge.send(send("shepherd.jobs.submit", body, replyAddress())
          .put("headers", new JsonObject().put("Authorization", "Bearer wrong")));
      bridge.send(send("shepherd.jobs.status", new JsonObject(), replyAddress()));
      await().atMost(5, SECONDS).until(() -> bridge.received().stream()
          .filter(f -> "err".equals(f.getString("type"))
              && "rejected".equals(f.getString("body"))).count() == 3);
      assertThat(accepted(app)).isZero();

      String ok = replyAddress();
      bridge.send(send("shepherd.jobs.submit", body, ok)
          .put("headers", new JsonObject().put("Authorization", "Bearer bridge-token")));
      await().atMost(10, SECONDS).until(() -> bridge.any(f -> ok.equals(f.getString("address"))));
      assertThat(bridge.first(f -> ok.equals(f.getString("address"))).getJsonObject("body")
          .getString("type")).isEqualTo("completed");

      // Receiving events needs no token: they are what the live view shows anyway.
      bridge.send(register("shepherd.jobs.events"));
      await().atMost(5, SECONDS).until(() -> bridge.any(f ->
          "shepherd.jobs.events".equals(f.getString("address"))));
    }
  }

  @Test
  void inbound_addresses_are_configurable_foreign_pages_refused_and_the_bridge_can_be_off() {
    JsonObject statusOnly = new JsonObject().put("bridge",
        new JsonObject().put("inbound", new JsonArray().add("status")));
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(statusOnly,
            WebTestApp.demoPool("jobs", 1)));
        Sockets bridge = Sockets.connect(app.port(), RAW)) {
      bridge.send(send("shepherd.jobs.submit", new JsonObject().put("payload", 1),
          replyAddress()));
      String status = replyAddress();
      bridge.send(send("shepherd.jobs.status", new JsonObject(), status));
      await().atMost(5, SECONDS).until(() -> bridge.any(EventBusBridgeTest::denied)
          && bridge.any(f -> status.equals(f.getString("address"))));
      assertThat(accepted(app)).isZero();
    }
    JsonObject off = new JsonObject().put("bridge", new JsonObject().put("enabled", false));
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 1)))) {
      Throwable foreign = Sockets.refusal(new WebSocketConnectOptions().setHost("127.0.0.1")
          .setPort(app.port()).setURI(RAW).addHeader("Origin", "http://evil.example"));
      assertThat(foreign).isInstanceOf(UpgradeRejectedException.class);
      assertThat(((UpgradeRejectedException) foreign).getStatus()).isEqualTo(403);
      HttpRequest.Builder info = HttpRequest.newBuilder(URI.create(app.url("/eventbus/info")))
          .header("Origin", "http://evil.example");
      assertThat(Http.send(info).status()).isEqualTo(403);
    }
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(off,
        WebTestApp.demoPool("jobs", 1)))) {
      assertThat(Http.get(app.url("/eventbus/info")).status()).isEqualTo(404);
    }
  }
}
