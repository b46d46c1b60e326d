package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.access.BusPoolHandle;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.PoolFixture;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Section 10's submit fields over HTTP ({@code POST /api/pools/<name>/jobs}), to a pool of this
 * node ({@code near}, the in-JVM handle) and to one reached over the bus ({@code far}, as a pool
 * coordinated on another node is): {@code delayMs} (J4) and {@code retry} (J3) reach the pool,
 * and a delay beyond the pool's {@code maxDelayMs}, which only the pool knows, is answered 400
 * naming {@code delayMs} and the limit, changing nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SubmitFieldsHttpTest {
  private static final long MAX_DELAY_MS = 60_000;
  /** Longer than any pause between two requests sent one after the other. */
  private static final long DELAY_MS = 1_000;

  private final HttpClient client = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final MapPoolDirectory directory = new MapPoolDirectory();
  private Vertx vertx;
  private WebServer server;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    for (String name : List.of("near", "far")) {
      PoolFixture.deployReady(vertx, PoolFixture.demoPool(name, 1)
          .put("maxDelayMs", MAX_DELAY_MS));
    }
    directory.put(LocalPools.handle(vertx, "near"));
    directory.put(new BusPoolHandle(vertx, "far", Addresses.forPool("far"), "node-x", 20_000,
        20_000));
    server = new WebServer(vertx, new HttpConfig("127.0.0.1", 0, 1 << 20, null), directory);
    ClusteredWebNode.join(server.start(), 10);
  }

  @AfterAll
  void stop() {
    ClusteredWebNode.join(vertx.close(), 10);
  }

  private String jobs(String pool) {
    return "http://127.0.0.1:" + server.port() + "/api/pools/" + pool + "/jobs";
  }

  private CompletableFuture<HttpResponse<String>> post(String url, JsonObject body) {
    return client.sendAsync(HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> send(String url, JsonObject body) {
    return post(url, body).orTimeout(30, TimeUnit.SECONDS).join();
  }

  private JsonObject snapshot(String pool) {
    Http.Response r = Http.get("http://127.0.0.1:" + server.port() + "/api/pools/" + pool);
    assertThat(r.status()).isEqualTo(200);
    return r.json();
  }

  @ParameterizedTest
  @ValueSource(strings = {"near", "far"})
  void J4_over_HTTP_a_delayed_job_runs_after_an_undelayed_one_submitted_after_it(String pool) {
    List<String> order = new CopyOnWriteArrayList<>();

    CompletableFuture<HttpResponse<String>> late = post(jobs(pool), new JsonObject()
        .put("job", pool + "-late").put("payload", new JsonObject().put("echo", 1))
        .put("delayMs", DELAY_MS)).whenComplete((r, e) -> order.add("late"));
    CompletableFuture<HttpResponse<String>> early = post(jobs(pool), new JsonObject()
        .put("job", pool + "-early").put("payload", new JsonObject().put("echo", 2)))
        .whenComplete((r, e) -> order.add("early"));
    CompletableFuture.allOf(late, early).orTimeout(30, TimeUnit.SECONDS).join();

    for (HttpResponse<String> r : List.of(late.join(), early.join())) {
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(new JsonObject(r.body()).getString("type")).isEqualTo("completed");
    }
    assertThat(order).containsExactly("early", "late");
  }

  @ParameterizedTest
  @ValueSource(strings = {"near", "far"})
  void J4_over_HTTP_a_delayed_job_is_accepted_at_once_and_can_be_cancelled(String pool) {
    HttpResponse<String> admitted = send(jobs(pool) + "?wait=false", new JsonObject()
        .put("job", pool + "-parked").put("payload", 1).put("delayMs", MAX_DELAY_MS));

    assertThat(admitted.statusCode()).as(admitted.body()).isEqualTo(200);
    assertThat(new JsonObject(admitted.body()))
        .isEqualTo(new JsonObject().put("type", "accepted").put("job", pool + "-parked"));
    assertThat(snapshot(pool).getJsonObject("backlog").getInteger("waiting")).isEqualTo(1);
    Http.Response cancel = Http.delete(jobs(pool) + "/" + pool + "-parked", null);
    assertThat(cancel.json().getBoolean("cancelled")).isTrue();
    assertThat(snapshot(pool).getJsonObject("backlog").getInteger("waiting")).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"near", "far"})
  void J4_a_delay_beyond_the_pools_maxDelayMs_is_400_naming_delayMs_and_the_limit(String pool) {
    JsonObject before = snapshot(pool);

    for (String wait : List.of("", "?wait=false")) {
      HttpResponse<String> r = send(jobs(pool) + wait, new JsonObject().put("payload", 1)
          .put("delayMs", MAX_DELAY_MS + 1));

      assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
      JsonObject error = new JsonObject(r.body());
      assertThat(error.getString("error")).isEqualTo("BAD_REQUEST");
      assertThat(error.getString("message")).startsWith("delayMs:")
          .contains(String.valueOf(MAX_DELAY_MS));
    }
    assertThat(snapshot(pool)).isEqualTo(before);
  }

  @ParameterizedTest
  @ValueSource(strings = {"near", "far"})
  void J3_over_HTTP_a_submits_retry_reaches_the_pool(String pool) {
    HttpResponse<String> r = send(jobs(pool), new JsonObject()
        .put("payload", new JsonObject().put("fail", "downstream said no"))
        .put("retry", new JsonObject().put("maxAttempts", 2)
            .put("backoff", new JsonObject().put("initialMs", 0))));

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonObject failed = new JsonObject(r.body());
    assertThat(failed.getString("type")).isEqualTo("failed");
    assertThat(failed.getInteger("attempts")).isEqualTo(2);
  }
}
