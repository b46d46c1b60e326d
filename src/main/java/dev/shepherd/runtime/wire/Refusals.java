package dev.shepherd.runtime.wire;

import dev.shepherd.core.PoolError;
import dev.shepherd.runtime.PoolErrorException;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import java.util.regex.Pattern;

/**
 * The one codec of a pool's refusals on the event bus (protocol section 6 in docs/rules.md): a
 * refusal is a failed reply whose code is the refusal's ({@link PoolErrorException#code()}) and
 * whose message is {@code "NAME: details"}, {@code NAME} being the protocol's error name. Every
 * endpoint that refuses writes through {@link #fail}, and every client that reads a refusal back
 * goes through {@link #parse}, so the two sides cannot drift apart.
 */
public final class Refusals {
  /**
   * The name a refusal is read back with when its message names none (a failure that did not
   * come from this codec): its whole message becomes the details.
   */
  public static final String UNNAMED = "UNNAMED_REFUSAL";

  /** Between the name and the details. */
  static final String SEPARATOR = ": ";

  private static final Pattern NAME = Pattern.compile("[A-Z][A-Z0-9_]*");

  private Refusals() {}

  /** The message of a refusal: {@code "NAME: details"}. */
  public static String text(String name, String details) {
    return name + SEPARATOR + details;
  }

  /** Fails {@code message} with {@code error}, with the code its name has. */
  public static void fail(Message<?> message, PoolError error) {
    fail(message, new PoolErrorException(error));
  }

  /** Fails {@code message} with {@code refusal}, with its code. */
  public static void fail(Message<?> message, PoolErrorException refusal) {
    message.fail(refusal.code(), refusal.getMessage());
  }

  /** Fails {@code message} with a refusal of this code, name and details. */
  public static void fail(Message<?> message, int code, String name, String details) {
    message.fail(code, text(name, details));
  }

  /** Whether {@code failure} is a refusal: a recipient's failure with a refusal's code. */
  public static boolean isRefusal(ReplyException failure) {
    int code = failure.failureCode();
    return code == 409 || code == 404 || code == 429 || code == 503;
  }

  /**
   * The refusal {@code failure} carries, keeping its failure code: its name and details when its
   * message is {@code "NAME: details"} (or just {@code NAME}); otherwise {@link #UNNAMED} with the
   * whole message (or "no message") as the details.
   */
  public static PoolErrorException parse(ReplyException failure) {
    String message = failure.getMessage();
    int code = failure.failureCode();
    if (message == null || message.isEmpty()) {
      return new PoolErrorException(UNNAMED, "no message", code);
    }
    int separator = message.indexOf(SEPARATOR);
    String name = separator < 0 ? message : message.substring(0, separator);
    if (!NAME.matcher(name).matches()) {
      return new PoolErrorException(UNNAMED, message, code);
    }
    return new PoolErrorException(name,
        separator < 0 ? "" : message.substring(separator + SEPARATOR.length()), code);
  }

  /** Whether {@code failure} is a refusal named {@code name}. */
  public static boolean named(Throwable failure, String name) {
    return failure instanceof ReplyException reply && isRefusal(reply)
        && parse(reply).name().equals(name);
  }
}
