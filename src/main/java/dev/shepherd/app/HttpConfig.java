package dev.shepherd.app;

import dev.shepherd.core.ConfigException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The HTTP server: where it binds (loopback unless told otherwise), the request body limit, and
 * an optional bearer token required for state-changing requests (config {@code token}, or the
 * environment variable named by {@code tokenEnv}, default {@code SHEPHERD_TOKEN}), and which pool
 * addresses the SockJS event-bus bridge at {@code /eventbus} lets through ({@code bridge}).
 * {@code enabled: false} serves no HTTP at all (a worker host of a cluster, say).
 */
public record HttpConfig(String host, int port, int maxBodyBytes, String token, Bridge bridge,
    boolean enabled) {

  /** Without bridge settings: the default bridge. */
  public HttpConfig(String host, int port, int maxBodyBytes, String token) {
    this(host, port, maxBodyBytes, token, Bridge.DEFAULT, true);
  }

  /**
   * The SockJS bridge's permissions, as address suffixes of each pool ({@code <prefix>.<suffix>}):
   * browsers may send to {@code inbound} (default {@code submit}, {@code status}) and receive from
   * {@code outbound} (default {@code events}); nothing else passes. {@code enabled: false} removes
   * the bridge.
   */
  public record Bridge(boolean enabled, List<String> inbound, List<String> outbound) {
    public static final Set<String> INBOUND_CHOICES = Set.of("submit", "status", "cancel",
        "rebalance");
    public static final Set<String> OUTBOUND_CHOICES = Set.of("events");
    public static final Bridge DEFAULT =
        new Bridge(true, List.of("submit", "status"), List.of("events"));

    public Bridge {
      inbound = List.copyOf(inbound);
      outbound = List.copyOf(outbound);
    }

    static Bridge parse(Object value) {
      if (value == null) {
        return DEFAULT;
      }
      if (!(value instanceof JsonObject json)) {
        throw new ConfigException("http.bridge", value, "must be a JSON object");
      }
      for (String field : json.fieldNames()) {
        if (!Set.of("enabled", "inbound", "outbound").contains(field)) {
          throw new ConfigException("http.bridge." + field, json.getValue(field),
              "unknown field; expected one of [enabled, inbound, outbound]");
        }
      }
      Object enabled = json.getValue("enabled", true);
      if (!(enabled instanceof Boolean on)) {
        throw new ConfigException("http.bridge.enabled", enabled, "must be true or false");
      }
      return new Bridge(on, suffixes(json, "inbound", INBOUND_CHOICES, DEFAULT.inbound()),
          suffixes(json, "outbound", OUTBOUND_CHOICES, DEFAULT.outbound()));
    }

    private static List<String> suffixes(JsonObject json, String field, Set<String> choices,
        List<String> fallback) {
      Object value = json.getValue(field);
      if (value == null) {
        return fallback;
      }
      if (!(value instanceof JsonArray array)) {
        throw new ConfigException("http.bridge." + field, value,
            "must be a JSON array of address suffixes from " + new java.util.TreeSet<>(choices));
      }
      List<String> out = new ArrayList<>();
      for (Object item : array) {
        if (!(item instanceof String text) || !choices.contains(text)) {
          throw new ConfigException("http.bridge." + field, item,
              "is not one of " + new java.util.TreeSet<>(choices));
        }
        if (!out.contains(text)) {
          out.add(text);
        }
      }
      return out;
    }
  }

  public static HttpConfig parse(JsonObject json) {
    JsonObject http = json == null ? new JsonObject() : json;
    for (String field : http.fieldNames()) {
      if (!Set.of("enabled", "host", "port", "maxBodyBytes", "token", "tokenEnv", "bridge")
          .contains(field)) {
        throw new ConfigException("http." + field, http.getValue(field), "unknown field;"
            + " expected one of [bridge, enabled, host, maxBodyBytes, port, token, tokenEnv]");
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
    Object enabled = http.getValue("enabled", true);
    if (!(enabled instanceof Boolean on)) {
      throw new ConfigException("http.enabled", enabled, "must be true or false");
    }
    return new HttpConfig(host, port, maxBody, token, Bridge.parse(http.getValue("bridge")), on);
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
