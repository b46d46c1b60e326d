package dev.shepherd.web;

import dev.shepherd.runtime.Addresses;
import dev.shepherd.runtime.Coordinator;
import dev.shepherd.runtime.LocalPools;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.bridge.BridgeEventType;
import io.vertx.ext.bridge.PermittedOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.sockjs.BridgeEvent;
import io.vertx.ext.web.handler.sockjs.SockJSBridgeOptions;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;
import io.vertx.ext.web.handler.sockjs.SockJSHandlerOptions;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SockJS event-bus bridge at {@code /eventbus}: browsers may receive from each pool's
 * configured outbound addresses (default {@code <prefix>.events}) and send to its inbound ones
 * (default {@code <prefix>.submit} and {@code <prefix>.status}); every other address is refused
 * by the bridge ({@code access_denied}). Inbound messages are requests: a publish is refused
 * ({@code rejected}). With a token configured, each inbound message must carry
 * the header {@code Authorization: Bearer <token>} (refused otherwise, and the header is removed
 * before the message goes on). The permitted addresses are those of the pools deployed when the
 * server starts.
 */
final class EventBusBridge {
  private static final Logger LOG = LoggerFactory.getLogger(EventBusBridge.class);

  private final Vertx vertx;
  private final HttpConfig.Bridge config;
  private final BearerToken token;
  private final List<String> inbound = new ArrayList<>();
  private final List<String> outbound = new ArrayList<>();

  EventBusBridge(Vertx vertx, HttpConfig.Bridge config, BearerToken token) {
    this.vertx = vertx;
    this.config = config;
    this.token = token;
  }

  /** The bridge's router, to mount at {@code /eventbus/*}. */
  Router router() {
    SockJSBridgeOptions options = new SockJSBridgeOptions().setReplyTimeout(60_000);
    for (Coordinator pool : LocalPools.all(vertx)) {
      Addresses addresses = pool.config().addresses();
      for (String suffix : config.inbound()) {
        String address = addresses.prefix() + "." + suffix;
        inbound.add(address);
        options.addInboundPermitted(new PermittedOptions().setAddress(address));
      }
      for (String suffix : config.outbound()) {
        String address = addresses.prefix() + "." + suffix;
        outbound.add(address);
        options.addOutboundPermitted(new PermittedOptions().setAddress(address));
      }
    }
    LOG.debug("event-bus bridge: inbound {}, outbound {}", inbound, outbound);
    return SockJSHandler.create(vertx, new SockJSHandlerOptions()).bridge(options, this::event);
  }

  List<String> inbound() {
    return List.copyOf(inbound);
  }

  List<String> outbound() {
    return List.copyOf(outbound);
  }

  private void event(BridgeEvent event) {
    BridgeEventType type = event.type();
    if (type == BridgeEventType.PUBLISH) {
      // Submit and status are request/reply: a publish could not be answered.
      event.complete(false);
      return;
    }
    if (type == BridgeEventType.SEND) {
      JsonObject raw = event.getRawMessage();
      JsonObject headers = raw == null ? null : raw.getJsonObject("headers");
      Object header = headers == null ? null : headers.getValue("Authorization");
      if (!token.accepts(header instanceof String text ? text : null)) {
        LOG.debug("event-bus bridge: refused {} to {} without a valid token", type,
            raw == null ? null : raw.getString("address"));
        event.complete(false);
        return;
      }
      if (headers != null && headers.containsKey("Authorization")) {
        headers.remove("Authorization");
        event.setRawMessage(raw);
      }
    }
    event.complete(true);
  }
}
