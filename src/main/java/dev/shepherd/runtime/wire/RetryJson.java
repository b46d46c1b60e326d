package dev.shepherd.runtime.wire;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.RetryOverride;
import dev.shepherd.runtime.config.JobSettingsConfig;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code "retry"} of a submit body (J3 in docs/rules.md) and its {@link RetryOverride}: {@code
 * {"maxAttempts"?: int 1-1,000,000, "backoff"?: {"initialMs"?, "multiplier"?, "maxMs"?,
 * "jitter"?}}}. An absent {@code maxAttempts} or {@code backoff} is the pool's; an absent field of
 * a given {@code backoff} is Shepherd's default failure backoff (1 s, ×2, up to 60 s, ±20%), never
 * the pool's, because a node that decodes the body (an HTTP layer in front of a remote pool) does
 * not know the pool's configuration. Every refusal is a {@link BadRequest} naming the field ({@code
 * retry.backoff.multiplier}).
 */
public final class RetryJson {
  private RetryJson() {}

  /** The override {@code value} says, or null for none ({@code null}, or {@code {}}). */
  static RetryOverride decode(Object value) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof JsonObject retry)) {
      throw new BadRequest("retry: must be an object {\"maxAttempts\": int, \"backoff\"?: {"
          + "\"initialMs\", \"multiplier\", \"maxMs\", \"jitter\"}} (was " + kind(value) + ")");
    }
    only(retry, Set.of("maxAttempts", "backoff"), "retry.");
    int maxAttempts = 0;
    Object attempts = retry.getValue("maxAttempts");
    if (attempts != null) {
      maxAttempts = (int) whole(attempts, "retry.maxAttempts", 1,
          JobSettingsConfig.MAX_FAILURE_ATTEMPTS);
    }
    Backoff backoff = backoff(retry.getValue("backoff"));
    return maxAttempts == 0 && backoff == null ? null : new RetryOverride(maxAttempts, backoff);
  }

  /** The body form of {@code retry}: only what it overrides. */
  static JsonObject encode(RetryOverride retry) {
    JsonObject json = new JsonObject();
    if (retry.maxAttempts() > 0) {
      json.put("maxAttempts", retry.maxAttempts());
    }
    Backoff b = retry.backoff();
    if (b != null) {
      json.put("backoff", new JsonObject().put("initialMs", b.initialMs())
          .put("multiplier", b.multiplier()).put("maxMs", b.maxMs()).put("jitter", b.jitter()));
    }
    return json;
  }

  /** Checks an override made in Java ({@link JobRequest}) as the body's would be. */
  public static void check(RetryOverride retry) {
    if (retry != null && (retry.maxAttempts() < 0
        || retry.maxAttempts() > JobSettingsConfig.MAX_FAILURE_ATTEMPTS)) {
      throw new BadRequest("retry.maxAttempts: must be between 1 and "
          + JobSettingsConfig.MAX_FAILURE_ATTEMPTS + ", or 0 for the pool's (was "
          + retry.maxAttempts() + ")");
    }
  }

  private static Backoff backoff(Object value) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof JsonObject b)) {
      throw new BadRequest("retry.backoff: must be an object {\"initialMs\", \"multiplier\","
          + " \"maxMs\", \"jitter\"} (was " + kind(value) + ")");
    }
    only(b, Set.of("initialMs", "multiplier", "maxMs", "jitter"), "retry.backoff.");
    Backoff d = JobSettingsConfig.DEFAULT_FAILURE_BACKOFF;
    long initialMs = b.getValue("initialMs") == null ? d.initialMs()
        : whole(b.getValue("initialMs"), "retry.backoff.initialMs", 0, JobSettingsConfig.MAX_MS);
    long maxMs = b.getValue("maxMs") == null ? Math.max(initialMs, d.maxMs())
        : whole(b.getValue("maxMs"), "retry.backoff.maxMs", 0, JobSettingsConfig.MAX_MS);
    double multiplier = b.getValue("multiplier") == null ? d.multiplier()
        : number(b.getValue("multiplier"), "retry.backoff.multiplier", 1.0, 1000.0);
    double jitter = b.getValue("jitter") == null ? d.jitter()
        : number(b.getValue("jitter"), "retry.backoff.jitter", 0.0, 1.0);
    try {
      return Backoff.of("retry.backoff", initialMs, multiplier, maxMs, jitter);
    } catch (ConfigException e) {
      throw new BadRequest(e.getMessage());
    }
  }

  private static long whole(Object value, String field, long min, long max) {
    if (!(value instanceof Integer || value instanceof Long)) {
      throw new BadRequest(field + ": must be an integer between " + min + " and " + max
          + " (was " + kind(value) + ")");
    }
    long n = ((Number) value).longValue();
    if (n < min || n > max) {
      throw new BadRequest(field + ": must be between " + min + " and " + max + " (was " + n
          + ")");
    }
    return n;
  }

  private static double number(Object value, String field, double min, double max) {
    if (!(value instanceof Number number)) {
      throw new BadRequest(field + ": must be a number between " + min + " and " + max
          + " (was " + kind(value) + ")");
    }
    double n = number.doubleValue();
    if (!(n >= min && n <= max)) {
      throw new BadRequest(field + ": must be between " + min + " and " + max + " (was " + n
          + ")");
    }
    return n;
  }

  private static void only(JsonObject json, Set<String> allowed, String prefix) {
    for (String name : json.fieldNames()) {
      if (!allowed.contains(name)) {
        throw new BadRequest(prefix + RequestDecoder.clip(name) + ": unknown field; expected "
            + new TreeSet<>(allowed));
      }
    }
  }

  private static String kind(Object value) {
    return value instanceof String ? "a string"
        : value instanceof Number ? "a number " + value
        : value instanceof Boolean ? "a boolean"
        : value instanceof JsonObject ? "an object"
        : value instanceof JsonArray ? "an array" : value.getClass().getSimpleName();
  }
}
