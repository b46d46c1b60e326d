package dev.shepherd.runtime;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * The reading of a completed job's result as the type its submitter asked for ({@link
 * PoolClient#submit(JobRequest, Class)}). In the pool's JVM a result is the worker's object
 * itself; over the bus it is the JSON value the worker's result was sent as, so the reading
 * bridges what JSON changes and nothing more:
 *
 * <ul>
 *   <li>a result of the type (or null) is returned as it is;
 *   <li>a number becomes the boxed number type asked for (primitive classes mean their boxes):
 *       {@code Double} or {@code Float} from any number, {@code Long}, {@code Integer}, {@code
 *       Short} or {@code Byte} from a whole number that fits (JSON decodes {@code 7} as an
 *       {@code Integer} and {@code 1e10} as a {@code Long});
 *   <li>a {@code Map} becomes a {@link JsonObject} and a {@code List} a {@link JsonArray}, and
 *       back;
 *   <li>a {@link JsonObject} becomes any other class through {@link JsonObject#mapTo} (which
 *       needs Jackson Databind on the class path).
 * </ul>
 *
 * Anything else is a {@link ClassCastException} naming the job, the result's type and the type
 * asked for.
 */
final class ResultTypes {
  private ResultTypes() {}

  /** {@code result} of {@code job} as a {@code type}; throws {@link ClassCastException}. */
  static <T> T as(Object result, Class<T> type, String job) {
    Class<?> wanted = boxed(type);
    if (result == null) {
      if (type.isPrimitive()) {
        throw mismatch(job, null, type, "null is no " + type.getName());
      }
      return null;
    }
    if (wanted.isInstance(result)) {
      return cast(result, wanted);
    }
    Object converted;
    if (result instanceof Number number && Number.class.isAssignableFrom(wanted)) {
      converted = number(number, wanted);
    } else if (result instanceof Map<?, ?> map && wanted == JsonObject.class) {
      Map<String, Object> fields = stringKeys(map);
      converted = fields == null ? null : new JsonObject(fields);
    } else if (result instanceof List<?> list && wanted == JsonArray.class) {
      converted = new JsonArray(list);
    } else if (result instanceof JsonObject json && wanted.isAssignableFrom(Map.class)) {
      converted = json.getMap();
    } else if (result instanceof JsonArray json && wanted.isAssignableFrom(List.class)) {
      converted = json.getList();
    } else if (result instanceof JsonObject json && !isJsonValue(wanted)) {
      try {
        converted = json.mapTo(wanted);
      } catch (RuntimeException e) {
        throw mismatch(job, result, type, String.valueOf(e.getMessage()));
      }
    } else {
      converted = null;
    }
    if (converted == null) {
      throw mismatch(job, result, type, null);
    }
    return cast(converted, wanted);
  }

  @SuppressWarnings("unchecked")
  private static <T> T cast(Object value, Class<?> wanted) {
    // wanted is type itself, or its box: what a Class<int> stands for in a Future<Integer>.
    return (T) wanted.cast(value);
  }

  private static Object number(Number number, Class<?> wanted) {
    if (wanted == Double.class) {
      return number.doubleValue();
    }
    if (wanted == Float.class) {
      return number.floatValue();
    }
    Long whole = exactLong(number);
    if (whole == null) {
      return null;
    }
    long v = whole;
    if (wanted == Long.class) {
      return v;
    } else if (wanted == Integer.class) {
      return v == (int) v ? (int) v : null;
    } else if (wanted == Short.class) {
      return v == (short) v ? (short) v : null;
    } else if (wanted == Byte.class) {
      return v == (byte) v ? (byte) v : null;
    }
    return null;
  }

  private static boolean isIntegral(Number number) {
    return number instanceof Integer || number instanceof Long || number instanceof Short
        || number instanceof Byte;
  }

  /** The number as a long when it is a whole number within range, else null. */
  private static Long exactLong(Number number) {
    if (isIntegral(number)) {
      return number.longValue();
    }
    if (number instanceof java.math.BigInteger big) {
      return big.bitLength() < 64 ? big.longValue() : null;
    }
    double d = number.doubleValue();
    if (d != Math.rint(d) || Double.isInfinite(d) || Math.abs(d) >= 0x1p63) {
      return null;
    }
    return (long) d;
  }

  private static boolean isJsonValue(Class<?> type) {
    return type == JsonArray.class || type == String.class || type == Boolean.class
        || Number.class.isAssignableFrom(type) || type == Object.class
        || type.isAssignableFrom(List.class) || type.isArray() || type.isPrimitive();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> stringKeys(Map<?, ?> map) {
    for (Object key : map.keySet()) {
      if (!(key instanceof String)) {
        return null;
      }
    }
    return (Map<String, Object>) map;
  }

  private static Class<?> boxed(Class<?> type) {
    if (!type.isPrimitive()) {
      return type;
    }
    if (type == int.class) {
      return Integer.class;
    } else if (type == long.class) {
      return Long.class;
    } else if (type == double.class) {
      return Double.class;
    } else if (type == float.class) {
      return Float.class;
    } else if (type == short.class) {
      return Short.class;
    } else if (type == byte.class) {
      return Byte.class;
    } else if (type == boolean.class) {
      return Boolean.class;
    } else if (type == char.class) {
      return Character.class;
    }
    return Void.class;
  }

  private static ClassCastException mismatch(String job, Object result, Class<?> type,
      String why) {
    return new ClassCastException("job " + job + " completed with "
        + (result == null ? "null" : "a " + result.getClass().getName()) + ", not a "
        + type.getName() + (why == null ? "" : " (" + why + ")"));
  }
}
