package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.runtime.access.BusPoolHandle;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a node answers about a pool whose coordinator died (A1 in docs/rules.md): the bus keeps a
 * killed node's consumers until the cluster removes the node, so a status sent in that moment
 * reaches nobody. Here a consumer that never answers stands for the dead node's; the directory's
 * word that the node left ({@link BusPoolHandle#nodeLeft}) must end what waits for it at once, as
 * {@code 503 NO_LEADER} for a highly available pool, and no answer may show a bus address.
 */
class NoLeaderAnswersTest {
  /** Longer than any test waits: an answer that comes is not a timeout's. */
  private static final long NEVER_MS = 120_000;

  private Vertx vertx;
  private WebServer server;
  private BusPoolHandle ha;
  private BusPoolHandle plain;
  private final List<String> heard = new CopyOnWriteArrayList<>();
  private final MapPoolDirectory directory = new MapPoolDirectory();
  private final HttpClient client = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    ha = new BusPoolHandle(vertx, "ha", new Addresses("dead.ha"), "node-dead", NEVER_MS,
        NEVER_MS).awaitingLeader(10_000);
    plain = new BusPoolHandle(vertx, "plain", new Addresses("dead.plain"), "node-dead",
        NEVER_MS, NEVER_MS);
    directory.put(ha);
    directory.put(plain);
    for (String prefix : List.of("dead.ha", "dead.plain")) {
      for (String suffix : List.of("status", "job", "dead.list", "dead.get")) {
        vertx.eventBus().consumer(prefix + "." + suffix, message -> heard.add(prefix));
      }
    }
    server = new WebServer(vertx, new HttpConfig("127.0.0.1", 0, 1 << 20, null), directory);
    ClusteredWebNode.join(server.start(), 10);
  }

  @AfterEach
  void stop() {
    ClusteredWebNode.join(vertx.close(), 10);
  }

  private CompletableFuture<HttpResponse<String>> get(String path) {
    return client.sendAsync(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertNoBusAddress(String body) {
    assertThat(body).doesNotContain("__vertx").doesNotContain("dead.ha")
        .doesNotContain("dead.plain");
  }

  @Test
  void A1_a_status_waiting_on_a_dead_leader_answers_503_NO_LEADER_as_soon_as_its_node_leaves()
      throws Exception {
    CompletableFuture<HttpResponse<String>> status = get("/api/pools/ha");
    CompletableFuture<HttpResponse<String>> lookup = get("/api/pools/ha/jobs/j1");
    CompletableFuture<HttpResponse<String>> waiting = get("/api/pools/ha/jobs/j1?wait=true");
    CompletableFuture<HttpResponse<String>> dead = get("/api/pools/ha/dead");
    await().atMost(10, SECONDS).until(() -> heard.size() == 4);
    assertThat(status.isDone()).isFalse();

    ha.nodeLeft();

    for (CompletableFuture<HttpResponse<String>> answer : List.of(status, lookup, waiting, dead)) {
      HttpResponse<String> r = answer.get(20, SECONDS);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
      assertThat(new JsonObject(r.body()).getString("error")).isEqualTo("NO_LEADER");
      assertThat(r.headers().firstValue("Retry-After")).contains("1");
      assertNoBusAddress(r.body());
    }
    // Asked after the node left, the same handle answers at once, without asking the bus.
    int asked = heard.size();
    HttpResponse<String> again = get("/api/pools/ha").get(20, SECONDS);
    assertThat(again.statusCode()).isEqualTo(503);
    assertThat(heard).hasSize(asked);
  }

  @Test
  void a_pool_without_standbys_whose_node_left_while_asked_is_unknown_at_once() throws Exception {
    CompletableFuture<HttpResponse<String>> status = get("/api/pools/plain");
    await().atMost(10, SECONDS).until(() -> heard.contains("dead.plain"));

    plain.nodeLeft();

    HttpResponse<String> r = status.get(20, SECONDS);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(404);
    assertThat(new JsonObject(r.body()).getString("error")).isEqualTo("UNKNOWN_POOL");
    assertNoBusAddress(r.body());
  }

  @Test
  void A1_a_status_through_a_leaderless_handle_that_only_a_dead_nodes_consumer_takes_is_503()
      throws Exception {
    BusPoolHandle leaderless = new BusPoolHandle(vertx, "between", new Addresses("dead.between"),
        null, NEVER_MS, NEVER_MS).awaitingLeader(10_000).leaderless();
    directory.put(leaderless);
    vertx.eventBus().consumer("dead.between.status", message -> heard.add("dead.between"));

    HttpResponse<String> r = get("/api/pools/between").get(20, SECONDS);

    assertThat(heard).contains("dead.between");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
    assertThat(new JsonObject(r.body()).getString("error")).isEqualTo("NO_LEADER");
    assertThat(r.headers().firstValue("Retry-After")).contains("1");
    assertThat(r.body()).doesNotContain("__vertx").doesNotContain("dead.between");
  }

  @Test
  void a_timeout_names_the_pool_and_no_bus_address() {
    BusPoolHandle silent = new BusPoolHandle(vertx, "silent", new Addresses("dead.silent"),
        "node-x", 200, 200);
    directory.put(silent);
    vertx.eventBus().consumer("dead.silent.status", message -> { });

    Http.Response r = Http.get("http://127.0.0.1:" + server.port() + "/api/pools/silent");

    assertThat(r.status()).isEqualTo(504);
    assertThat(r.json().getString("message")).isEqualTo("pool 'silent' did not answer in time");
    assertThat(r.body()).doesNotContain("__vertx").doesNotContain("dead.silent");
  }

  @Test
  void health_and_the_pool_list_say_no_node_leads_and_name_no_bus_address() throws Exception {
    ha.nodeLeft();
    plain.nodeLeft();

    HttpResponse<String> health = get("/health").get(20, SECONDS);
    HttpResponse<String> list = get("/api/pools").get(20, SECONDS);

    JsonObject checks = new JsonObject();
    new JsonObject(health.body()).getJsonArray("checks").stream().map(JsonObject.class::cast)
        .forEach(c -> checks.put(c.getString("id"), c));
    assertThat(health.statusCode()).as("the pool without standbys is down").isEqualTo(503);
    assertThat(checks.getJsonObject("ha").getString("status")).isEqualTo("UP");
    assertThat(checks.getJsonObject("ha").getJsonObject("data").getString("leader"))
        .isEqualTo("none now");
    assertThat(checks.getJsonObject("plain").getString("status")).isEqualTo("DOWN");
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(list.body()).getJsonArray("pools")).hasSize(1);
    assertThat(new JsonObject(list.body()).getJsonArray("pools").getJsonObject(0)
        .getString("name")).isEqualTo("ha");
    assertNoBusAddress(health.body());
    assertNoBusAddress(list.body());
  }
}
