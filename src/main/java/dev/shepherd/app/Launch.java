package dev.shepherd.app;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Configuration sources of the launcher: the given {@code -conf}, or the embedded default. */
public final class Launch {
  private Launch() {}

  /** {@code config} when it says anything, else the embedded {@code conf/config.json}. */
  public static JsonObject effectiveConfig(JsonObject config) {
    if (config != null && !config.isEmpty()) {
      return config;
    }
    return embeddedDefault();
  }

  public static JsonObject embeddedDefault() {
    try (InputStream in = Launch.class.getClassLoader()
        .getResourceAsStream(AppConfig.DEFAULT_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(AppConfig.DEFAULT_RESOURCE + " is missing from the jar");
      }
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
