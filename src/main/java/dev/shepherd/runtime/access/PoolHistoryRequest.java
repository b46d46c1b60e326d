package dev.shepherd.runtime.access;

import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches a pool's {@code history} frame (its recent events, per-second outcomes and last exits)
 * from {@code <prefix>.history}, wherever the pool runs. A pool that does not answer in time, or
 * answers something else, gives no frame: the live view then starts from the snapshot alone.
 */
public final class PoolHistoryRequest {
  private static final Logger LOG = LoggerFactory.getLogger(PoolHistoryRequest.class);
  /** How long a new live-view connection waits for the pool's history before going on. */
  static final long TIMEOUT_MS = 5_000;

  private PoolHistoryRequest() {}

  /** The frame, or null (never a failed future). */
  static Future<JsonObject> fetch(Vertx vertx, Addresses addresses) {
    return vertx.eventBus().<Object>request(addresses.history(), new JsonObject(),
            new DeliveryOptions().setSendTimeout(TIMEOUT_MS))
        .map(reply -> reply.body() instanceof JsonObject frame
            && "history".equals(frame.getString("type")) ? frame : null)
        .otherwise(e -> {
          LOG.debug("no history from {}: {}", LogText.quote(addresses.history()),
              LogText.quote(e.toString()));
          return null;
        });
  }
}
