package dev.shepherd.runtime.wire;

import dev.shepherd.core.PoolSize;
import dev.shepherd.core.JobError;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.RetryOverride;
import dev.shepherd.runtime.config.JobSettingsConfig;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.JsonCheck;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decodes and validates every request body of protocol v1. Each refusal is a {@link BadRequest}
 * whose message names the field: not an object, unknown or missing fields, wrong types, and the
 * limits of section 7 in docs/rules.md ({@code job}/{@code key} 1–256 characters, {@code timeoutMs}
 * a positive integer), section 10's {@code delayMs} (an integer from 0, J4) and {@code retry}
 * ({@link RetryJson}, J3), and a payload no deeper than the pool's {@code maxPayloadDepth}. {@code
 * null} for an optional field means absent.
 *
 * <p>A submit that arrives as bytes (an HTTP body, a bus message holding text or a buffer) keeps
 * its payload in those bytes ({@link RawJson}, read by {@link RawSubmitReader}); one that arrives
 * decoded has its payload walked once ({@link JsonCheck}) for depth and size.
 */
public final class RequestDecoder {
  public static final int MAX_ID_LENGTH = 256;
  public static final long MAX_TIMEOUT_MS = Integer.MAX_VALUE;
  /** The longest a lookup may wait for a job's outcome (J6 in docs/rules.md): an hour. */
  public static final long MAX_WAIT_MS = 3_600_000;
  /** How long a lookup waits when it says nothing: as long as a waiting submit over the bus. */
  public static final long DEFAULT_WAIT_MS = PoolClient.DEFAULT_REQUEST_TIMEOUT_MS;
  /** The most dead letters one page holds (J5 in docs/rules.md). */
  public static final int MAX_PAGE = 500;
  /** A page's size when it says nothing. */
  public static final int DEFAULT_PAGE = 50;
  /** The longest {@code delayMs} any pool may allow (its {@code maxDelayMs} is at most this). */
  public static final long MAX_DELAY_MS = JobSettingsConfig.MAX_MS;

  /*
   * The fields each request may carry, built once: a set made per request cost a submit over the
   * bus about a twentieth of the coordinator's time (docs/benchmarks.md).
   */
  private static final Set<String> SUBMIT_FIELDS = Set.of(BusWire.JOB, BusWire.PAYLOAD,
      BusWire.KEY, BusWire.REPLY_TO, BusWire.TIMEOUT_MS, BusWire.DELAY_MS, BusWire.RETRY,
      BusWire.GROUP, BusWire.PRIORITY, BusWire.PROGRESS_TIMEOUT_MS);
  private static final Set<String> COMPLETED_FIELDS = Set.of(BusWire.WORKER, BusWire.ASSIGNMENT,
      BusWire.RESULT, BusWire.ERROR);
  private static final Set<String> RATE_LIMITED_FIELDS = Set.of(BusWire.WORKER,
      BusWire.ASSIGNMENT, BusWire.RATE_LIMITED_MS);

  private RequestDecoder() {}

  /** The body as a JSON object: a JsonObject, or a string/buffer holding one. */
  public static JsonObject object(Object body) {
    if (body instanceof JsonObject json) {
      return json;
    }
    if (body instanceof String || body instanceof io.vertx.core.buffer.Buffer) {
      String text = body.toString();
      try {
        Object parsed = io.vertx.core.json.Json.decodeValue(text);
        if (parsed instanceof JsonObject json) {
          return json;
        }
      } catch (DecodeException e) {
        throw new BadRequest("body: not valid JSON (" + firstLine(e.getMessage()) + ")");
      }
    }
    throw new BadRequest("body: must be a JSON object");
  }

  /** A submit with the default {@code maxPayloadDepth}. */
  public static Requests.Submit submit(Object body) {
    return submit(body, PoolConfig.DEFAULT_MAX_PAYLOAD_DEPTH);
  }

