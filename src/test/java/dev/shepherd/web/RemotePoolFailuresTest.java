package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.access.BusPoolHandle;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the HTTP API and the live view answer when a pool reached over the bus gives no answer
 * (section 8.4), with stand-ins for remote pools: one whose addresses nobody consumes any more
 * (it left), one that never answers, one that answers what is not protocol v1, and one that
 * refuses. Each gets a JSON error naming what happened, never a hang or a 500.
 */
class RemotePoolFailuresTest {
  private static final long TIMEOUT_MS = 300;

  private Vertx vertx;
  private WebServer server;

  private final MapPoolDirectory directory = new MapPoolDirectory();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    for (String name : List.of("gone", "silent", "garbled", "refusing")) {
      directory.put(new BusPoolHandle(vertx, name, new Addresses("remote." + name),
          "node-x", TIMEOUT_MS, TIMEOUT_MS));
    }
    var bus = vertx.eventBus();
    for (String suffix : List.of("submit", "status", "cancel", "rebalance")) {
      bus.consumer("remote.silent." + suffix, message -> { });
    }
    bus.consumer("remote.garbled.status", message -> message.reply("not a snapshot"));
    bus.consumer("remote.garbled.submit", message -> message.reply(new JsonObject()
        .put("type", "exploded")));
    bus.consumer("remote.refusing.submit",
        message -> message.fail(400, "payload: nested more than 2 levels deep"));
    bus.consumer("remote.refusing.rebalance",
        message -> message.fail(409, "UNKNOWN_WORKER: no slot w-9"));
    bus.consumer("remote.refusing.cancel", message -> message.reply(new JsonObject()
        .put("job", "j1").put("cancelled", true)));
    bus.consumer("remote.refusing.status", message -> message.fail(500, "it broke"));
    server = new WebServer(vertx, new HttpConfig("127.0.0.1", 0, 1 << 20, null), directory);
    ClusteredWebNode.join(server.start(), 10);
  }

  @AfterEach
  void stop() {
    ClusteredWebNode.join(vertx.close(), 10);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.port() + path;
  }

  private void assertError(Http.Response r, int status, String error) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    assertThat(r.json().getString("error")).isEqualTo(error);
    assertThat(r.json().getString("message")).isNotBlank();
  }

  @Test
  void a_pool_that_left_while_asked_is_unknown() {
    assertError(Http.get(url("/api/pools/gone")), 404, "UNKNOWN_POOL");
    assertError(Http.post(url("/api/pools/gone/jobs"), "{\"payload\":1}"), 404, "UNKNOWN_POOL");
    assertError(Http.delete(url("/api/pools/gone/jobs/j1"), null), 404, "UNKNOWN_POOL");
  }

  @Test
  void a_pool_that_does_not_answer_in_time_is_a_gateway_timeout() {
    assertError(Http.get(url("/api/pools/silent")), 504, "POOL_TIMEOUT");
    assertError(Http.post(url("/api/pools/silent/jobs"), "{\"payload\":1}"), 504,
        "POOL_TIMEOUT");
    assertError(Http.post(url("/api/pools/silent/rebalance"),
        "{\"key\":\"k\",\"worker\":\"w-0\"}"), 504, "POOL_TIMEOUT");
  }

  @Test
  void an_answer_that_is_not_protocol_v1_or_a_failure_of_the_pool_is_a_bad_gateway() {
    assertError(Http.get(url("/api/pools/garbled")), 502, "POOL_UNREACHABLE");
    assertError(Http.post(url("/api/pools/garbled/jobs"), "{\"payload\":1}"), 502,
        "POOL_UNREACHABLE");
    assertError(Http.get(url("/api/pools/refusing")), 502, "POOL_UNREACHABLE");
  }

  @Test
  void the_pools_refusals_pass_through_as_they_would_for_a_local_pool() {
    Http.Response deep = Http.post(url("/api/pools/refusing/jobs"), "{\"payload\":[[[1]]]}");
    assertError(deep, 400, "BAD_REQUEST");
    assertThat(deep.json().getString("message")).startsWith("payload:");
    assertError(Http.post(url("/api/pools/refusing/rebalance"),
        "{\"key\":\"k\",\"worker\":\"w-9\"}"), 409, "UNKNOWN_WORKER");
    assertThat(Http.delete(url("/api/pools/refusing/jobs/j1"), null).json())
        .isEqualTo(new JsonObject().put("job", "j1").put("cancelled", true));
  }

  @Test
  void the_list_leaves_out_a_pool_that_left_and_marks_one_that_does_not_answer() {
    Http.Response list = Http.get(url("/api/pools"));

    assertThat(list.status()).isEqualTo(200);
    Map<String, JsonObject> byName = new TreeMap<>();
    list.json().getJsonArray("pools").forEach(p ->
        byName.put(((JsonObject) p).getString("name"), (JsonObject) p));
    assertThat(byName).containsOnlyKeys("garbled", "refusing", "silent");
    assertThat(byName.values()).allSatisfy(p ->
        assertThat(p.getString("unreachable")).isNotBlank());
  }

  @Test
  void the_live_view_of_a_pool_that_gives_no_snapshot_is_closed_not_left_waiting() {
    try (Sockets live = Sockets.connect(server.port(), "/api/pools/silent/events")) {
      await().atMost(10, SECONDS).until(live::closed);
      assertThat(live.received()).isEmpty();
      assertThat(live.closeStatus()).isEqualTo((short) 1011);
    }
  }
}
