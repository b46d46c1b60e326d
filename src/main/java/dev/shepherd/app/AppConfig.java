package dev.shepherd.app;

import dev.shepherd.cluster.hosts.HostConfig;
import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.web.HttpConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The whole configuration of a node ({@code conf/config.json}): the HTTP server, the pools it
 * coordinates and, on a clustered node, the worker hosts it runs for pools coordinated elsewhere
 * (8.1). Validated at once, before anything is deployed; a {@link ConfigException} names the
 * field and the value.
 */
public record AppConfig(HttpConfig http, List<PoolConfig> pools, List<JsonObject> poolJson,
    List<HostConfig> hosts) {

  /** The embedded default (the same as {@code conf/config.json}). */
  public static final String DEFAULT_RESOURCE = "conf/config.json";

  /** The configuration of a node that is not clustered. */
  public static AppConfig parse(JsonObject json) {
    return parse(json, false);
  }

  /**
   * The configuration of a node, clustered or not. {@code pools} may be left out when {@code
   * hosts} are given (the node then coordinates no pool); {@code hosts} need a cluster.
   */
  public static AppConfig parse(JsonObject json, boolean clustered) {
    for (String field : json.fieldNames()) {
      if (!Set.of("http", "pools", "hosts").contains(field)) {
        throw new ConfigException(field, json.getValue(field),
            "unknown field; expected one of [hosts, http, pools]");
      }
    }
    Object http = json.getValue("http");
    if (http != null && !(http instanceof JsonObject)) {
      throw new ConfigException("http", http, "must be a JSON object");
    }
    HttpConfig httpConfig = HttpConfig.parse((JsonObject) http);
    List<HostConfig> hosts = hosts(json.getValue("hosts"), clustered);
    Object pools = json.getValue("pools");
    if (pools == null && hosts.isEmpty()) {
      throw new ConfigException("pools", null, "is required: a list of pool entries");
    }
    JsonArray array;
    if (pools == null) {
      array = new JsonArray();
    } else if (pools instanceof JsonArray given) {
      array = given;
    } else {
      throw new ConfigException("pools", pools, "must be a JSON array of pool entries");
    }
    List<PoolConfig> configs = new ArrayList<>();
    List<JsonObject> raw = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<String> prefixes = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      Object entry = array.getValue(i);
      String path = "pools[" + i + "]";
      if (!(entry instanceof JsonObject object)) {
        throw new ConfigException(path, entry, "must be a JSON object");
      }
      PoolConfig config = PoolConfig.parse(object, path, clustered);
      if (!names.add(config.name())) {
        throw new ConfigException(path + ".name", config.name(), "is used by another pool");
      }
      if (!prefixes.add(config.addressPrefix())) {
        throw new ConfigException(path + ".address", config.addressPrefix(),
            "is used by another pool");
      }
      configs.add(config);
      raw.add(object);
    }
    return new AppConfig(httpConfig, List.copyOf(configs), List.copyOf(raw), hosts);
  }

  private static List<HostConfig> hosts(Object value, boolean clustered) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray array)) {
      throw new ConfigException("hosts", value, "must be a JSON array of worker-host entries");
    }
    if (!array.isEmpty() && !clustered) {
      throw new ConfigException("hosts", value, "runs slots for pools on other nodes, so it"
          + " needs a cluster: start with -cluster");
    }
    List<HostConfig> hosts = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (int i = 0; i < array.size(); i++) {
      Object entry = array.getValue(i);
      String path = "hosts[" + i + "]";
      if (!(entry instanceof JsonObject object)) {
        throw new ConfigException(path, entry, "must be a JSON object");
      }
      String defaultId = object.getValue("id") == null ? HostConfig.machineName() : null;
      HostConfig host = HostConfig.parse(object, path, defaultId);
      String other = seen.putIfAbsent(host.address() + " " + host.id(), path);
      if (other != null) {
        throw new ConfigException(path + ".id", host.id(),
            "is used by " + other + " for the same pool");
      }
      hosts.add(host);
    }
    return List.copyOf(hosts);
  }
}
