package dev.shepherd.app;

import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.web.HttpConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The whole configuration ({@code conf/config.json}): the HTTP server and the pools. Validated at
 * once, before anything is deployed; a {@link ConfigException} names the field and the value.
 */
public record AppConfig(HttpConfig http, List<PoolConfig> pools, List<JsonObject> poolJson) {

  /** The embedded default (the same as {@code conf/config.json}). */
  public static final String DEFAULT_RESOURCE = "conf/config.json";

  public static AppConfig parse(JsonObject json) {
    for (String field : json.fieldNames()) {
      if (!Set.of("http", "pools").contains(field)) {
        throw new ConfigException(field, json.getValue(field),
            "unknown field; expected one of [http, pools]");
      }
    }
    Object http = json.getValue("http");
    if (http != null && !(http instanceof JsonObject)) {
      throw new ConfigException("http", http, "must be a JSON object");
    }
    HttpConfig httpConfig = HttpConfig.parse((JsonObject) http);
    Object pools = json.getValue("pools");
    if (pools == null) {
      throw new ConfigException("pools", null, "is required: a list of pool entries");
    }
    if (!(pools instanceof JsonArray array)) {
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
      PoolConfig config = PoolConfig.parse(object, path);
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
    return new AppConfig(httpConfig, List.copyOf(configs), List.copyOf(raw));
  }
}
