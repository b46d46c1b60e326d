package dev.shepherd.runtime.config;

import dev.shepherd.core.ConfigException;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed reads of a JSON configuration object, each failing with a {@link ConfigException} that
 * names the full path of the field and the bad value. {@code null} means absent (the default).
 * Shared by every part of the configuration (pools, worker hosts).
 */
public final class ConfigReader {
  private final JsonObject json;
  private final String path;

  public ConfigReader(JsonObject json, String path) {
    this.json = json == null ? new JsonObject() : json;
    this.path = path;
  }

  /** The path of this object in the configuration, e.g. {@code pools[0].deadLetter}. */
  public String path() {
    return path;
  }

  public String field(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** Refuses fields other than {@code allowed} (a typo should not silently become a default). */
  public void onlyFields(String... allowed) {
    Set<String> known = Set.of(allowed);
    for (String name : json.fieldNames()) {
      if (!known.contains(name)) {
        throw new ConfigException(field(name), json.getValue(name),
            "unknown field; expected one of " + new TreeSet<>(known));
      }
    }
  }

  public ConfigReader object(String name) {
    Object value = json.getValue(name);
    if (value == null) {
      return new ConfigReader(new JsonObject(), field(name));
    }
    if (!(value instanceof JsonObject object)) {
      throw new ConfigException(field(name), value, "must be a JSON object");
    }
    return new ConfigReader(object, field(name));
  }

  /** The names of this object's fields, in order. */
  public java.util.List<String> names() {
    return java.util.List.copyOf(json.fieldNames());
  }

  public Object raw(String name) {
    return json.getValue(name);
  }

  public boolean has(String name) {
    return json.getValue(name) != null;
  }

  public JsonObject rawObject(String name) {
    Object value = json.getValue(name);
    if (value == null) {
      return new JsonObject();
    }
    if (!(value instanceof JsonObject object)) {
      throw new ConfigException(field(name), value, "must be a JSON object");
    }
    return object.copy();
  }

  public String string(String name, String fallback) {
    Object value = json.getValue(name);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof String text) || text.isBlank()) {
      throw new ConfigException(field(name), value, "must be a non-empty string");
    }
    return text;
  }

  public long longValue(String name, long fallback, long min, long max) {
    Object value = json.getValue(name);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof Integer || value instanceof Long)) {
      throw new ConfigException(field(name), value, "must be a whole number");
    }
    long number = ((Number) value).longValue();
    if (number < min || number > max) {
      throw new ConfigException(field(name), value,
          "must be between " + min + " and " + (max == Long.MAX_VALUE ? "∞" : max));
    }
    return number;
  }

  public int intValue(String name, int fallback, int min, int max) {
    return (int) longValue(name, fallback, min, max);
  }

  public double doubleValue(String name, double fallback, double min, double max) {
    Object value = json.getValue(name);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof Number number)) {
      throw new ConfigException(field(name), value, "must be a number");
    }
    double result = number.doubleValue();
    if (!(result >= min && result <= max)) {
      throw new ConfigException(field(name), value, "must be between " + min + " and " + max);
    }
    return result;
  }

  public boolean bool(String name, boolean fallback) {
    Object value = json.getValue(name);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof Boolean flag)) {
      throw new ConfigException(field(name), value, "must be true or false");
    }
    return flag;
  }

  public <E extends Enum<E>> E enumValue(String name, Class<E> type, E fallback) {
    Object value = json.getValue(name);
    if (value == null) {
      return fallback;
    }
    if (value instanceof String text) {
      for (E constant : type.getEnumConstants()) {
        if (constant.name().equals(text.toUpperCase(Locale.ROOT))) {
          return constant;
        }
      }
    }
    Set<String> names = new TreeSet<>();
    for (E constant : type.getEnumConstants()) {
      names.add(constant.name());
    }
    throw new ConfigException(field(name), value, "must be one of " + names);
  }
}
