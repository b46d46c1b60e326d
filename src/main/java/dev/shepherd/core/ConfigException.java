package dev.shepherd.core;

/**
 * Invalid pool configuration. The message names the field and the bad value, so one line tells
 * an operator what to fix. Nothing is deployed when it is thrown.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String field;

  public ConfigException(String field, Object value, String problem) {
    super(field + ": " + problem + " (was " + render(value) + ")");
    this.field = field;
  }

  /** The configuration field at fault, e.g. {@code pools[0].backlogCapacity}. */
  public String field() {
    return field;
  }

  private static String render(Object value) {
    return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
  }
}
