package dev.shepherd.runtime.payload;

import dev.shepherd.runtime.wire.OutcomeJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;

/**
 * A JSON value kept as the bytes it arrived in: the payload of a submit read from a request body,
 * validated (syntax and depth) but not decoded. A queued job then costs what its payload weighs on
 * the wire, not the tens of times more its decoded tree would (a 1 MiB {@code [{},{},…]} decodes
 * to about 20 MB of objects); the pool decodes it on the incarnation's context just before the
 * worker sees it, and hands the bytes back unchanged when an answer returns the payload.
 *
 * <p>Code that puts a payload into a {@code JsonObject} goes through {@link JsonValues#toJson},
 * which decodes it; an HTTP answer splices the bytes instead ({@link OutcomeJson#toBuffer}).
 */
public final class RawJson {
  private final byte[] bytes;

  /** {@code bytes}, UTF-8, hold exactly one valid JSON value; the array is not copied. */
  public RawJson(byte[] bytes) {
    this.bytes = bytes;
  }

  /** The value's size in bytes: what it counts against the backlog's byte budget. */
  public int length() {
    return bytes.length;
  }

  /** The decoded value: a JsonObject, JsonArray, String, Number, Boolean or null. */
  public Object decode() {
    return Json.decodeValue(Buffer.buffer(bytes));
  }

  /** Appends the bytes, unchanged, to {@code out}. */
  public void appendTo(Buffer out) {
    out.appendBytes(bytes);
  }

  /** The bytes as text (for tests and diagnostics; it copies). */
  public String text() {
    return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Decodes, or says why not in a message that names the payload. */
  public Object decodeForWorker() {
    try {
      return decode();
    } catch (DecodeException e) {
      throw new BadRequest("payload: could not be decoded (" + firstLine(e.getMessage()) + ")");
    }
  }

  private static String firstLine(String message) {
    String line = message == null ? "" : message.lines().findFirst().orElse("");
    return line.length() > 120 ? line.substring(0, 120) + "…" : line;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RawJson raw && java.util.Arrays.equals(bytes, raw.bytes);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "RawJson[" + bytes.length + " bytes]";
  }
}
