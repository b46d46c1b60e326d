package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.trace.TraceFixture;
import dev.shepherd.runtime.trace.Tracing;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * T1 (docs/rules.md) over HTTP: a submit carrying a W3C {@code traceparent} header gets the server
 * span Vert.x opens for the request under the caller's span, and the job's spans under that one.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JobTracesHttpTest {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CALLER = "00f067aa0ba902b7";

  private final HttpClient client = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final TraceFixture traces = new TraceFixture();
  private Vertx vertx;

  @AfterEach
  void stop() {
    ClusteredWebNode.join(vertx.close(), 10);
    traces.close();
  }

  @Test
  void T1_an_http_submit_with_a_traceparent_header_parents_the_jobs_spans_under_the_caller()
      throws Exception {
    vertx = traces.vertx();
    PoolFixture.deployReady(vertx, PoolFixture.demoPool("web", 1));
    MapPoolDirectory directory = new MapPoolDirectory();
    directory.put(LocalPools.handle(vertx, "web"));
    WebServer server = new WebServer(vertx, new HttpConfig("127.0.0.1", 0, 1 << 20, null),
        directory);
    ClusteredWebNode.join(server.start(), 10);

    HttpResponse<String> response = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + "/api/pools/web/jobs"))
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("traceparent", "00-" + TRACE + "-" + CALLER + "-01")
        .POST(HttpRequest.BodyPublishers.ofString(
            new JsonObject().put("job", "h1").put("payload", new JsonObject()).encode()))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isLessThan(300);

    SpanData attempt = traces.await(Tracing.ATTEMPT, 1).get(0);
    SpanData queued = traces.await(Tracing.QUEUED, 1).get(0);
    assertThat(attempt.getTraceId()).isEqualTo(TRACE);
    assertThat(queued.getTraceId()).isEqualTo(TRACE);
    assertThat(attempt.getAttributes().get(Tracing.JOB)).isEqualTo("h1");
    SpanData request = traces.byId(attempt.getParentSpanId());
    assertThat(request.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(request.getParentSpanId()).isEqualTo(CALLER);
    assertThat(queued.getParentSpanId()).isEqualTo(request.getSpanId());
  }
}
