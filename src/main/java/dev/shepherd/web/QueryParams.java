package dev.shepherd.web;

import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * Reads of a request's query parameters that refuse what is malformed with a {@link BadRequest}
 * naming the parameter: one given twice, a boolean other than {@code true}/{@code false}, a
 * number that is not a whole number.
 */
final class QueryParams {
  private QueryParams() {}

  /** The value of {@code name}, or null when absent. */
  static String single(RoutingContext ctx, String name) {
    List<String> values = ctx.queryParam(name);
    if (values.isEmpty()) {
      return null;
    }
    if (values.size() > 1) {
      throw new BadRequest(name + ": given " + values.size() + " times; give it once");
    }
    return values.get(0);
  }

  static boolean bool(RoutingContext ctx, String name, boolean absent) {
    String value = single(ctx, name);
    if (value == null) {
      return absent;
    }
    if (!value.equals("true") && !value.equals("false")) {
      throw new BadRequest(name + ": must be true or false (was \"" + clip(value) + "\")");
    }
    return value.equals("true");
  }

  /** A whole number, or {@code absent}; its range is for the caller to check. */
  static long integer(RoutingContext ctx, String name, long absent) {
    String value = single(ctx, name);
    if (value == null) {
      return absent;
    }
    if (!value.matches("-?[0-9]{1,18}")) {
      throw new BadRequest(name + ": must be a whole number (was \"" + clip(value) + "\")");
    }
    return Long.parseLong(value);
  }

  /** Whether {@code name} is in the query. */
  static boolean has(RoutingContext ctx, String name) {
    return !ctx.queryParam(name).isEmpty();
  }

  private static String clip(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "…" : text;
  }
}
