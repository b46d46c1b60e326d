package dev.shepherd.web;

import dev.shepherd.runtime.Addresses;
import dev.shepherd.runtime.Coordinator;
import dev.shepherd.runtime.LocalPools;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;
import io.vertx.ext.web.handler.sockjs.SockJSHandlerOptions;
import io.vertx.ext.web.handler.sockjs.Transport;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SockJS event-bus bridge at {@code /eventbus}: browsers may receive from each pool's
 * configured outbound addresses (default {@code <prefix>.events}) and send requests to its
 * inbound ones (default {@code <prefix>.submit} and {@code <prefix>.status}); every other address
 * is refused ({@code access_denied}), a publish is refused ({@code rejected}), and with a token
 * configured each inbound message must carry the header {@code Authorization: Bearer <token>}
 * (refused otherwise; the header is removed before the message goes on). The permitted addresses
 * are those of the pools deployed when the server starts. {@link BridgeSession} speaks the
 * protocol and checks every frame; the JSONP transport, which needs form bodies, is off.
 */
final class EventBusBridge {
  private static final Logger LOG = LoggerFactory.getLogger(EventBusBridge.class);
  /** How long a send waits for its reply (a submit waits for its job's outcome). */
  static final long REPLY_TIMEOUT_MS = 60_000;
  /** The longest a connection may go without a {@code ping} frame (vertx-eventbus.js: 5 s). */
  static final long PING_TIMEOUT_MS = 10_000;

  private final Vertx vertx;
  private final HttpConfig.Bridge config;
  private final BearerToken token;
  private final Set<String> inbound = new LinkedHashSet<>();
  private final Set<String> outbound = new LinkedHashSet<>();

  EventBusBridge(Vertx vertx, HttpConfig.Bridge config, BearerToken token) {
    this.vertx = vertx;
    this.config = config;
    this.token = token;
  }

  /** The bridge's router, to mount at {@code /eventbus/*}. */
  Router router() {
    for (Coordinator pool : LocalPools.all(vertx)) {
      Addresses addresses = pool.config().addresses();
      config.inbound().forEach(suffix -> inbound.add(addresses.prefix() + "." + suffix));
      config.outbound().forEach(suffix -> outbound.add(addresses.prefix() + "." + suffix));
    }
    LOG.debug("event-bus bridge: inbound {}, outbound {}", inbound, outbound);
    Set<String> in = Set.copyOf(inbound);
    Set<String> out = Set.copyOf(outbound);
    return SockJSHandler.create(vertx, new SockJSHandlerOptions()
            .addDisabledTransport(Transport.JSON_P.name()))
        .socketHandler(socket -> new BridgeSession(vertx, socket, in, out, token,
            REPLY_TIMEOUT_MS, PING_TIMEOUT_MS).start());
  }
}
