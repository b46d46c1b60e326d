package dev.shepherd.runtime.wire;

import dev.shepherd.core.FlowSettings;
import dev.shepherd.core.GroupDefaults;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.RateLimit;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * The JSON of flow control's operator requests (section 11, F1-F5 in docs/rules.md): a group's
 * settings as an operator sends them ({@code {"concurrency"?, "queueCapacity"?, "weight"?,
 * "rateLimit"?: {"permits", "perMs"?}, "paused"?}}, every field optional), and a rate limit.
 * Each refusal is a {@link BadRequest} naming the field; {@code null} for a field means absent.
 */
public final class FlowJson {
  public static final String CONCURRENCY = "concurrency";
  public static final String QUEUE_CAPACITY = "queueCapacity";
  public static final String WEIGHT = "weight";
  public static final String RATE_LIMIT = "rateLimit";
  public static final String PAUSED = "paused";
  public static final String PAUSED_SINCE = "pausedSince";
  public static final String NAME = "name";
  public static final String RUNNING = "running";
  public static final String QUEUED = "queued";
  public static final String HELD_UNTIL = "heldUntil";
  public static final String PERMITS = "permits";
  public static final String PER_MS = "perMs";
  /** The most jobs of one group an operator may let run at once (0 = unlimited). */
  public static final int MAX_CONCURRENCY = 1_000_000;
  /** The most jobs one group may queue (0 = unlimited). */
  public static final int MAX_QUEUE = 100_000_000;

  private static final Set<String> SETTINGS =
      Set.of(CONCURRENCY, QUEUE_CAPACITY, WEIGHT, RATE_LIMIT, PAUSED);

  private FlowJson() {}

  /**
   * The settings an operator's body gives for a group; {@code allowed} are further fields the
   * body may hold (the bus form names its group: {@code group}).
   */
  public static GroupSettings settings(JsonObject json, Set<String> allowed) {
    for (String name : json.fieldNames()) {
      if (!SETTINGS.contains(name) && !allowed.contains(name)) {
        java.util.Set<String> all = new java.util.TreeSet<>(SETTINGS);
        all.addAll(allowed);
        throw new BadRequest(RequestDecoder.clip(name) + ": unknown field; expected " + all);
      }
    }
    Integer concurrency = bounded(json, CONCURRENCY, 0, MAX_CONCURRENCY, "0 = unlimited");
    Integer queue = bounded(json, QUEUE_CAPACITY, 0, MAX_QUEUE, "0 = unlimited");
    Integer weight = bounded(json, WEIGHT, 1, GroupDefaults.MAX_WEIGHT, null);
    RateLimit rate = json.getValue(RATE_LIMIT) == null ? null
        : rateLimit(json.getValue(RATE_LIMIT), RATE_LIMIT);
    Object paused = json.getValue(PAUSED);
    if (paused != null && !(paused instanceof Boolean)) {
      throw new BadRequest(PAUSED + ": must be true or false (was " + kind(paused) + ")");
    }
    return new GroupSettings(concurrency, queue, weight, rate, (Boolean) paused);
  }

  /** {@code {"permits": 1.., "perMs"?: 1.. (default 1000)}}, read at {@code field}. */
  public static RateLimit rateLimit(Object value, String field) {
    if (!(value instanceof JsonObject json)) {
      throw new BadRequest(field + ": must be an object {\"permits\", \"perMs\"} (was "
          + kind(value) + ")");
    }
    for (String name : json.fieldNames()) {
      if (!name.equals(PERMITS) && !name.equals(PER_MS)) {
        throw new BadRequest(field + "." + RequestDecoder.clip(name)
            + ": unknown field; expected [perMs, permits]");
      }
    }
    if (json.getValue(PERMITS) == null) {
      throw new BadRequest(field + "." + PERMITS + ": is required, an integer from 1");
    }
    Integer permits = bounded(json, PERMITS, 1, RateLimit.MAX_PERMITS, null, field + ".");
    Integer perMs = json.getValue(PER_MS) == null ? Integer.valueOf(1000)
        : bounded(json, PER_MS, 1, (int) RateLimit.MAX_PER_MS, null, field + ".");
    return new RateLimit(permits, perMs);
  }

  /**
   * {@code change} merged onto {@code current} (null: none): each field {@code change} gives
   * replaces the current one, the others stay.
   */
  public static GroupSettings merge(GroupSettings current, GroupSettings change) {
    if (current == null) {
      return change;
    }
    return new GroupSettings(
        change.concurrency() != null ? change.concurrency() : current.concurrency(),
        change.queueCapacity() != null ? change.queueCapacity() : current.queueCapacity(),
        change.weight() != null ? change.weight() : current.weight(),
        change.rateLimit() != null ? change.rateLimit() : current.rateLimit(),
        change.paused());
  }