  /** A submit whose payload may be nested at most {@code maxPayloadDepth} levels deep. */
  public static Requests.Submit submit(Object body, int maxPayloadDepth) {
    JsonObject json;
    if (body instanceof io.vertx.core.buffer.Buffer buffer) {
      json = RawSubmitReader.envelope(buffer, maxPayloadDepth);
    } else if (body instanceof String text) {
      json = RawSubmitReader.envelope(io.vertx.core.buffer.Buffer.buffer(text), maxPayloadDepth);
    } else {
      json = object(body);
    }
    only(json, SUBMIT_FIELDS);
    if (!json.containsKey(BusWire.PAYLOAD)) {
      throw new BadRequest("payload: is required (any JSON value)");
    }
    String job = id(json, BusWire.JOB, false);
    String key = id(json, BusWire.KEY, false);
    String replyTo = string(json, BusWire.REPLY_TO, false, MAX_ID_LENGTH);
    Object timeout = json.getValue(BusWire.TIMEOUT_MS);
    long timeoutMs = 0;
    if (timeout != null) {
      if (!(timeout instanceof Integer || timeout instanceof Long)) {
        throw new BadRequest("timeoutMs: must be a positive integer (was " + render(timeout) + ")");
      }
      timeoutMs = ((Number) timeout).longValue();
      if (timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
        throw new BadRequest("timeoutMs: must be between 1 and " + MAX_TIMEOUT_MS + " (was "
            + timeoutMs + ")");
      }
    }
    Object progressTimeout = json.getValue(BusWire.PROGRESS_TIMEOUT_MS);
    long progressTimeoutMs = 0;
    if (progressTimeout != null) {
      // T2: the job's own progress timeout, checked like its timeoutMs.
      if (!(progressTimeout instanceof Integer || progressTimeout instanceof Long)
          || ((Number) progressTimeout).longValue() < 1
          || ((Number) progressTimeout).longValue() > MAX_TIMEOUT_MS) {
        throw new BadRequest("progressTimeoutMs: must be an integer between 1 and "
            + MAX_TIMEOUT_MS + " (was " + render(progressTimeout) + ")");
      }
      progressTimeoutMs = ((Number) progressTimeout).longValue();
    }
    long delayMs = delay(json.getValue(BusWire.DELAY_MS));
    RetryOverride retry = RetryJson.decode(json.getValue(BusWire.RETRY));
    String group = id(json, BusWire.GROUP, false);
    int priority = priority(json.getValue(BusWire.PRIORITY));
    Object payload = json.getValue(BusWire.PAYLOAD);
    long bytes = JsonCheck.payload(payload, maxPayloadDepth);
    return new Requests.Submit(job, payload, key, replyTo, timeoutMs, bytes, delayMs, retry, group,
        priority, progressTimeoutMs);
  }

  /**
   * {@code priority} (F3 in docs/rules.md): an integer from 0 (first) to {@value
   * Requests.Submit#MAX_PRIORITY}; null = {@value Requests.Submit#DEFAULT_PRIORITY}.
   */
  static int priority(Object value) {
    if (value == null) {
      return Requests.Submit.DEFAULT_PRIORITY;
    }
    if (!(value instanceof Integer || value instanceof Long)) {
      throw new BadRequest("priority: must be an integer from 0 to " + Requests.Submit.MAX_PRIORITY
          + " (was " + render(value) + ")");
    }
    return checkPriority(((Number) value).longValue());
  }

  /** A priority, checked: 0 to {@value Requests.Submit#MAX_PRIORITY}. */
  public static int checkPriority(long priority) {
    if (priority < 0 || priority > Requests.Submit.MAX_PRIORITY) {
      throw new BadRequest("priority: must be between 0 and " + Requests.Submit.MAX_PRIORITY
          + " (was " + priority + ")");
    }
    return (int) priority;
  }

  /** A group name, checked: 1 to {@value #MAX_ID_LENGTH} characters (F1 in docs/rules.md). */
  public static String checkGroup(String field, String group) {
    if (group != null && (group.isEmpty() || group.length() > MAX_ID_LENGTH)) {
      throw new BadRequest(field + ": must be 1 to " + MAX_ID_LENGTH + " characters (was "
          + group.length() + ")");
    }
    return group;
  }

  /**
   * {@code delayMs} (J4 in docs/rules.md): an integer from 0 (null = 0). Its limit is the pool's
   * {@code maxDelayMs}, which only the pool knows ({@link #checkForPool}).
   */
  private static long delay(Object value) {
    if (value == null) {
      return 0;
    }
    if (!(value instanceof Integer || value instanceof Long)) {
      throw new BadRequest("delayMs: must be an integer from 0 (was " + render(value) + ")");
    }
    long delayMs = ((Number) value).longValue();
    if (delayMs < 0 || delayMs > MAX_DELAY_MS) {
      throw new BadRequest("delayMs: must be between 0 and the pool's maxDelayMs (was "
          + delayMs + ")");
    }
    return delayMs;
  }

