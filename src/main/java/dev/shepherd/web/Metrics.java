package dev.shepherd.web;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.metrics.VertxMetrics;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import io.vertx.micrometer.impl.MicrometerMetrics;

/**
 * Where Shepherd's meters live: the Prometheus registry of Vert.x Micrometer metrics when the
 * Vert.x instance was started with {@link #vertxMetricsOptions()}, so one scrape of {@code
 * /metrics} has Vert.x's own meters and the pools' ({@code shepherd_*}).
 */
public final class Metrics {
  private Metrics() {}

  /** Micrometer metrics with the Prometheus backend, in the JVM-wide default registry. */
  public static MicrometerMetricsOptions vertxMetricsOptions() {
    return new MicrometerMetricsOptions()
        .setEnabled(true)
        .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true));
  }

  /**
   * The same in a registry of its own: several Vert.x instances in one JVM (tests) each get
   * their own meters.
   */
  public static MicrometerMetricsOptions vertxMetricsOptions(String registryName) {
    return vertxMetricsOptions().setRegistryName(registryName);
  }

  /** The Prometheus registry of {@code vertx}'s Micrometer metrics, or null when it has none. */
  static PrometheusMeterRegistry prometheusRegistry(Vertx vertx) {
    if (vertx instanceof VertxInternal internal) {
      VertxMetrics metrics = internal.metrics();
      if (metrics instanceof MicrometerMetrics micrometer
          && micrometer.registry() instanceof PrometheusMeterRegistry prometheus) {
        return prometheus;
      }
    }
    return null;
  }
}
