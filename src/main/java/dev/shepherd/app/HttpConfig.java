package dev.shepherd.app;

import dev.shepherd.core.ConfigException;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * The HTTP server: where it binds (loopback unless told otherwise), the request body limit, and
 * an optional bearer token required for state-changing requests (config {@code token}, or the
 * environment variable named by {@code tokenEnv}, default {@code SHEPHERD_TOKEN}).
 */
public record HttpConfig(String host, int port, int maxBodyBytes, String token) {

  public static HttpConfig parse(JsonObject json) {
    JsonObject http = json == null ? new JsonObject() : json;
    for (String field : http.fieldNames()) {
      if (!Set.of("host", "port", "maxBodyBytes", "token", "tokenEnv").contains(field)) {
        throw new ConfigException("http." + field, http.getValue(field),
            "unknown field; expected one of [host, maxBodyBytes, port, token, tokenEnv]");
      }
    }
    String host = string(http, "host", "127.0.0.1");
    int port = integer(http, "port", 8080, 0, 65535);
    int maxBody = integer(http, "maxBodyBytes", 1 << 20, 1024, 1 << 30);
    String token = http.getValue("token") == null ? null : string(http, "token", null);
    String env = string(http, "tokenEnv", "SHEPHERD_TOKEN");
    if (token == null) {
      String fromEnv = System.getenv(env);
      token = fromEnv == null || fromEnv.isBlank() ? null : fromEnv.trim();
    }
    return new HttpConfig(host, port, maxBody, token);
  }

  private static String string(JsonObject json, String field, String fallback) {
    Object value = json.getValue(field);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof String text) || text.isBlank()) {
      throw new ConfigException("http." + field, value, "must be a non-empty string");
    }
    return text;
  }

  private static int integer(JsonObject json, String field, int fallback, int min, int max) {
    Object value = json.getValue(field);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof Integer number) || number < min || number > max) {
      throw new ConfigException("http." + field, value,
          "must be a whole number from " + min + " to " + max);
    }
    return number;
  }
}
