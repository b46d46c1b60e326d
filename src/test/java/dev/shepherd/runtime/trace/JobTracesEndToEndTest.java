package dev.shepherd.runtime.trace;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.trace.TraceFixture.assertChild;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.PoolVerticle;
import dev.shepherd.runtime.wire.Addresses;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * T1 (docs/rules.md) in one JVM: the submitter's span is the parent of the job's {@code queued}
 * span and of each attempt's span, and the spans a handler starts are children of its attempt's.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JobTracesEndToEndTest {
  private TraceFixture traces;
  private Vertx vertx;

  /** Starts a span of its own under the current one, then answers; crashes attempt 1 on "crash". */
  static final class TracingHandler implements JobHandler {
    @Override
    public Future<?> handle(Job job) {
      JsonObject payload = (JsonObject) job.payload();
      if (payload.getBoolean("crashFirst", false) && job.attempt() == 1) {
        throw new OutOfMemoryError("attempt 1 crashes");
      }
      Span own = GlobalOpenTelemetry.getTracer("user").spanBuilder("handler-work").startSpan();
      own.end();
      if (payload.getBoolean("fail", false)) {
        return Future.failedFuture(new IllegalStateException("broken"));
      }
      return Future.succeededFuture(new JsonObject().put("done", job.id()));
    }
  }

  @BeforeEach
  void start() {
    traces = new TraceFixture();
    vertx = traces.vertx();
  }

  @AfterEach
  void stop() {
    join(vertx.close());
    traces.close();
  }

  private PoolClient deploy(String name, JsonObject config) {
    join(vertx.deployVerticle(new PoolVerticle(TracingHandler::new),
        new DeploymentOptions().setConfig(config)));
    PoolFixture.awaitStatus(vertx, name, s -> PoolFixture.slots(s).stream()
        .noneMatch(slot -> "INSTALLING".equals(((JsonObject) slot).getString("phase"))));
    return PoolClient.create(vertx, name);
  }

  private static JsonObject pool(String name) {
    JsonObject config = demoPool(name, 1);
    config.remove("worker");
    return config.put("worker", new JsonObject().put("instances", 1));
  }

  @Test
  void T1_an_in_JVM_submit_parents_the_queued_and_attempt_spans_and_the_handler_nests_under_its_attempt() {
    PoolClient client = deploy("traced", pool("traced"));
    Span caller = traces.caller("caller");
    try (Scope scope = caller.makeCurrent()) {
      join(client.submit(JobRequest.of(new JsonObject()).withJob("j1")));
    } finally {
      caller.end();
    }

    SpanData queued = traces.await(Tracing.QUEUED, 1).get(0);
    SpanData attempt = traces.await(Tracing.ATTEMPT, 1).get(0);
    SpanData work = traces.await("handler-work", 1).get(0);
    assertChild(queued, caller);
    assertChild(attempt, caller);
    assertThat(work.getParentSpanId()).isEqualTo(attempt.getSpanId());
    assertThat(attempt.getKind()).isEqualTo(SpanKind.CONSUMER);
    assertThat(attempt.getAttributes().get(Tracing.POOL)).isEqualTo("traced");
    assertThat(attempt.getAttributes().get(Tracing.JOB)).isEqualTo("j1");
    assertThat(attempt.getAttributes().get(Tracing.ATTEMPT_NUMBER)).isEqualTo(1L);
    assertThat(attempt.getAttributes().get(Tracing.SLOT)).isEqualTo("w-0");
    assertThat(attempt.getAttributes().get(Tracing.OUTCOME)).isEqualTo("completed");
    assertThat(queued.getAttributes().get(Tracing.JOB)).isEqualTo("j1");
    assertThat(queued.getEndEpochNanos()).isLessThanOrEqualTo(attempt.getStartEpochNanos());
  }

  @Test
  void T1_a_failed_attempt_ends_its_span_with_the_outcome_and_the_reason() {
    PoolClient client = deploy("failing", pool("failing"));
    Span caller = traces.caller("caller");
    try (Scope scope = caller.makeCurrent()) {
      PoolFixture.failure(client.submit(JobRequest.of(new JsonObject().put("fail", true))));
    } finally {
      caller.end();
    }

    SpanData attempt = traces.await(Tracing.ATTEMPT, 1).get(0);
    assertChild(attempt, caller);
    assertThat(attempt.getAttributes().get(Tracing.OUTCOME)).isEqualTo("failed");
    assertThat(attempt.getAttributes().get(Tracing.REASON)).isEqualTo("500");
  }

  @Test
  void T1_a_retried_job_has_one_attempt_span_per_attempt_under_the_caller() {
    JsonObject config = PoolFixture.seedRules(pool("retried").put("interruption", "RETRY"));
    PoolClient client = deploy("retried", config);
    Span caller = traces.caller("caller");
    try (Scope scope = caller.makeCurrent()) {
      join(client.submit(JobRequest.of(new JsonObject().put("crashFirst", true)).withJob("r1")));
    } finally {
      caller.end();
    }

    List<SpanData> attempts = traces.await(Tracing.ATTEMPT, 2).stream()
        .sorted(Comparator.comparing(s -> s.getAttributes().get(Tracing.ATTEMPT_NUMBER))).toList();
    assertThat(attempts).hasSize(2);
    attempts.forEach(a -> assertChild(a, caller));
    assertThat(attempts.get(0).getAttributes().get(Tracing.ATTEMPT_NUMBER)).isEqualTo(1L);
    assertThat(attempts.get(0).getAttributes().get(Tracing.OUTCOME)).isEqualTo("interrupted");
    assertThat(attempts.get(1).getAttributes().get(Tracing.ATTEMPT_NUMBER)).isEqualTo(2L);
    assertThat(attempts.get(1).getAttributes().get(Tracing.OUTCOME)).isEqualTo("completed");
    assertThat(traces.named(Tracing.QUEUED)).hasSize(1);
  }

  @Test
  void T1_a_bus_submit_parents_its_spans_under_the_server_span_of_the_request() {
    deploy("bus", pool("bus"));
    Span caller = traces.caller("caller");
    ContextInternal sender = ((VertxInternal) vertx).createEventLoopContext();
    Promise<Object> reply = Promise.promise();
    sender.runOnContext(v -> {
      try (Scope scope = caller.makeCurrent()) {
        vertx.eventBus().request(Addresses.forPool("bus").submit(),
            new JsonObject().put("job", "b1").put("payload", new JsonObject()))
            .onComplete(ar -> reply.handle(ar.map(m -> m.body())));
      }
    });
    join(reply.future());
    caller.end();

    SpanData attempt = traces.await(Tracing.ATTEMPT, 1).get(0);
    SpanData queued = traces.await(Tracing.QUEUED, 1).get(0);
    SpanData server = traces.byId(attempt.getParentSpanId());
    assertThat(server.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(queued.getParentSpanId()).isEqualTo(server.getSpanId());
    assertThat(traces.descendsFrom(server, caller.getSpanContext().getSpanId())).isTrue();
    assertThat(attempt.getTraceId()).isEqualTo(caller.getSpanContext().getTraceId());
  }

  @Test
  void T1_a_job_submitted_outside_any_trace_makes_no_span() {
    PoolClient client = deploy("untraced", pool("untraced"));

    join(client.submit(JobRequest.of(new JsonObject())));

    assertThat(traces.named(Tracing.ATTEMPT)).isEmpty();
    assertThat(traces.named(Tracing.QUEUED)).isEmpty();
  }
}
