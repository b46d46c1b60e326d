package dev.shepherd.web;

import dev.shepherd.core.ConfigException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The HTTP server's configuration ({@code http} in {@code conf/config.json}): whether it runs,
 * where it binds (loopback unless told otherwise), which {@code Host} names it answers to, the
 * request body limit, how long a connection may sit idle or take to send a request's headers, an
 * optional bearer token required for state-changing requests (config {@code token}, or the
 * environment variable named by {@code tokenEnv}, default {@code SHEPHERD_TOKEN}), which pool
 * addresses the SockJS event-bus bridge at {@code /eventbus} lets through ({@code bridge}), and how
 * long a request to a highly available pool that no node leads waits for one before it is answered
 * {@code 503 NO_LEADER} ({@code leaderWaitMs}).
 *
 * <p>{@code allowedHosts} lists extra {@code host} or {@code host:port} names besides the
 * defaults (see {@link AllowedHosts}); {@code "*"} answers to any {@code Host} and gives up the
 * protection against DNS rebinding.
 */
public record HttpConfig(boolean enabled, String host, int port, int maxBodyBytes, String token,
    Bridge bridge, List<String> allowedHosts, int idleTimeoutMs, int headerTimeoutMs,
    int leaderWaitMs) {

  /** The environment variable the token is read from unless {@code tokenEnv} names another. */
  public static final String DEFAULT_TOKEN_ENV = "SHEPHERD_TOKEN";
  public static final int DEFAULT_IDLE_TIMEOUT_MS = 60_000;
  public static final int DEFAULT_HEADER_TIMEOUT_MS = 10_000;
  /** What a request waits for a leader of a highly available pool that none leads now. */
  public static final int DEFAULT_LEADER_WAIT_MS =
      (int) dev.shepherd.runtime.PoolClient.DEFAULT_LEADER_WAIT_MS;
  private static final List<String> FIELDS = List.of("allowedHosts", "bridge", "enabled",
      "headerTimeoutMs", "host", "idleTimeoutMs", "leaderWaitMs", "maxBodyBytes", "port", "token",
      "tokenEnv");

  public HttpConfig {
    allowedHosts = List.copyOf(allowedHosts);
  }

  /** Enabled, with default hosts, timeouts and bridge. */
  public HttpConfig(String host, int port, int maxBodyBytes, String token) {
    this(host, port, maxBodyBytes, token, Bridge.DEFAULT);
  }

  /** Enabled, with default hosts and timeouts. */
  public HttpConfig(String host, int port, int maxBodyBytes, String token, Bridge bridge) {
    this(true, host, port, maxBodyBytes, token, bridge, List.of(), DEFAULT_IDLE_TIMEOUT_MS,
        DEFAULT_HEADER_TIMEOUT_MS, DEFAULT_LEADER_WAIT_MS);
  }

  /**
   * The SockJS bridge's permissions, as address suffixes of each pool ({@code <prefix>.<suffix>}):
   * browsers may send to {@code inbound} (default {@code submit}, {@code status}) and receive from
   * {@code outbound} (default {@code events}); nothing else passes. {@code enabled: false} removes
   * the bridge.
   */
  public record Bridge(boolean enabled, List<String> inbound, List<String> outbound) {
    public static final Set<String> INBOUND_CHOICES = Set.of("submit", "status", "cancel",
        "rebalance", "revive");
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
      if (!FIELDS.contains(field)) {
        throw new ConfigException("http." + field, http.getValue(field),
            "unknown field; expected one of " + FIELDS);
      }
    }
    Object enabled = http.getValue("enabled", true);
    if (!(enabled instanceof Boolean on)) {
      throw new ConfigException("http.enabled", enabled, "must be true or false");
    }
    String host = string(http, "host", "127.0.0.1");
    int port = integer(http, "port", 8080, 0, 65535);
    int maxBody = integer(http, "maxBodyBytes", 1 << 20, 1024, 1 << 30);
    String token = http.getValue("token") == null ? null : string(http, "token", null);
    String env = string(http, "tokenEnv", DEFAULT_TOKEN_ENV);
    if (token == null) {
      String fromEnv = System.getenv(env);
      token = fromEnv == null || fromEnv.isBlank() ? null : fromEnv.trim();
    }
    int idle = integer(http, "idleTimeoutMs", DEFAULT_IDLE_TIMEOUT_MS, 100, 86_400_000);
    int headers = integer(http, "headerTimeoutMs", DEFAULT_HEADER_TIMEOUT_MS, 100, 86_400_000);
    int leaderWait = integer(http, "leaderWaitMs", DEFAULT_LEADER_WAIT_MS, 1, 600_000);
    return new HttpConfig(on, host, port, maxBody, token, Bridge.parse(http.getValue("bridge")),
        allowedHosts(http.getValue("allowedHosts")), idle, headers, leaderWait);
  }

  /** Each entry is checked here, so a typo stops start-up rather than refusing every request. */
  private static List<String> allowedHosts(Object value) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray array)) {
      throw new ConfigException("http.allowedHosts", value,
          "must be a JSON array of host names or addresses (\"host\" or \"host:port\"), or"
          + " [\"*\"] for any");
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      Object item = array.getValue(i);
      String problem = item instanceof String text ? AllowedHosts.problem(text)
          : "must be a string";
      if (problem != null) {
        throw new ConfigException("http.allowedHosts[" + i + "]", item, problem);
      }
      out.add((String) item);
    }
    return out;
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
