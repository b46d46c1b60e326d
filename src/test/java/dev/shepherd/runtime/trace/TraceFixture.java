package dev.shepherd.runtime.trace;

import static org.assertj.core.api.Assertions.assertThat;
import org.awaitility.Awaitility;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * An OpenTelemetry SDK exporting to memory, registered as the global one unless told not to, and
 * Vert.x instances tracing through it (T1 in docs/rules.md).
 */
public final class TraceFixture implements AutoCloseable {
  public final InMemorySpanExporter spans = InMemorySpanExporter.create();
  public final OpenTelemetrySdk sdk;

  public TraceFixture() {
    this(true);
  }

  /**
   * The same; with {@code global} false the SDK is not made the global one (which stays a no-op),
   * as for an application that hands its own {@code OpenTelemetry} to Vert.x alone.
   */
  public TraceFixture(boolean global) {
    sdk = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
        .build();
    GlobalOpenTelemetry.resetForTest();
    if (global) {
      GlobalOpenTelemetry.set(sdk);
    }
  }

  /** A Vert.x instance that traces through this SDK. */
  public Vertx vertx() {
    return Vertx.builder().with(new VertxOptions().setTracingOptions(new OpenTelemetryOptions()))
        .withTracer(new OpenTelemetryTracingFactory(sdk)).build();
  }

  /** The caller's span, started (end it when done). */
  public Span caller(String name) {
    return sdk.getTracer("test").spanBuilder(name).startSpan();
  }

  /** The finished spans named {@code name}, waiting until at least {@code count} are. */
  public List<SpanData> await(String name, int count) {
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> named(name).size() >= count);
    return named(name);
  }

  public List<SpanData> named(String name) {
    return spans.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
  }

  public Optional<SpanData> find(Predicate<SpanData> condition) {
    return spans.getFinishedSpanItems().stream().filter(condition).findFirst();
  }

  /** The span whose id is {@code spanId}, which must have finished. */
  public SpanData byId(String spanId) {
    return find(s -> s.getSpanId().equals(spanId)).orElseThrow(
        () -> new AssertionError("no finished span " + spanId + " in " + spans.getFinishedSpanItems()));
  }

  /** True when {@code ancestor} is {@code span}'s parent, or its parent's, and so on. */
  public boolean descendsFrom(SpanData span, String ancestorId) {
    SpanData at = span;
    for (int depth = 0; depth < 16; depth++) {
      if (at.getParentSpanId().equals(ancestorId)) {
        return true;
      }
      String parentId = at.getParentSpanId();
      Optional<SpanData> parent = find(s -> s.getSpanId().equals(parentId));
      if (parent.isEmpty()) {
        return false;
      }
      at = parent.get();
    }
    return false;
  }

  public static void assertChild(SpanData child, Span parent) {
    assertThat(child.getParentSpanId()).as(child.getName() + "'s parent")
        .isEqualTo(parent.getSpanContext().getSpanId());
    assertThat(child.getTraceId()).isEqualTo(parent.getSpanContext().getTraceId());
  }

  @Override
  public void close() {
    sdk.close();
    GlobalOpenTelemetry.resetForTest();
  }
}
