package dev.shepherd.app;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's traces (T1 in docs/rules.md), from the OpenTelemetry SDK's own environment:
 * on when {@code OTEL_TRACES_EXPORTER} names an exporter other than {@code none}, or, with it
 * unset, when {@code OTEL_EXPORTER_OTLP_ENDPOINT} or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}
 * is set; off otherwise, and then nothing of the SDK is loaded. The SDK's autoconfigure module
 * reads the rest ({@code OTEL_SERVICE_NAME}, {@code OTEL_EXPORTER_OTLP_*}: OTLP over
 * HTTP/protobuf here) and the SDK becomes the global one, which the pools' spans use.
 */
final class TracingSetup {
  private static final Logger LOG = LoggerFactory.getLogger(TracingSetup.class);

  private TracingSetup() {}

  /** Whether {@code env} turns tracing on. */
  static boolean wanted(Map<String, String> env) {
    String exporter = env.get("OTEL_TRACES_EXPORTER");
    if (exporter != null && !exporter.isBlank()) {
      return !exporter.trim().toLowerCase(Locale.ROOT).equals("none");
    }
    return notBlank(env.get("OTEL_EXPORTER_OTLP_ENDPOINT"))
        || notBlank(env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"));
  }

  private static boolean notBlank(String value) {
    return value != null && !value.isBlank();
  }

  /**
   * Turns tracing on for the Vert.x that {@code builder} makes when {@code env} asks for it:
   * the SDK set up from the environment, Vert.x's OpenTelemetry tracer on it.
   */
  static void apply(Map<String, String> env, VertxOptions options, VertxBuilder builder) {
    if (!wanted(env)) {
      return;
    }
    OpenTelemetry sdk = AutoConfiguredOpenTelemetrySdk.builder()
        .addPropertiesSupplier(() -> Map.of("otel.metrics.exporter", "none",
            "otel.logs.exporter", "none", "otel.exporter.otlp.protocol", "http/protobuf"))
        .setResultAsGlobal()
        .build()
        .getOpenTelemetrySdk();
    options.setTracingOptions(new OpenTelemetryOptions());
    builder.with(options).withTracer(new OpenTelemetryTracingFactory(sdk));
    LOG.info("tracing on: OpenTelemetry from the OTEL_* environment (exporter {})",
        env.getOrDefault("OTEL_TRACES_EXPORTER", "otlp"));
  }
}
