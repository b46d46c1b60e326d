package dev.shepherd.runtime.payload;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One bounded walk over a value that is already decoded (a payload from the bus or an in-JVM
 * submitter, a worker's result): it checks that the value can be written as JSON, and estimates
 * the heap it holds. The walk never goes deeper than its limit, so a value nested too deep, or
 * one that contains itself, is refused after at most that many levels instead of overflowing a
 * stack.
 *
 * <p>What can be written is what {@link JsonValues#toJson} and Vert.x's JSON codec accept: at the
 * top and inside {@code Map}s and {@code List}s anything goes (other objects become their string
 * form); inside a {@code JsonObject} or {@code JsonArray} only JSON values (null, strings,
 * numbers, booleans, objects, arrays, maps with string keys, lists) and what the codec writes as
 * strings (enums, {@code byte[]}, {@code Buffer}, {@code Instant}).
 *
 * <p>The estimate counts the objects a decoded tree is made of on a 64-bit JVM with compressed
 * references (measured by {@code dev.shepherd.bench.QueuedJobFootprint}): an object 72 B plus
 * 48 B a field and its name, an array 56 B plus 5 B an element, a string 40 B plus a byte a
 * character (two beyond Latin-1), a number 16–24 B; an array of half a G1 region or more counts
 * the whole regions it takes ({@link HeapCost}).
 */
public final class JsonCheck {
  /**
   * The deepest result a pool answers with. Jackson writes at most 1000 levels, and an answer
   * wraps a result in up to two more (the outcome, a bridge frame), so 900 leaves room.
   */
  static final int MAX_RESULT_DEPTH = 900;

  static final int OBJECT_BYTES = 72;
  static final int FIELD_BYTES = 48;
  static final int ARRAY_BYTES = 56;
  static final int ELEMENT_BYTES = 5;
  static final int STRING_BYTES = 40;
  static final int OTHER_BYTES = 64;

  /** Why a value cannot be written as JSON, with where (built as the walk unwinds). */
  private static final class NotJson extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The outermost steps of the path to the refused value. */
    private final transient ArrayDeque<String> where = new ArrayDeque<>();
    private boolean clipped;
    /** For a refusal by depth: the containers on the way down, innermost first. */
    private final transient List<Object> containers;

    NotJson(String reason, Object tooDeep) {
      super(reason, null, false, false);
      this.containers = tooDeep == null ? null : new ArrayList<>();
      if (tooDeep != null) {
        containers.add(tooDeep);
      }
    }

    void under(String segment, Object container) {
      where.addFirst(segment);
      if (where.size() > 12) {
        where.removeLast();
        clipped = true;
      }
      if (containers != null) {
        containers.add(container);
      }
    }

    /** {@code root} and the path to the refused value, then the reason. */
    String describe(String root) {
      String reason = reason();
      if (containers != null && reason.startsWith("nested")) {
        return root + ": " + reason;
      }
      return root + String.join("", where) + (clipped ? "…" : "") + ": " + reason;
    }

    /** What is wrong: a path too deep because a container is its own ancestor is a cycle. */
    String reason() {
      if (containers != null) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Object container : containers) {
          if (!seen.add(container)) {
            return "contains itself (a cycle)";
          }
        }
      }
      return getMessage();
    }
  }

  private final int maxDepth;
  private final boolean estimate;

  private JsonCheck(int maxDepth, boolean estimate) {
    this.maxDepth = maxDepth;
    this.estimate = estimate;
  }

  /**
   * The payload's estimated heap bytes; a {@link BadRequest} naming {@code payload} when it is
   * nested deeper than {@code maxDepth}, contains itself, or holds a value JSON cannot carry.
   */
  public static long payload(Object payload, int maxDepth) {
    if (payload instanceof RawJson raw) {
      return HeapCost.ofBytes(raw.length());
    }
    try {
      return new JsonCheck(maxDepth, true).walk(payload, 0, true);
    } catch (NotJson e) {
      String text = e.describe("payload");
      throw new BadRequest(text + (text.startsWith("payload: nested")
          ? " (the pool's maxPayloadDepth)" : ""));
    }
  }

  /**
   * The estimated heap bytes of a result that can be written as JSON, or -1 when it cannot (then
   * {@link #resultProblem} says why): one walk does both, so a completion's check also measures
   * what its outcome costs to remember (J6 in docs/rules.md).
   */
  public static long resultBytes(Object result) {
    if (result == null || result instanceof Boolean) {
      return 0;
    }
    try {
      return new JsonCheck(MAX_RESULT_DEPTH, true).walk(result, 0, true);
    } catch (NotJson e) {
      return -1;
    }
  }

  /** Null when {@code result} can be written as JSON; else why not, naming where. */
  public static String resultProblem(Object result) {
    if (result == null || result instanceof String || result instanceof Number
        || result instanceof Boolean) {
      return null;
    }
    try {
      new JsonCheck(MAX_RESULT_DEPTH, false).walk(result, 0, true);
      return null;
    } catch (NotJson e) {
      return e.describe("result");
    }
  }

  /**
   * Walks {@code value} at {@code depth} (containers above it); {@code converted} when it is
   * reached through maps and lists only, which {@link JsonValues#toJson} converts.
   */
  private long walk(Object value, int depth, boolean converted) {
    if (value == null || value instanceof Boolean || value instanceof Enum<?>) {
      return 0;
    }
    if (value instanceof String text) {
      return estimate ? string(text) : 0;
    }
    if (value instanceof Number number) {
      return number instanceof Integer || number instanceof Short || number instanceof Byte ? 16
          : number instanceof BigDecimal || number instanceof BigInteger ? OTHER_BYTES : 24;
    }
    if (value instanceof JsonObject json) {
      return object(json.getMap(), depth, false);
    }
    if (value instanceof JsonArray json) {
      return array(json.getList(), depth, false);
    }
    if (value instanceof Map<?, ?> map) {
      return object(map, depth, converted);
    }
    if (value instanceof List<?> list) {
      return array(list, depth, converted);
    }
    if (value instanceof byte[] bytes) {
      return 16L + HeapCost.ofBytes(bytes.length);
    }
    if (value instanceof Buffer buffer) {
      return OTHER_BYTES + HeapCost.ofBytes(buffer.length());
    }
    if (value instanceof RawJson raw) {
      return HeapCost.ofBytes(raw.length());
    }
    if (converted || value instanceof Instant) {
      return OTHER_BYTES;
    }
    throw new NotJson(value.getClass().getName() + " is not a JSON value", null);
  }

  private long object(Map<?, ?> map, int depth, boolean converted) {
    enter(map, depth);
    long bytes = OBJECT_BYTES + (long) FIELD_BYTES * map.size();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      Object key = entry.getKey();
      if (!(key instanceof String) && !converted) {
        throw new NotJson("a map key that is not a string ("
            + (key == null ? "null" : key.getClass().getName()) + ")", null);
      }
      try {
        if (estimate) {
          bytes += string(String.valueOf(key));
        }
        bytes += walk(entry.getValue(), depth + 1, converted);
      } catch (NotJson e) {
        e.under("." + clip(String.valueOf(key)), map);
        throw e;
      }
    }
    return bytes;
  }

  private long array(List<?> list, int depth, boolean converted) {
    enter(list, depth);
    long bytes = ARRAY_BYTES + HeapCost.ofBytes((long) ELEMENT_BYTES * list.size());
    int i = 0;
    try {
      for (Object item : list) {
        bytes += walk(item, depth + 1, converted);
        i++;
      }
    } catch (NotJson e) {
      e.under("[" + i + "]", list);
      throw e;
    }
    return bytes;
  }

  /** A container at {@code depth}: refused beyond the limit. */
  private void enter(Object container, int depth) {
    if (depth >= maxDepth) {
      throw new NotJson("nested more than " + maxDepth + " levels deep", container);
    }
  }

  /** A string's heap: one byte a character while all are Latin-1, two otherwise. */
  private static long string(String text) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      if (text.charAt(i) > 0xFF) {
        return STRING_BYTES + HeapCost.ofBytes(2L * n);
      }
    }
    return STRING_BYTES + HeapCost.ofBytes(n);
  }

  private static String clip(String key) {
    return key.length() > 40 ? key.substring(0, 40) + "…" : key;
  }
}
