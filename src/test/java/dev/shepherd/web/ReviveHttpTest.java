package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/pools/<name>/slots/<id>/restart} in the running application: a retired slot
 * back in service (S2: not charged to the budget), the refusals by name, the token and origin
 * checks every state-changing request passes, {@code shepherd_revives_total{by}}, and {@code
 * revive} through the SockJS bridge when configured. Malformed requests are in {@link
 * MalformedInputTest}.
 */
class ReviveHttpTest {
  private final AtomicInteger replies = new AtomicInteger();

  /** Two slots and a budget of no restart: one crash retires a slot. */
  private static JsonObject brittle(String name) {
    return WebTestApp.demoPool(name, 2).put("supervision", new JsonObject().put("maxRestarts", 0));
  }

  private static String restartPath(String pool, String slot) {
    return "/api/pools/" + pool + "/slots/" + slot + "/restart";
  }

  private static JsonObject status(WebTestApp app, String pool) {
    return Http.get(app.url("/api/pools/" + pool)).json();
  }

  private static JsonObject slot(JsonObject status, String id) {
    return status.getJsonArray("slots").stream().map(JsonObject.class::cast)
        .filter(s -> id.equals(s.getString("id"))).findFirst().orElseThrow();
  }

  /** Crashes a job (FAIL interruption) and returns the slot the budget retired. */
  private static String retireOne(WebTestApp app, String pool) {
    return retireOne(app, pool, null);
  }

  private static String retireOne(WebTestApp app, String pool, String authorization) {
    Http.post(app.url("/api/pools/" + pool + "/jobs"), "{\"payload\":{\"crash\":true}}",
        authorization);
    String[] retired = new String[1];
    await().atMost(10, SECONDS).until(() -> {
      for (Object o : status(app, pool).getJsonArray("slots")) {
        JsonObject s = (JsonObject) o;
        if ("RETIRED".equals(s.getString("phase"))) {
          retired[0] = s.getString("id");
          return true;
        }
      }
      return false;
    });
    return retired[0];
  }

  private static double revives(WebTestApp app, String pool, String by) {
    return Prometheus.value(Http.get(app.url("/metrics")).body(), "shepherd_revives_total",
        "pool", pool, "by", by);
  }

