package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.app.OtlpTraceReceiver.Span;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * T1 (docs/rules.md) through the application jar: launched with the OpenTelemetry SDK's own
 * environment pointing at an OTLP/HTTP receiver on loopback, an HTTP submit carrying a W3C {@code
 * traceparent} gets its spans below the caller's span (the server span, then the job's {@code
 * queued} and {@code attempt} spans), and a job retried after a crash has one attempt span per
 * attempt.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TracesJarIT {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CALLER = "00f067aa0ba902b7";
  private static final String RETRIED_TRACE = "0af7651916cd43dd8448eb211c80319c";
  private static final String RETRIED_CALLER = "b7ad6b7169203331";
  private static final Duration SPANS = Duration.ofSeconds(60);
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  private static OtlpTraceReceiver receiver;
  private static Process app;
  private static Path dir;
  private static String base;

  @BeforeAll
  static void launch() throws Exception {
    receiver = new OtlpTraceReceiver();
    Path jar = Path.of(System.getProperty("basedir"), "target", "shepherd.jar");
    assertThat(jar).as("the application jar this build packaged").isRegularFile();
    dir = Files.createTempDirectory("shepherd-traces");
    int port = freePort();
    String conf = new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", port))
        .put("pools", List.of(new JsonObject().put("name", "traced")
            .put("worker", new JsonObject().put("class", "dev.shepherd.demo.DemoWorker")
                .put("instances", 1))
            // A crash is retried; the second stop while running the same job makes it poison.
            .put("interruption", "RETRY")
            .put("maxAttempts", 3)
            .put("poisonAfter", 2)
            .put("retryBackoff", new JsonObject().put("initialMs", 50).put("maxMs", 50))
            .put("supervision", new JsonObject().put("maxRestarts", 10)
                .put("restartWindowMs", 10000)
                .put("restartBackoff", new JsonObject().put("initialMs", 50).put("maxMs", 50)))))
        .encode();
    ProcessBuilder builder = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar.toString(), "-conf", conf)
        .redirectOutput(dir.resolve("stdout").toFile())
        .redirectError(dir.resolve("stderr").toFile());
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(key -> key.startsWith("OTEL_"));
    env.put("OTEL_TRACES_EXPORTER", "otlp");
    env.put("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
    env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + receiver.port());
    env.put("OTEL_SERVICE_NAME", "shepherd-traces-it");
    env.put("OTEL_BSP_SCHEDULE_DELAY", "100");
    app = builder.start();
    base = "http://127.0.0.1:" + port;
    await("the application ready (see " + dir + ")").atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
          assertThat(app.isAlive()).as("the application exited; see " + dir).isTrue();
          return get(base + "/ready").statusCode() == 200;
        });
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (app != null) {
        app.destroy();
        if (!app.waitFor(30, TimeUnit.SECONDS)) {
          app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      }
    } finally {
      if (receiver != null) {
        receiver.close();
      }
    }
  }

  @Test
  void T1_an_http_submit_with_a_traceparent_has_its_spans_below_the_callers_span()
      throws Exception {
    HttpResponse<String> admitted = submit("plain", new JsonObject(), TRACE, CALLER);
    assertThat(admitted.statusCode()).as(admitted.body()).isEqualTo(200);

    Span attempt = awaitSpans("attempt", "plain", 1).get(0);
    Span queued = awaitSpans("queued", "plain", 1).get(0);
    Span server = await("the server span of the submit").atMost(SPANS)
        .until(() -> byId(attempt.parentSpanId()), s -> s != null);

    assertThat(server.traceId()).isEqualTo(TRACE);
    assertThat(server.parentSpanId()).as("the server span is the caller's child")
        .isEqualTo(CALLER);
    assertThat(queued.traceId()).isEqualTo(TRACE);
    assertThat(queued.parentSpanId()).isEqualTo(server.spanId());
    assertThat(attempt.traceId()).isEqualTo(TRACE);
    assertThat(attempt.attribute("shepherd.pool")).isEqualTo("traced");
    assertThat(attempt.attribute("shepherd.attempt")).isEqualTo("1");
    assertThat(attempt.attribute("shepherd.slot")).isNotBlank();
    assertThat(attempt.attribute("shepherd.outcome")).isEqualTo("completed");
    assertThat(queued.attribute("shepherd.outcome")).isEqualTo("dispatched");
  }

  @Test
  void T1_a_job_retried_after_a_crash_has_one_attempt_span_per_attempt() throws Exception {
    HttpResponse<String> admitted = submit("crashy", new JsonObject().put("crash", true),
        RETRIED_TRACE, RETRIED_CALLER);
    assertThat(admitted.statusCode()).as(admitted.body()).isEqualTo(200);
    JsonObject answered = await("job crashy answered").atMost(SPANS)
        .pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .until(() -> new JsonObject(get(base + "/api/pools/traced/jobs/crashy").body()),
            view -> view.getJsonObject("outcome") != null);
    assertThat(answered.getJsonObject("outcome").getString("type")).isEqualTo("interrupted");
    assertThat(answered.getInteger("attempts")).isEqualTo(2);

    List<Span> attempts = awaitSpans("attempt", "crashy", 2);
    assertThat(attempts).extracting(s -> s.attribute("shepherd.attempt"))
        .containsExactlyInAnyOrder("1", "2");
    assertThat(attempts).extracting(Span::traceId).containsOnly(RETRIED_TRACE);
    assertThat(attempts).extracting(s -> s.attribute("shepherd.outcome"))
        .containsOnly("interrupted");
    String parent = attempts.get(0).parentSpanId();
    assertThat(attempts).extracting(Span::parentSpanId).as("both under one parent")
        .containsOnly(parent);
    Span server = await("the server span of the submit").atMost(SPANS)
        .until(() -> byId(parent), s -> s != null);
    assertThat(server.parentSpanId()).as("the server span is the caller's child")
        .isEqualTo(RETRIED_CALLER);
  }

  private static List<Span> awaitSpans(String name, String job, int count) {
    return await(count + " " + name + " span(s) of job " + job + " (see " + dir + ")")
        .atMost(SPANS).pollInterval(Duration.ofMillis(100))
        .until(() -> receiver.spans().stream()
            .filter(s -> name.equals(s.name()) && job.equals(s.attribute("shepherd.job")))
            .toList(), spans -> spans.size() >= count);
  }

  private static Span byId(String spanId) {
    return receiver.spans().stream().filter(s -> s.spanId().equals(spanId)).findFirst()
        .orElse(null);
  }

  private static HttpResponse<String> submit(String job, JsonObject payload, String trace,
      String caller) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(
            URI.create(base + "/api/pools/traced/jobs?wait=false"))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .header("traceparent", "00-" + trace + "-" + caller + "-01")
        .POST(HttpRequest.BodyPublishers.ofString(
            new JsonObject().put("job", job).put("payload", payload).encode()))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
