package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.cluster.ClusterPorts;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The application jar with its wall clock stepped back 60 s under libfaketime (Debian's {@code
 * faketime}, which {@code .ci/run} installs), its monotonic clock left alone: a {@code {"hang":
 * true}} job with {@code timeoutMs} 2000 is still answered {@code TIMEOUT} after about 2 s. When
 * deadlines ran on the wall clock it took 62.5 s; the test asserts the answer came well before 60
 * s could have passed, which says the step was ignored, not how fast the product is.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WallClockStepJarIT {
  private static final Path LIBFAKETIME =
      Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");
  private static final Duration READY = Duration.ofSeconds(60);
  private static final Duration WELL_BEFORE_THE_STEP = Duration.ofSeconds(20);
  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void P14_a_hung_job_times_out_after_its_2_s_though_the_wall_clock_stepped_back_60_s()
      throws Exception {
    assertThat(LIBFAKETIME).as("libfaketime (apt-get install faketime; .ci/run installs it)")
        .isRegularFile();
    Path jar = Path.of(System.getProperty("basedir"), "target", "shepherd.jar");
    assertThat(jar).as("the application jar this build packaged").isRegularFile();
    Path dir = Files.createTempDirectory("shepherd-faketime");
    Path offset = Files.writeString(dir.resolve("faketime"), "+0");
    int port = ClusterPorts.freeHttpPort();
    String conf = new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", port))
        .put("pools", List.of(new JsonObject().put("name", "clock")
            .put("worker", new JsonObject().put("class", "dev.shepherd.demo.DemoWorker")
                .put("instances", 1))
            // Answered at its first stop, so the answer is the timeout itself.
            .put("interruption", "FAIL")))
        .encode();
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar.toString(), "-conf", conf));
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(dir.resolve("stdout").toFile())
        .redirectError(dir.resolve("stderr").toFile());
    builder.environment().put("LD_PRELOAD", LIBFAKETIME.toString());
    builder.environment().put("FAKETIME_TIMESTAMP_FILE", offset.toString());
    builder.environment().put("FAKETIME_NO_CACHE", "1");
    builder.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
    builder.environment().put("NO_FAKE_STAT", "1"); // else the JVM cannot load its classes
    Process app = builder.start();
    try {
      String base = "http://127.0.0.1:" + port;
      awaitReady(base, app, dir);
      HttpResponse<String> admitted = post(base + "/api/pools/clock/jobs?wait=false",
          "{\"job\": \"stuck\", \"payload\": {\"hang\": true}, \"timeoutMs\": 2000}");
      assertThat(admitted.statusCode()).as(admitted.body()).isEqualTo(200);
      awaitState(base, "RUNNING", Duration.ofSeconds(30));

      Files.writeString(offset, "-60");
      long stepped = System.nanoTime();
      JsonObject answered = awaitState(base, "ANSWERED", Duration.ofSeconds(90));
      Duration took = Duration.ofNanos(System.nanoTime() - stepped);

      assertThat(answered.getJsonObject("outcome").getString("type")).isEqualTo("interrupted");
      assertThat(answered.getJsonObject("outcome").getJsonObject("reason").getString("exit"))
          .isEqualTo("TIMEOUT");
      assertThat(answered.getLong("at")).as("the application's wall clock went back by the step"
          + " (the answer's time, as it shows it)").isLessThan(System.currentTimeMillis() - 30_000);
      assertThat(took).as("answered after the step").isLessThan(WELL_BEFORE_THE_STEP);
      System.out.printf("a hung job with timeoutMs 2000 was answered TIMEOUT %d ms after the wall"
          + " clock stepped back 60 s%n", took.toMillis());
    } finally {
      app.destroy();
      if (!app.waitFor(30, TimeUnit.SECONDS)) {
        app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  private void awaitReady(String base, Process app, Path dir) throws Exception {
    long until = System.nanoTime() + READY.toNanos();
    while (System.nanoTime() < until) {
      assertThat(app.isAlive()).as("the application exited; see " + dir).isTrue();
      try {
        if (get(base + "/ready").statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // Not listening yet.
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the application was not ready within " + READY + "; see " + dir);
  }

  /** Polls the job's lookup until its state is {@code state}; returns that lookup. */
  private JsonObject awaitState(String base, String state, Duration within) throws Exception {
    long until = System.nanoTime() + within.toNanos();
    JsonObject last = null;
    while (System.nanoTime() < until) {
      HttpResponse<String> lookup = get(base + "/api/pools/clock/jobs/stuck");
      if (lookup.statusCode() == 200) {
        last = new JsonObject(lookup.body());
        if (state.equals(last.getString("state"))) {
          return last;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("job 'stuck' not " + state + " within " + within + "; last " + last);
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String url, String body)
      throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
