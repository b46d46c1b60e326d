package dev.shepherd.app;

import dev.shepherd.core.ConfigException;
import dev.shepherd.web.Metrics;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.launcher.application.HookContext;
import io.vertx.launcher.application.VertxApplication;
import io.vertx.launcher.application.VertxApplicationHooks;

/**
 * The launcher: Vert.x's application launcher ({@code -conf}, {@code -cluster}, …) deploying
 * {@link ShepherdVerticle}. Configuration is checked before Vert.x starts: an invalid one prints
 * one line naming the field and the value, and the process exits with status 2. Vert.x starts with
 * Micrometer metrics (Prometheus) enabled unless {@code -options} configure metrics themselves, so
 * {@code GET /metrics} has Vert.x's meters beside the pools' own.
 */
public final class Main implements VertxApplicationHooks {
  static final int INVALID_CONFIGURATION = 2;

  public static void main(String[] args) {
    System.setProperty("hazelcast.logging.type", "slf4j");
    int code = new VertxApplication(args, new Main()).launch();
    if (code != 0) {
      System.exit(code);
    }
  }

  @Override
  public JsonObject afterConfigParsed(JsonObject config) {
    JsonObject effective;
    try {
      effective = Launch.effectiveConfig(config);
      AppConfig.parse(effective);
    } catch (ConfigException | DecodeException | ClassCastException e) {
      System.err.println("shepherd: invalid configuration: " + e.getMessage());
      System.exit(INVALID_CONFIGURATION);
      return config;
    }
    return effective;
  }

  @Override
  public VertxBuilder createVertxBuilder(VertxOptions options) {
    if (options.getMetricsOptions() == null || !options.getMetricsOptions().isEnabled()) {
      options.setMetricsOptions(Metrics.vertxMetricsOptions());
    }
    return Vertx.builder().with(options);
  }

  @Override
  public java.util.function.Supplier<? extends io.vertx.core.Deployable> verticleSupplier() {
    return ShepherdVerticle::new;
  }

  @Override
  public void afterFailureToDeployVerticle(HookContext context, Throwable cause) {
    System.err.println("shepherd: failed to start: " + cause.getMessage());
  }
}
