package dev.shepherd.runtime.trace;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.trace.TraceFixture.assertChild;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * T1 (docs/rules.md) for a library user who hands Vert.x an {@code OpenTelemetry} of their own
 * and never makes it the global one: the pool's spans go to that one, not to the global no-op.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JobTracesOwnOpenTelemetryTest {
  private TraceFixture traces;
  private Vertx vertx;

  @AfterEach
  void stop() {
    join(vertx.close());
    traces.close();
  }

  private PoolClient deploy(String name) {
    JsonObject config = demoPool(name, 1);
    PoolFixture.deployReady(vertx, config);
    return PoolClient.create(vertx, name);
  }

  @Test
  void T1_the_pools_spans_use_the_OpenTelemetry_Vertx_traces_through_not_the_global_one() {
    traces = new TraceFixture(false);
    vertx = traces.vertx();
    PoolClient client = deploy("own");
    Span caller = traces.caller("caller");
    try (Scope scope = caller.makeCurrent()) {
      join(client.submit(JobRequest.of(new JsonObject()).withJob("o1")));
    } finally {
      caller.end();
    }

    SpanData queued = traces.await(Tracing.QUEUED, 1).get(0);
    SpanData attempt = traces.await(Tracing.ATTEMPT, 1).get(0);
    assertChild(queued, caller);
    assertChild(attempt, caller);
    assertThat(GlobalOpenTelemetry.get().getTracer("probe").spanBuilder("x").startSpan()
        .getSpanContext().isValid()).as("the global OpenTelemetry stayed a no-op").isFalse();
  }

  @Test
  void T1_an_OpenTelemetry_given_with_use_makes_the_pools_spans() {
    traces = new TraceFixture(false);
    TraceFixture other = new TraceFixture(false);
    try {
      vertx = other.vertx();
      Tracing.use(vertx, traces.sdk);
      PoolClient client = deploy("given");
      Span caller = traces.caller("caller");
      try (Scope scope = caller.makeCurrent()) {
        join(client.submit(JobRequest.of(new JsonObject()).withJob("g1")));
      } finally {
        caller.end();
      }

      SpanData attempt = traces.await(Tracing.ATTEMPT, 1).get(0);
      assertChild(attempt, caller);
      assertThat(attempt.getInstrumentationScopeInfo().getName()).isEqualTo(Tracing.SCOPE);
      assertThat(other.named(Tracing.ATTEMPT)).isEmpty();
    } finally {
      other.close();
    }
  }
}
