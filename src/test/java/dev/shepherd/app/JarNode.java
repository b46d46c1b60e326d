package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One process of the application jar this build packaged, for integration tests: started with a
 * configuration and environment of the test's, its output in files of a directory of its own, its
 * HTTP API (when it serves one) on loopback; stopped gracefully, or killed with {@code kill -9}.
 */
final class JarNode implements AutoCloseable {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  final String name;
  final Path dir;
  final Process process;
  /** {@code http://127.0.0.1:<port>}, or null when the node serves no HTTP. */
  final String base;

  private JarNode(String name, Path dir, Process process, String base) {
    this.name = name;
    this.dir = dir;
    this.process = process;
    this.base = base;
  }

  /**
   * Starts the jar as {@code name} with {@code conf} (its {@code http} set to loopback and {@code
   * httpPort} unless {@code httpPort} is 0, which turns HTTP off), the arguments {@code args}
   * before {@code -conf}, and {@code env} added to this JVM's environment, from which every
   * {@code OTEL_} variable is removed.
   */
  static JarNode start(String name, JsonObject conf, int httpPort, List<String> args,
      Map<String, String> env) throws IOException {
    Path jar = Path.of(System.getProperty("basedir"), "target", "shepherd.jar");
    assertThat(jar).as("the application jar this build packaged").isRegularFile();
    Path dir = Files.createTempDirectory("shepherd-" + name);
    JsonObject config = conf.copy().put("http", httpPort == 0
        ? new JsonObject().put("enabled", false)
        : new JsonObject().put("host", "127.0.0.1").put("port", httpPort));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        jar.toString()));
    command.addAll(args);
    command.addAll(List.of("-conf", config.encode()));
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(dir.resolve("stdout").toFile())
        .redirectError(dir.resolve("stderr").toFile());
    builder.environment().keySet().removeIf(key -> key.startsWith("OTEL_"));
    builder.environment().putAll(env);
    return new JarNode(name, dir, builder.start(),
        httpPort == 0 ? null : "http://127.0.0.1:" + httpPort);
  }

  /**
   * The OpenTelemetry SDK's own environment sending this node's spans, as {@code service}, to an
   * OTLP/HTTP receiver on loopback {@code port}, in batches 100 ms apart.
   */
  static Map<String, String> tracingTo(int port, String service) {
    return Map.of("OTEL_TRACES_EXPORTER", "otlp",
        "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + port,
        "OTEL_SERVICE_NAME", service,
        "OTEL_BSP_SCHEDULE_DELAY", "100");
  }

  /** Waits until {@code /ready} answers 200 (failing at once should the process exit). */
  JarNode awaitReady(Duration atMost) {
    await(name + " ready (see " + dir + ")").atMost(atMost)
        .pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
          assertThat(process.isAlive()).as(name + " exited; see " + dir).isTrue();
          return get("/ready").statusCode() == 200;
        });
    return this;
  }

  /** What the node wrote to its standard output so far. */
  String stdout() throws IOException {
    return Files.readString(dir.resolve("stdout"));
  }

  /**
   * Submits {@code job} to {@code pool} over HTTP without waiting for its outcome, as a caller
   * whose span {@code caller} of trace {@code trace} is sampled ({@code traceparent}).
   */
  HttpResponse<String> submit(String pool, String job, JsonObject payload, String trace,
      String caller) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(
            URI.create(base + "/api/pools/" + pool + "/jobs?wait=false"))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .header("traceparent", "00-" + trace + "-" + caller + "-01")
        .POST(HttpRequest.BodyPublishers.ofString(
            new JsonObject().put("job", job).put("payload", payload).encode()))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** {@code kill -9}: the process ends at once, with no goodbye to the cluster. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
  }

  /** Stops the process (SIGTERM, then SIGKILL after 30 s); nothing when it already ended. */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        kill();
      }
    }
  }
}