  /**
   * Checks what only the pool can: a {@code delayMs} within its {@code maxDelayMs} (J4 in
   * docs/rules.md). Called where the pool takes a submit (its bus address, its in-JVM handle), so a
   * submit that went through another node's HTTP layer is judged by the pool itself.
   */
  public static void checkForPool(Requests.Submit request, PoolConfig pool) {
    long max = pool.settings().jobs().maxDelayMs();
    if (request.delayMs() > max) {
      throw new BadRequest("delayMs: must be at most " + max + ", the maxDelayMs of pool "
          + pool.name() + " (was " + request.delayMs() + ")");
    }
  }

  public static Requests.Completed completed(Object body) {
    JsonObject json = object(body);
    only(json, COMPLETED_FIELDS);
    String worker = id(json, BusWire.WORKER, true);
    Object assignment = json.getValue(BusWire.ASSIGNMENT);
    if (!(assignment instanceof Integer || assignment instanceof Long)) {
      throw new BadRequest("assignment: is required, an integer token (was "
          + render(assignment) + ")");
    }
    boolean hasResult = json.containsKey(BusWire.RESULT);
    boolean hasError = json.getValue(BusWire.ERROR) != null;
    if (hasResult == hasError) {
      throw new BadRequest("result/error: exactly one of them is required");
    }
    JobError error = hasError ? JobErrorJson.decode(json.getValue(BusWire.ERROR), "error.") : null;
    return new Requests.Completed(worker, ((Number) assignment).longValue(),
        json.getValue(BusWire.RESULT), error);
  }

  /**
   * Whether a {@code .completed} body is a rate-limited answer (F4 in docs/rules.md): it has
   * {@code rateLimitedMs}.
   */
  public static boolean isRateLimited(Object body) {
    return object(body).getValue(BusWire.RATE_LIMITED_MS) != null;
  }

  /** {@code {"worker", "assignment", "rateLimitedMs": 0..}} (F4 in docs/rules.md). */
  public static Requests.RateLimited rateLimited(Object body) {
    JsonObject json = object(body);
    only(json, RATE_LIMITED_FIELDS);
    String worker = id(json, BusWire.WORKER, true);
    Object assignment = json.getValue(BusWire.ASSIGNMENT);
    if (!(assignment instanceof Integer || assignment instanceof Long)) {
      throw new BadRequest("assignment: is required, an integer token (was "
          + render(assignment) + ")");
    }
    Object hold = json.getValue(BusWire.RATE_LIMITED_MS);
    if (!(hold instanceof Integer || hold instanceof Long) || ((Number) hold).longValue() < 0) {
      throw new BadRequest("rateLimitedMs: must be an integer from 0 (was " + render(hold) + ")");
    }
    long holdMs = Math.min(((Number) hold).longValue(),
        dev.shepherd.runtime.JobRateLimitedException.MAX_HOLD_MS);
    return new Requests.RateLimited(worker, ((Number) assignment).longValue(), holdMs);
  }

  public static Requests.Rebalance rebalance(Object body) {
    JsonObject json = object(body);
    only(json, Set.of(BusWire.KEY, BusWire.WORKER));
    return new Requests.Rebalance(id(json, BusWire.KEY, true), id(json, BusWire.WORKER, true));
  }

  public static Requests.Cancel cancel(Object body) {
    JsonObject json = object(body);
    only(json, Set.of(BusWire.JOB));
    return new Requests.Cancel(id(json, BusWire.JOB, true));
  }

  /** An operator's revive: {@code {"worker": str}}. */
  public static Requests.Revive revive(Object body) {
    JsonObject json = object(body);
    only(json, Set.of(BusWire.WORKER));
    return new Requests.Revive(id(json, BusWire.WORKER, true));
  }