  @Test
  void S2_an_operator_restarts_a_retired_slot_and_the_budget_is_not_charged() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, brittle("fragile")))) {
      String retired = retireOne(app, "fragile");
      JsonObject before = status(app, "fragile");
      assertThat(revives(app, "fragile", "operator")).isZero();

      Http.Response r = Http.post(app.url(restartPath("fragile", retired)), "");

      assertThat(r.status()).as(r.body()).isEqualTo(200);
      assertThat(r.json()).isEqualTo(new JsonObject().put("worker", retired)
          .put("incarnation", 2));
      await().atMost(10, SECONDS).until(() ->
          "IDLE".equals(slot(status(app, "fragile"), retired).getString("phase")));
      JsonObject after = status(app, "fragile");
      assertThat(slot(after, retired).getInteger("incarnation")).isEqualTo(2);
      assertThat(after.getJsonObject("budget")).isEqualTo(before.getJsonObject("budget"));
      assertThat(after.getJsonObject("counters").getLong("restarts"))
          .isEqualTo(before.getJsonObject("counters").getLong("restarts"));
      assertThat(after.getJsonObject("counters").getLong("revives")).isEqualTo(1);
      assertThat(revives(app, "fragile", "operator")).isEqualTo(1);
      assertThat(revives(app, "fragile", "reviveAfterMs")).isZero();

      Http.Response again = Http.post(app.url(restartPath("fragile", retired)), "{}");
      assertThat(again.status()).isEqualTo(409);
      assertThat(again.json().getString("error")).isEqualTo("REVIVE_REFUSED");
      assertThat(again.json().getString("message")).contains(retired, "IDLE, not retired");
    }
  }

  @Test
  void a_host_slot_id_is_written_with_its_slash_encoded() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, brittle("fragile")))) {
      Http.Response r = Http.post(app.url(restartPath("fragile", "h1%2Fw-0")), "");
      assertThat(r.status()).isEqualTo(409);
      assertThat(r.json().getString("error")).isEqualTo("UNKNOWN_WORKER");
      assertThat(r.json().getString("message")).contains("'h1/w-0'");
    }
  }

  @Test
  void with_a_token_a_restart_needs_it_and_pages_of_other_origins_are_refused() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(
        new JsonObject().put("token", "op-token"), brittle("guarded")))) {
      String retired = retireOne(app, "guarded", "Bearer op-token");
      String url = app.url(restartPath("guarded", retired));
      assertThat(Http.post(url, "").status()).isEqualTo(401);
      assertThat(Http.post(url, "", "Bearer wrong").status()).isEqualTo(401);
      HttpRequest.Builder foreign = HttpRequest.newBuilder(URI.create(url))
          .header("Origin", "http://evil.example").header("Authorization", "Bearer op-token")
          .POST(HttpRequest.BodyPublishers.noBody());
      assertThat(Http.send(foreign).status()).isEqualTo(403);
      HttpRequest.Builder crossSite = HttpRequest.newBuilder(URI.create(url))
          .header("Sec-Fetch-Site", "cross-site").header("Authorization", "Bearer op-token")
          .POST(HttpRequest.BodyPublishers.noBody());
      assertThat(Http.send(crossSite).status()).isEqualTo(403);
      assertThat(slot(status(app, "guarded"), retired).getString("phase")).isEqualTo("RETIRED");

      Http.Response ok = Http.post(url, "", "Bearer op-token");
      assertThat(ok.status()).isEqualTo(200);
      assertThat(ok.json().getInteger("incarnation")).isEqualTo(2);
    }
  }

  @Test
  void S2_reviveAfterMs_brings_a_slot_back_by_itself_and_is_counted_by_reviveAfterMs() {
    JsonObject pool = brittle("breaker");
    pool.getJsonObject("supervision").put("reviveAfterMs", 200);
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, pool))) {
      String retired = retireOne(app, "breaker");
      await().atMost(10, SECONDS).until(() ->
          "IDLE".equals(slot(status(app, "breaker"), retired).getString("phase")));
      assertThat(slot(status(app, "breaker"), retired).getInteger("incarnation")).isEqualTo(2);
      assertThat(revives(app, "breaker", "reviveAfterMs")).isEqualTo(1);
      assertThat(revives(app, "breaker", "operator")).isZero();
    }
  }

  private JsonObject bridgeRevive(String worker, String replyAddress) {
    return new JsonObject().put("type", "send").put("address", "shepherd.fragile.revive")
        .put("body", new JsonObject().put("worker", worker)).put("replyAddress", replyAddress);
  }

  @Test
  void the_bridge_lets_revive_in_only_when_configured() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, brittle("fragile")));
        Sockets bridge = Sockets.connect(app.port(), "/eventbus/websocket")) {
      String retired = retireOne(app, "fragile");
      bridge.send(bridgeRevive(retired, "r-" + replies.incrementAndGet()));
      await().atMost(5, SECONDS).until(() -> bridge.any(f -> "err".equals(f.getString("type"))
          && "access_denied".equals(f.getString("body"))));
      assertThat(slot(status(app, "fragile"), retired).getString("phase")).isEqualTo("RETIRED");
    }
    JsonObject withRevive = new JsonObject().put("bridge", new JsonObject()
        .put("inbound", new JsonArray().add("status").add("revive")));
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(withRevive, brittle("fragile")));
        Sockets bridge = Sockets.connect(app.port(), "/eventbus/websocket")) {
      String retired = retireOne(app, "fragile");
      String reply = "r-" + replies.incrementAndGet();
      bridge.send(bridgeRevive(retired, reply));
      await().atMost(10, SECONDS).until(() -> bridge.any(f -> reply.equals(f.getString("address"))));
      assertThat(bridge.first(f -> reply.equals(f.getString("address"))).getJsonObject("body"))
          .isEqualTo(new JsonObject().put("worker", retired).put("incarnation", 2));
    }
  }
}
