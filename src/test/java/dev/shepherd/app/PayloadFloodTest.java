package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.runtime.ChildJvm;
import dev.shepherd.testworkers.GateWorker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flood of 1 MiB payloads against the launched application in a JVM with {@code -Xmx256m}
 * whose slots are all busy: first strings, then arrays of empty objects ({@code [{},{},…]}, the
 * shape that costs most once decoded), each until refused. The byte budget ({@code
 * backlogMaxBytes}, by default an eighth of the heap) refuses them with 429 (413 past {@code
 * http.maxBodyBytes}), never 500, and the heap never runs out; afterwards the server serves as
 * before and every accepted job completes once the slots are free.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PayloadFloodTest {
  private static final int MIB = 1 << 20;
  private static final Pattern SERVING = Pattern.compile("serving http://127\\.0\\.0\\.1:(\\d+)/");
  /** A flood gives up (and fails) if this many submits were all accepted. */
  private static final int MAX_SUBMITS = 200;
  private static final int REFUSALS_WANTED = 3;

  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();
  private String base;

  /** A pool of {@code instances} GateWorker slots, each running one job at a time. */
  private static JsonObject pool(String name, int instances) {
    return new JsonObject().put("name", name)
        .put("worker", new JsonObject().put("class", GateWorker.class.getName())
            .put("instances", instances).put("threading", "EVENT_LOOP"))
        .put("jobTimeoutMs", 0);
  }

  /** A submit body of exactly {@code size} bytes whose payload is a string. */
  private static String stringBody(int size) {
    String head = "{\"payload\":\"";
    return head + "x".repeat(size - head.length() - 2) + "\"}";
  }

  /** A submit body of at most {@code size} bytes whose payload is {@code [{},{},…]}. */
  private static String arrayBody(int size) {
    StringBuilder body = new StringBuilder(size).append("{\"payload\":[");
    while (body.length() + 3 + 2 <= size) {
      body.append("{},");
    }
    body.setLength(body.length() - 1);
    return body.append("]}").toString();
  }

  @Test
  void a_flood_of_1MiB_payloads_is_refused_429_or_413_never_500_and_every_accepted_job_completes(
      @TempDir Path dir) throws Exception {
    Path gate = dir.resolve("open");
    Path conf = dir.resolve("flood.json");
    Files.writeString(conf, new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", 0))
        .put("pools", new JsonArray().add(pool("strings", 2)).add(pool("arrays", 1)))
        .encode());

    // The test classpath logs only warnings; the child also logs the line with its port.
    Path logback = dir.resolve("logback.xml");
    Files.writeString(logback, """
        <configuration>
          <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
            <encoder><pattern>%-5level %logger{24} - %msg%n</pattern></encoder>
          </appender>
          <logger name="dev.shepherd.web" level="INFO"/>
          <root level="WARN"><appender-ref ref="OUT"/></root>
        </configuration>
        """);
    try (ChildJvm app = ChildJvm.start(ChildJvm.currentJava(),
        List.of("-Dlogback.configurationFile=" + logback), Main.class, "-conf",
        conf.toString())) {
      base = "http://127.0.0.1:" + awaitPort(app);
      JsonObject hold = new JsonObject().put("payload", new JsonObject().put("gate",
          gate.toString()));
      for (String pool : List.of("strings", "strings", "arrays")) {
        assertThat(post(pool, hold.encode(), false).statusCode()).isEqualTo(200);
      }
      await().atMost(Duration.ofSeconds(20)).until(() -> inFlight("strings") == 2
          && inFlight("arrays") == 1);

      List<Integer> statuses = new ArrayList<>();
      int strings = flood("strings", stringBody(MIB), statuses);
      int arrays = flood("arrays", arrayBody(MIB), statuses);
      statuses.add(post("strings", stringBody(MIB + 1), false).statusCode());
      statuses.add(post("arrays", arrayBody(MIB + 64), false).statusCode());
      assertThat(get("/health").statusCode()).isEqualTo(200);

      assertThat(statuses).as("every refusal is 429 or 413").containsOnly(200, 429, 413)
          .contains(429, 413);
      assertThat(strings).as("1 MiB strings queued").isPositive();
      assertThat(arrays).as("1 MiB [{},…] queued").isPositive();
      assertThat(counter("strings", "accepted")).isEqualTo(2 + strings);
      assertThat(counter("arrays", "accepted")).isEqualTo(1 + arrays);

      Files.createFile(gate);
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() ->
          counter("strings", "completed") == 2 + strings
              && counter("arrays", "completed") == 1 + arrays);
      for (String pool : List.of("strings", "arrays")) {
        JsonObject counters = status(pool).getJsonObject("counters");
        assertThat(counters.getLong("failed") + counters.getLong("interrupted")
            + counters.getLong("cancelled")).as(pool).isZero();
      }

      HttpResponse<String> echo = post("strings", "{\"payload\":{\"small\":1}}", true);
      assertThat(echo.statusCode()).isEqualTo(200);
      assertThat(new JsonObject(echo.body()).getString("type")).isEqualTo("completed");
      assertThat(get("/health").statusCode()).isEqualTo(200);

      String output = app.stdout() + app.stderr();
      assertThat(output).doesNotContain("OutOfMemoryError").doesNotContain("INTERNAL_ERROR");
    }
  }

  /** Submits {@code body} until {@value #REFUSALS_WANTED} refusals; returns how many queued. */
  private int flood(String pool, String body, List<Integer> statuses) throws Exception {
    int accepted = 0;
    int refused = 0;
    for (int i = 0; i < MAX_SUBMITS && refused < REFUSALS_WANTED; i++) {
      HttpResponse<String> response = post(pool, body, false);
      statuses.add(response.statusCode());
      if (response.statusCode() == 200) {
        assertThat(new JsonObject(response.body()).getString("type")).isEqualTo("accepted");
        accepted++;
      } else if (response.statusCode() == 429) {
        JsonObject rejected = new JsonObject(response.body());
        assertThat(rejected.getString("reason")).isEqualTo("BACKLOG_FULL");
        assertThat(rejected.getString("message")).contains("payload bytes");
        refused++;
      } else {
        throw new AssertionError("submit " + i + " to " + pool + ": " + response.statusCode()
            + " " + response.body().substring(0, Math.min(300, response.body().length())));
      }
    }
    assertThat(refused).as("refused within %d submits", MAX_SUBMITS).isEqualTo(REFUSALS_WANTED);
    return accepted;
  }

  private static int awaitPort(ChildJvm app) {
    int[] port = {-1};
    await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(100)).until(() -> {
      Matcher m = SERVING.matcher(app.stdout());
      if (m.find()) {
        port[0] = Integer.parseInt(m.group(1));
      }
      if (!app.isAlive()) {
        throw new AssertionError("the application exited:\n" + app.stdout() + app.stderr());
      }
      return port[0] > 0;
    });
    return port[0];
  }

  private HttpResponse<String> post(String pool, String body, boolean wait) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + "/api/pools/" + pool + "/jobs"
            + (wait ? "" : "?wait=false")))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private JsonObject status(String pool) throws IOException, InterruptedException {
    return new JsonObject(get("/api/pools/" + pool).body());
  }

  private long counter(String pool, String name) throws IOException, InterruptedException {
    return status(pool).getJsonObject("counters").getLong(name);
  }

  private int inFlight(String pool) throws IOException, InterruptedException {
    int total = 0;
    for (Object slot : status(pool).getJsonArray("slots")) {
      total += ((JsonObject) slot).getInteger("inFlight");
    }
    return total;
  }
}
