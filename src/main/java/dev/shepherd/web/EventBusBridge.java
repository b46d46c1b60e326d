package dev.shepherd.web;

import dev.shepherd.runtime.access.PoolDirectory;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;
import io.vertx.ext.web.handler.sockjs.SockJSHandlerOptions;
import io.vertx.ext.web.handler.sockjs.Transport;

/**
 * The SockJS event-bus bridge at {@code /eventbus}: browsers may receive from each pool's
 * configured outbound addresses (default {@code <prefix>.events}) and send requests to its
 * inbound ones (default {@code <prefix>.submit} and {@code <prefix>.status}); every other address
 * is refused ({@code access_denied}), a publish is refused ({@code rejected}), and with a token
 * configured each inbound message must carry the header {@code Authorization: Bearer <token>}
 * (refused otherwise; the header is removed before the message goes on). The permitted addresses
 * are those of the pools the {@link PoolDirectory} knows when a frame arrives ({@link
 * BridgePermits}): in a cluster, every pool of the cluster, including pools that appear after the
 * server started. {@link BridgeSession} speaks the protocol and checks every frame; the JSONP
 * transport, which needs form bodies, is off.
 */
final class EventBusBridge {
  /** How long a send waits for its reply (a submit waits for its job's outcome). */
  static final long REPLY_TIMEOUT_MS = 60_000;
  /** The longest a connection may go without a {@code ping} frame (vertx-eventbus.js: 5 s). */
  static final long PING_TIMEOUT_MS = 10_000;

  private final Vertx vertx;
  private final BridgePermits permits;
  private final BearerToken token;

  EventBusBridge(Vertx vertx, PoolDirectory pools, HttpConfig.Bridge config, BearerToken token) {
    this.vertx = vertx;
    this.permits = new BridgePermits(pools, config);
    this.token = token;
  }

  /** The bridge's router, to mount at {@code /eventbus/*}. */
  Router router() {
    return SockJSHandler.create(vertx, new SockJSHandlerOptions()
            .addDisabledTransport(Transport.JSON_P.name()))
        .socketHandler(socket -> new BridgeSession(vertx, socket, permits, token,
            REPLY_TIMEOUT_MS, PING_TIMEOUT_MS).start());
  }
}