  /**
   * A lookup (J6 in docs/rules.md): {@code {"job": str, "wait"?: bool, "timeoutMs"?: int}}; {@code
   * timeoutMs} (1 to {@link #MAX_WAIT_MS}, default {@link #DEFAULT_WAIT_MS}) only with {@code
   * wait}.
   */
  public static Requests.Lookup lookup(Object body) {
    JsonObject json = object(body);
    only(json, Set.of(BusWire.JOB, BusWire.WAIT, BusWire.TIMEOUT_MS));
    String job = id(json, BusWire.JOB, true);
    Object wait = json.getValue(BusWire.WAIT);
    if (wait != null && !(wait instanceof Boolean)) {
      throw new BadRequest("wait: must be true or false (was " + render(wait) + ")");
    }
    boolean waits = Boolean.TRUE.equals(wait);
    Object timeout = json.getValue(BusWire.TIMEOUT_MS);
    if (timeout == null) {
      return new Requests.Lookup(job, waits, DEFAULT_WAIT_MS);
    }
    if (!waits) {
      throw new BadRequest("timeoutMs: only with \"wait\": true");
    }
    if (!(timeout instanceof Integer || timeout instanceof Long)) {
      throw new BadRequest("timeoutMs: must be a positive integer (was " + render(timeout) + ")");
    }
    return new Requests.Lookup(job, true, waitMs(((Number) timeout).longValue()));
  }

  /** A wait's {@code timeoutMs}, checked: 1 to {@link #MAX_WAIT_MS}. */
  public static long waitMs(long timeoutMs) {
    if (timeoutMs < 1 || timeoutMs > MAX_WAIT_MS) {
      throw new BadRequest("timeoutMs: must be between 1 and " + MAX_WAIT_MS + " (was "
          + timeoutMs + ")");
    }
    return timeoutMs;
  }

  /**
   * A page of the dead-letter set (J5 in docs/rules.md): {@code {"offset"?: int, "limit"?: int}},
   * offset 0 or more (default 0), limit 1 to {@link #MAX_PAGE} (default {@link #DEFAULT_PAGE}).
   */
  public static Requests.DeadLetters deadLetters(Object body) {
    JsonObject json = body == null ? new JsonObject() : object(body);
    only(json, Set.of(BusWire.OFFSET, BusWire.LIMIT));
    return page(integer(json, BusWire.OFFSET, 0), integer(json, BusWire.LIMIT, DEFAULT_PAGE));
  }

  /** A page's bounds, checked: offset 0 or more, limit 1 to {@link #MAX_PAGE}. */
  public static Requests.DeadLetters page(long offset, long limit) {
    if (offset < 0 || offset > Integer.MAX_VALUE) {
      throw new BadRequest("offset: must be between 0 and " + Integer.MAX_VALUE + " (was "
          + offset + ")");
    }
    if (limit < 1 || limit > MAX_PAGE) {
      throw new BadRequest("limit: must be between 1 and " + MAX_PAGE + " (was " + limit + ")");
    }
    return new Requests.DeadLetters((int) offset, (int) limit);
  }

  /** A dead-lettered job to read, replay or discard (J5 in docs/rules.md): {@code {"job": str}}. */
  public static Requests.DeadJob deadJob(Object body) {
    JsonObject json = object(body);
    only(json, Set.of(BusWire.JOB));
    return new Requests.DeadJob(id(json, BusWire.JOB, true));
  }

  /**
   * A pause or resume (F5 in docs/rules.md): {@code {"group"?: str}}, the pool when it names no
   * group.
   */
  public static String pauseTarget(Object body) {
    JsonObject json = body == null ? new JsonObject() : object(body);
    only(json, Set.of(BusWire.GROUP));
    return FlowJson.group(json.getValue(BusWire.GROUP), BusWire.GROUP, false);
  }

  /**
   * A group's settings over the bus (F1, F2, F4, F5 in docs/rules.md): {@code {"group": str,
   * "concurrency"?, "queueCapacity"?, "weight"?, "rateLimit"?, "paused"?}} ({@link FlowJson}).
   */
  public static Requests.SetGroup setGroup(Object body) {
    JsonObject json = object(body);
    dev.shepherd.core.GroupSettings change = FlowJson.settings(json, Set.of(BusWire.GROUP));
    return new Requests.SetGroup(FlowJson.group(json.getValue(BusWire.GROUP), BusWire.GROUP, true),
        change);
  }

  /** A look at one group: {@code {"group": str}}. */
  public static Requests.GroupLookup groupLookup(Object body) {
    JsonObject json = object(body);
    only(json, Set.of(BusWire.GROUP));
    return new Requests.GroupLookup(
        FlowJson.group(json.getValue(BusWire.GROUP), BusWire.GROUP, true));
  }

  private static long integer(JsonObject json, String field, long absent) {
    Object value = json.getValue(field);
    if (value == null) {
      return absent;
    }
    if (!(value instanceof Integer || value instanceof Long)) {
      throw new BadRequest(field + ": must be an integer (was " + render(value) + ")");
    }
    return ((Number) value).longValue();
  }

