package dev.shepherd.runtime.wire;

import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.JsonCheck;

/**
 * An in-JVM submitter's request checked as the protocol checks a submit on the bus ({@link
 * RequestDecoder}): the same bounds, a {@link BadRequest} naming the field, so {@code
 * PoolClient} refuses what the bus would answer {@code 400}.
 */
public final class JobRequestCheck {
  private JobRequestCheck() {}

  /**
   * Checks ids, timeout, progress timeout, delay, retry, group and priority, and the payload's
   * depth, and measures the payload for
   * the byte budget. A delay beyond the pool's {@code maxDelayMs} is the pool's to refuse.
   */
  public static Requests.Submit check(JobRequest request, int maxPayloadDepth) {
    checkId("job", request.job());
    checkId("key", request.key());
    if (request.timeoutMs() < 0 || request.timeoutMs() > RequestDecoder.MAX_TIMEOUT_MS) {
      throw new BadRequest("timeoutMs: must be between 1 and " + RequestDecoder.MAX_TIMEOUT_MS
          + ", or 0 for the pool's default (was " + request.timeoutMs() + ")");
    }
    if (request.progressTimeoutMs() < 0
        || request.progressTimeoutMs() > RequestDecoder.MAX_TIMEOUT_MS) {
      throw new BadRequest("progressTimeoutMs: must be between 1 and "
          + RequestDecoder.MAX_TIMEOUT_MS + ", or 0 for the pool's default (was "
          + request.progressTimeoutMs() + ")");
    }
    if (request.delayMs() < 0 || request.delayMs() > RequestDecoder.MAX_DELAY_MS) {
      throw new BadRequest("delayMs: must be between 0 and the pool's maxDelayMs (was "
          + request.delayMs() + ")");
    }
    RetryJson.check(request.retry());
    RequestDecoder.checkGroup("group", request.group());
    RequestDecoder.checkPriority(request.priority());
    long bytes = JsonCheck.payload(request.payload(), maxPayloadDepth);
    return new Requests.Submit(request.job(), request.payload(), request.key(), null,
        request.timeoutMs(), bytes, request.delayMs(), request.retry(), request.group(),
        request.priority(), request.progressTimeoutMs());
  }

  /** A job, key or worker id: 1 to {@link RequestDecoder#MAX_ID_LENGTH} characters, or null. */
  public static void checkId(String field, String value) {
    if (value != null && (value.isEmpty() || value.length() > RequestDecoder.MAX_ID_LENGTH)) {
      throw new BadRequest(field + ": must be 1 to " + RequestDecoder.MAX_ID_LENGTH
          + " characters (was " + value.length() + ")");
    }
  }

}
