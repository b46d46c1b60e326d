package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.cluster.ClusterPorts;
import dev.shepherd.runtime.ChildJvm;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The launcher {@link Main} in a child JVM: an invalid {@code -conf} exits non-zero printing one
 * line that names the field and the value; SIGTERM stops the application gracefully (P16), the
 * HTTP callers all get their outcome, and the process exits 0.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LauncherTest {
  private static final String DEMO = "\"worker\": {\"class\": \"dev.shepherd.demo.DemoWorker\"}";

  static Stream<Arguments> invalidConfigurations() {
    return Stream.of(
        Arguments.of("{not json", "-conf", "{not json"),
        Arguments.of("/no/such/dir/config.json", "-conf", "/no/such/dir/config.json"),
        Arguments.of("{\"pools\": [{" + DEMO + ", \"backlogCapacity\": -1}]}",
            "pools[0].backlogCapacity", "-1"),
        Arguments.of("{\"pools\": [{\"worker\": {}}]}", "pools[0].worker.class", "null"),
        Arguments.of("{\"pools\": [{\"worker\": {\"class\": \"com.example.Nope\"}}]}",
            "pools[0].worker.class", "com.example.Nope"),
        Arguments.of("{\"pools\": [{\"worker\": {\"class\": \"dev.shepherd.demo.DemoWorker\","
            + " \"threading\": \"FAST\"}}]}", "pools[0].worker.threading", "FAST"),
        Arguments.of("{\"pools\": [{\"name\": \"a\", " + DEMO + "}, {\"name\": \"a\", " + DEMO
            + "}]}", "pools[1].name", "\"a\""),
        Arguments.of("{\"http\": {\"port\": 70000}, \"pools\": [{" + DEMO + "}]}", "http.port",
            "70000"),
        Arguments.of("{\"pools\": [{" + DEMO + ", \"deadLetter\": {\"capacity\": -1}}]}",
            "pools[0].deadLetter.capacity", "-1"),
        Arguments.of("{\"pools\": [{" + DEMO + ", \"retryFailures\": {\"backoff\":"
            + " {\"multiplier\": 0.5}}}]}", "pools[0].retryFailures.backoff.multiplier", "0.5"),
        Arguments.of("{\"pools\": [{" + DEMO + ", \"supervision\": {\"reviveMaxMs\": 1,"
            + " \"reviveAfterMs\": 2}}]}", "pools[0].supervision.reviveMaxMs", "1"),
        Arguments.of("{\"pool\": []}", "pool", "[]"),
        Arguments.of("{\"hosts\": [{\"pool\": \"jobs\", " + DEMO + "}]}", "hosts",
            "-cluster"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalidConfigurations")
  void invalid_configuration_exits_non_zero_printing_one_line_naming_field_and_value(
      String conf, String field, String value) {
    try (ChildJvm child = ChildJvm.start(ChildJvm.currentJava(), Main.class, "-conf", conf)) {
      int status = child.waitFor(Duration.ofSeconds(30));

      List<String> lines = Stream.concat(child.stdout().lines(), child.stderr().lines())
          .filter(line -> !line.isBlank()).toList();
      assertThat(status).isNotZero();
      assertThat(lines).hasSize(1);
      assertThat(lines.get(0)).startsWith("shepherd: invalid configuration: " + field)
          .contains(value);
    }
  }

  @Test
  void P16_sigterm_answers_every_waiting_caller_and_exits_0() throws Exception {
    int port = ClusterPorts.freeHttpPort();
    long drainTimeoutMs = 3_000;
    String conf = new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", port))
        .put("pools", new io.vertx.core.json.JsonArray().add(new JsonObject()
            .put("name", "jobs")
            .put("worker", new JsonObject().put("class", "dev.shepherd.demo.DemoWorker")
                .put("instances", 1))
            .put("drainTimeoutMs", drainTimeoutMs)))
        .encode();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    String base = "http://127.0.0.1:" + port;
    try (ChildJvm app = ChildJvm.start(ChildJvm.currentJava(), Main.class, "-conf", conf)) {
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
          .ignoreExceptions().until(() -> get(http, base + "/health").statusCode() == 200);

      CompletableFuture<HttpResponse<String>> slow = post(http, base, "slow", "{\"sleepMs\": 1500}");
      awaitSnapshot(http, base, s -> s.getJsonArray("slots").getJsonObject(0)
          .getJsonArray("assignments").size() == 1);
      CompletableFuture<HttpResponse<String>> q1 = post(http, base, "q1", "{\"echo\": 1}");
      CompletableFuture<HttpResponse<String>> q2 = post(http, base, "q2", "{\"echo\": 2}");
      awaitSnapshot(http, base, s -> s.getJsonObject("backlog").getInteger("length") == 2);
      long stopping = System.nanoTime();
      app.terminate();

      HttpResponse<String> first = q1.get(10, TimeUnit.SECONDS);
      boolean slowStillRunning = !slow.isDone();
      HttpResponse<String> late = post(http, base, "late", "{\"echo\": 3}")
          .get(10, TimeUnit.SECONDS);
      HttpResponse<String> second = q2.get(10, TimeUnit.SECONDS);
      HttpResponse<String> completed = slow.get(10, TimeUnit.SECONDS);
      int status = app.waitFor(Duration.ofMillis(drainTimeoutMs + 10_000));
      long stoppedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);

      for (HttpResponse<String> queued : List.of(first, second)) {
        assertThat(queued.statusCode()).isEqualTo(503);
        JsonObject outcome = new JsonObject(queued.body());
        assertThat(outcome.getString("type")).isEqualTo("interrupted");
        assertThat(outcome.getJsonObject("reason").getString("kind")).isEqualTo("POOL_STOPPED");
        assertThat(outcome.getJsonObject("payload")).isNotNull();
      }
      assertThat(slowStillRunning).as("queued callers are answered at once").isTrue();
      assertThat(late.statusCode()).isEqualTo(409);
      assertThat(new JsonObject(late.body()).getString("reason")).isEqualTo("SHUTTING_DOWN");
      assertThat(completed.statusCode()).isEqualTo(200);
      assertThat(new JsonObject(completed.body()).getString("type")).isEqualTo("completed");
      assertThat(status).as("stderr:%n%s", app.stderr()).isZero();
      assertThat(stoppedMs).isLessThan(drainTimeoutMs + 5_000);
    }
  }

  private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  private static CompletableFuture<HttpResponse<String>> post(HttpClient http, String base,
      String job, String payload) {
    String body = "{\"job\": \"" + job + "\", \"payload\": " + payload + "}";
    return http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/api/pools/jobs/jobs"))
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void awaitSnapshot(HttpClient http, String base,
      java.util.function.Predicate<JsonObject> condition) {
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
        .until(() -> condition.test(new JsonObject(get(http, base + "/api/pools/jobs").body())));
  }
}
