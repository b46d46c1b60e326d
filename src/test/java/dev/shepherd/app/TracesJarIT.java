package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.app.OtlpTraceReceiver.Span;
import dev.shepherd.cluster.ClusterPorts;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
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

  private static OtlpTraceReceiver receiver;
  private static JarNode app;

  @BeforeAll
  static void launch() throws Exception {
    receiver = new OtlpTraceReceiver();
    JsonObject conf = new JsonObject()
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
                .put("restartBackoff", new JsonObject().put("initialMs", 50).put("maxMs", 50)))));
    app = JarNode.start("traces", conf, ClusterPorts.freeHttpPort(), List.of(),
        JarNode.tracingTo(receiver.port(), "shepherd-traces-it"))
        .awaitReady(Duration.ofSeconds(60));
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (app != null) {
        app.close();
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
    HttpResponse<String> admitted = app.submit("traced", "plain", new JsonObject(), TRACE,
        CALLER);
    assertThat(admitted.statusCode()).as(admitted.body()).isEqualTo(200);

    Span attempt = receiver.await("attempt", "plain", 1, SPANS, app.dir).get(0);
    Span queued = receiver.await("queued", "plain", 1, SPANS, app.dir).get(0);
    Span server = receiver.awaitById(attempt.parentSpanId(), SPANS);

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
    HttpResponse<String> admitted = app.submit("traced", "crashy",
        new JsonObject().put("crash", true), RETRIED_TRACE, RETRIED_CALLER);
    assertThat(admitted.statusCode()).as(admitted.body()).isEqualTo(200);
    JsonObject answered = await("job crashy answered").atMost(SPANS)
        .pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .until(() -> new JsonObject(app.get("/api/pools/traced/jobs/crashy").body()),
            view -> view.getJsonObject("outcome") != null);
    assertThat(answered.getJsonObject("outcome").getString("type")).isEqualTo("interrupted");
    assertThat(answered.getInteger("attempts")).isEqualTo(2);

    List<Span> attempts = receiver.await("attempt", "crashy", 2, SPANS, app.dir);
    assertThat(attempts).extracting(s -> s.attribute("shepherd.attempt"))
        .containsExactlyInAnyOrder("1", "2");
    assertThat(attempts).extracting(Span::traceId).containsOnly(RETRIED_TRACE);
    assertThat(attempts).extracting(s -> s.attribute("shepherd.outcome"))
        .containsOnly("interrupted");
    String parent = attempts.get(0).parentSpanId();
    assertThat(attempts).extracting(Span::parentSpanId).as("both under one parent")
        .containsOnly(parent);
    Span server = receiver.awaitById(parent, SPANS);
    assertThat(server.parentSpanId()).as("the server span is the caller's child")
        .isEqualTo(RETRIED_CALLER);
  }
}