  /**
   * F6 (docs/rules.md): a resize, {@code {"instances"?: int, "maxConcurrency"?: int}}, at least one
   * of them: {@code instances} 0 to {@link PoolSize#MAX_INSTANCES} (0 only for a pool that runs on
   * worker hosts alone, which the pool checks), {@code maxConcurrency} 1 to {@link
   * PoolSize#MAX_CONCURRENCY}; {@code null} is absent.
   */
  public static Requests.Resize resize(Object body) {
    JsonObject json = object(body);
    only(json, Set.of(BusWire.INSTANCES, BusWire.MAX_CONCURRENCY));
    Integer instances = bounded(json, BusWire.INSTANCES, 0, PoolSize.MAX_INSTANCES);
    Integer maxConcurrency = bounded(json, BusWire.MAX_CONCURRENCY, 1, PoolSize.MAX_CONCURRENCY);
    if (instances == null && maxConcurrency == null) {
      throw new BadRequest("instances: give instances, maxConcurrency or both (was neither)");
    }
    return new Requests.Resize(instances, maxConcurrency);
  }

  /** An optional whole number from {@code min} to {@code max}, or null when absent. */
  private static Integer bounded(JsonObject json, String field, int min, int max) {
    Object value = json.getValue(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Integer || value instanceof Long)
        || ((Number) value).longValue() < min || ((Number) value).longValue() > max) {
      throw new BadRequest(field + ": must be a whole number from " + min + " to " + max
          + " (was " + render(value) + ")");
    }
    return ((Number) value).intValue();
  }

  /** A status request: an empty object (or no body). */
  public static void status(Object body) {
    if (body == null) {
      return;
    }
    only(object(body), Set.of());
  }

  /** A history request: an empty object (or no body), as for status. */
  public static void history(Object body) {
    status(body);
  }

  static String id(JsonObject json, String field, boolean required) {
    return string(json, field, required, MAX_ID_LENGTH);
  }

  private static String string(JsonObject json, String field, boolean required, int max) {
    Object value = json.getValue(field);
    if (value == null) {
      if (required) {
        throw new BadRequest(field + ": is required, a non-empty string");
      }
      return null;
    }
    if (!(value instanceof String text)) {
      throw new BadRequest(field + ": must be a string (was " + render(value) + ")");
    }
    if (text.isEmpty() || text.length() > max) {
      throw new BadRequest(field + ": must be 1 to " + max + " characters (was "
          + text.length() + ")");
    }
    return text;
  }

  private static void only(JsonObject json, Set<String> allowed) {
    only(json, allowed, "");
  }

  private static void only(JsonObject json, Set<String> allowed, String prefix) {
    for (String name : json.fieldNames()) {
      if (!allowed.contains(name)) {
        throw new BadRequest(prefix + clip(name) + ": unknown field; expected "
            + (allowed.isEmpty() ? "none" : new java.util.TreeSet<>(allowed)));
      }
    }
  }

  private static String render(Object value) {
    if (value == null) {
      return "missing";
    }
    String type = value instanceof String ? "a string"
        : value instanceof Number ? "a number " + value
        : value instanceof Boolean ? "a boolean"
        : value instanceof JsonObject ? "an object"
        : value instanceof io.vertx.core.json.JsonArray ? "an array" : value.getClass().getSimpleName();
    return type;
  }

  /** A field name clipped for an error message. */
  static String clip(String name) {
    return name.length() > 40 ? name.substring(0, 40) + "…" : name;
  }

  /** The first line of a parser's message, clipped for an error message. */
  static String firstLine(String message) {
    if (message == null) {
      return "unparseable";
    }
    int end = message.indexOf('\n');
    String line = withoutSource(end < 0 ? message : message.substring(0, end));
    if (end >= 0) {
      Matcher at = JACKSON_LOCATION.matcher(message.substring(end));
      if (at.find()) {
        line = line + " at line " + at.group(1) + ", column " + at.group(2);
      }
    }
    return line.length() > 160 ? line.substring(0, 160) + "…" : line;
  }

  /** Jackson's "[Source: REDACTED (…); line: 1, column: 2]" as "line 1, column 2". */
  private static String withoutSource(String line) {
    return JACKSON_LOCATION.matcher(line).replaceAll("line $1, column $2");
  }

  private static final Pattern JACKSON_LOCATION =
      Pattern.compile("\\[Source: [^\\n]*?; line: (\\d+), column: (\\d+)\\]");
}
