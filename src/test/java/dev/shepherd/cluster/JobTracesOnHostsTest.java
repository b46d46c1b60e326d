package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.trace.TraceFixture.assertChild;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.cluster.hosts.HostAgent;
import dev.shepherd.cluster.hosts.HostConfig;
import dev.shepherd.core.ConfigException;
import dev.shepherd.core.Outcome;
import dev.shepherd.demo.DemoWorker;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.trace.TraceFixture;
import dev.shepherd.runtime.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * T1 (docs/rules.md) on a worker host: the assignment carries the submitter's trace as W3C
 * {@code traceparent}, and the host opens the attempt's span under the caller's span.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JobTracesOnHostsTest {
  private final TraceFixture traces = new TraceFixture();
  private final List<ConfigException> refusals = new CopyOnWriteArrayList<>();
  private Vertx vertx;

  @AfterEach
  void stop() {
    ClusteredVertx.close(vertx);
    traces.close();
  }

  @Test
  void T1_a_job_run_on_a_worker_host_has_its_attempt_span_under_the_caller() {
    vertx = ClusteredVertx.start(ClusterPorts.uniqueName("traces"), ClusterPorts.freeBase(), 1,
        new OpenTelemetryTracingFactory(traces.sdk));
    JsonObject pool = PoolFixture.demoPool("tp", 0);
    PoolFixture.deploy(vertx, pool);
    JsonObject json = new JsonObject().put("pool", "tp").put("id", "h1").put("heartbeatMs", 200)
        .put("worker", new JsonObject().put("class", DemoWorker.class.getName())
            .put("instances", 1).put("maxConcurrency", 1).put("threading", "EVENT_LOOP"));
    join(vertx.deployVerticle(
        new HostAgent(HostConfig.parse(json, "hosts[0]", "unused"), refusals::add)));
    awaitStatus(vertx, "tp", s -> s.getJsonArray("slots").stream().map(JsonObject.class::cast)
        .anyMatch(slot -> "h1".equals(slot.getString("host"))
            && "IDLE".equals(slot.getString("phase"))));

    Span caller = traces.caller("caller");
    Outcome outcome;
    try (Scope scope = caller.makeCurrent()) {
      outcome = join(PoolClient.create(vertx, "tp")
          .outcome(JobRequest.of(echo("far")).withJob("hj1")));
    } finally {
      caller.end();
    }

    assertThat(outcome).isInstanceOf(Outcome.Completed.class);
    SpanData attempt = traces.await(Tracing.ATTEMPT, 1).get(0);
    assertChild(attempt, caller);
    assertThat(attempt.getAttributes().get(Tracing.SLOT)).isEqualTo("h1/w-0");
    assertThat(attempt.getAttributes().get(Tracing.JOB)).isEqualTo("hj1");
    assertThat(attempt.getAttributes().get(Tracing.OUTCOME)).isEqualTo("completed");
    assertChild(traces.await(Tracing.QUEUED, 1).get(0), caller);
    assertThat(refusals).isEmpty();
  }
}