  /** A rate limit as JSON, or null for none. */
  public static JsonObject encode(RateLimit limit) {
    return limit == null ? null
        : new JsonObject().put(PERMITS, limit.permits()).put(PER_MS, limit.perMs());
  }

  /** A group's override as JSON: the fields it sets. */
  public static JsonObject encode(GroupSettings settings) {
    JsonObject json = new JsonObject();
    if (settings.concurrency() != null) {
      json.put(CONCURRENCY, settings.concurrency());
    }
    if (settings.queueCapacity() != null) {
      json.put(QUEUE_CAPACITY, settings.queueCapacity());
    }
    if (settings.weight() != null) {
      json.put(WEIGHT, settings.weight());
    }
    if (settings.rateLimit() != null) {
      json.put(RATE_LIMIT, encode(settings.rateLimit()));
    }
    if (settings.paused() != null) {
      json.put(PAUSED, settings.paused());
    }
    return json;
  }

  /**
   * A group's status: {@code {"name", "running", "queued", "concurrency", "queueCapacity",
   * "weight", "rateLimit", "paused", "pausedSince", "heldUntil"}} (0 = unlimited, {@code
   * rateLimit} null = none, the times in epoch ms or null).
   */
  public static JsonObject encode(PoolSnapshot.GroupStatus g) {
    return new JsonObject()
        .put(NAME, g.name())
        .put(RUNNING, g.running())
        .put(QUEUED, g.queued())
        .put(CONCURRENCY, g.concurrency())
        .put(QUEUE_CAPACITY, g.queueCapacity())
        .put(WEIGHT, g.weight())
        .put(RATE_LIMIT, encode(g.rateLimit()))
        .put(PAUSED, g.paused())
        .put(PAUSED_SINCE, g.pausedSince())
        .put(HELD_UNTIL, g.heldUntil());
  }

  /**
   * Reads what {@link #encode(PoolSnapshot.GroupStatus)} wrote; a field of the wrong kind fails
   * with an {@link IllegalArgumentException} naming it.
   */
  public static PoolSnapshot.GroupStatus decodeStatus(JsonObject json) {
    try {
      JsonObject rate = json.getJsonObject(RATE_LIMIT);
      return new PoolSnapshot.GroupStatus(json.getString(NAME), json.getInteger(RUNNING, 0),
          json.getInteger(QUEUED, 0), json.getInteger(CONCURRENCY, 0),
          json.getInteger(QUEUE_CAPACITY, 0), json.getInteger(WEIGHT, 1),
          rate == null ? null : new RateLimit(rate.getInteger(PERMITS), rate.getLong(PER_MS)),
          json.getBoolean(PAUSED, false), json.getLong(PAUSED_SINCE), json.getLong(HELD_UNTIL));
    } catch (ClassCastException | NullPointerException e) {
      throw new IllegalArgumentException("groups: not a group status (" + e.getMessage() + ")");
    }
  }

  /** A group name read at {@code field}: 1 to 256 characters. */
  public static String group(Object value, String field, boolean required) {
    if (value == null) {
      if (required) {
        throw new BadRequest(field + ": is required, a group name of 1 to "
            + FlowSettings.MAX_GROUP_LENGTH + " characters");
      }
      return null;
    }
    if (!(value instanceof String text)) {
      throw new BadRequest(field + ": must be a string (was " + kind(value) + ")");
    }
    if (!FlowSettings.validGroup(text)) {
      throw new BadRequest(field + ": must be 1 to " + FlowSettings.MAX_GROUP_LENGTH
          + " characters (was " + text.length() + ")");
    }
    return text;
  }

  private static Integer bounded(JsonObject json, String field, int min, int max, String note) {
    return bounded(json, field, min, max, note, "");
  }

  private static Integer bounded(JsonObject json, String field, int min, int max, String note,
      String prefix) {
    Object value = json.getValue(field);
    if (value == null) {
      return null;
    }
    String range = "between " + min + " and " + max + (note == null ? "" : " (" + note + ")");
    if (!(value instanceof Integer || value instanceof Long)) {
      throw new BadRequest(prefix + field + ": must be an integer " + range + " (was "
          + kind(value) + ")");
    }
    long n = ((Number) value).longValue();
    if (n < min || n > max) {
      throw new BadRequest(prefix + field + ": must be " + range + " (was " + n + ")");
    }
    return (int) n;
  }

  private static String kind(Object value) {
    return value instanceof String ? "a string"
        : value instanceof Number ? "a number " + value
        : value instanceof Boolean ? "a boolean"
        : value instanceof JsonObject ? "an object"
        : value instanceof io.vertx.core.json.JsonArray ? "an array"
        : value.getClass().getSimpleName();
  }
}
