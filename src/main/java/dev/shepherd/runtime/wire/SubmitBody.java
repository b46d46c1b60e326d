package dev.shepherd.runtime.wire;

import dev.shepherd.runtime.payload.JsonValues;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * The {@code <prefix>.submit} body (section 6 in docs/rules.md) of a decoded submit, for a pool
 * reached over the bus. A payload still in the bytes it arrived in ({@link RawJson}, e.g. from an
 * HTTP body) is copied in byte for byte and sent as a buffer, never decoded on the way; any other
 * payload goes as a JSON object.
 */
public final class SubmitBody {
  private SubmitBody() {}

  /** The body of {@code request}, with {@code replyTo} (null for none) in place of its own. */
  public static Object encode(Requests.Submit request, String replyTo) {
    JsonObject head = new JsonObject();
    if (request.job() != null) {
      head.put(BusWire.JOB, request.job());
    }
    if (request.key() != null) {
      head.put(BusWire.KEY, request.key());
    }
    if (request.timeoutMs() > 0) {
      head.put(BusWire.TIMEOUT_MS, request.timeoutMs());
    }
    if (request.delayMs() > 0) {
      head.put(BusWire.DELAY_MS, request.delayMs());
    }
    if (request.progressTimeoutMs() > 0) {
      head.put(BusWire.PROGRESS_TIMEOUT_MS, request.progressTimeoutMs());
    }
    if (request.retry() != null) {
      head.put(BusWire.RETRY, RetryJson.encode(request.retry()));
    }
    if (request.group() != null) {
      head.put(BusWire.GROUP, request.group());
    }
    if (request.priority() != Requests.Submit.DEFAULT_PRIORITY) {
      head.put(BusWire.PRIORITY, request.priority());
    }
    if (replyTo != null) {
      head.put(BusWire.REPLY_TO, replyTo);
    }
    if (!(request.payload() instanceof RawJson raw)) {
      return head.put(BusWire.PAYLOAD, JsonValues.toJson(request.payload()));
    }
    Buffer text = head.toBuffer();
    Buffer out = Buffer.buffer(text.length() + raw.length() + 16);
    out.appendBuffer(text, 0, text.length() - 1);
    out.appendString(head.isEmpty() ? "\"payload\":" : ",\"payload\":");
    raw.appendTo(out);
    return out.appendByte((byte) '}');
  }
}
