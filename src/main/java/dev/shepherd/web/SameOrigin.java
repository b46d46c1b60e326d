package dev.shepherd.web;

import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * Refuses requests that a page of another origin makes from a browser: WebSockets are not subject
 * to CORS, and the SockJS bridge answers CORS requests from anywhere, so without this any web page
 * the operator visits could watch the pools or, without a token, submit jobs. Browsers always send
 * {@code Origin} on WebSocket handshakes and cross-origin requests; other clients send none and
 * pass.
 */
final class SameOrigin {
  private SameOrigin() {}

  /** Whether the request carries no {@code Origin}, or one naming the host it was sent to. */
  static boolean allows(RoutingContext ctx) {
    String origin = ctx.request().getHeader("Origin");
    if (origin == null) {
      return true;
    }
    HostAndPort authority = ctx.request().authority();
    if (authority == null) {
      return false;
    }
    URI uri;
    try {
      uri = new URI(origin);
    } catch (URISyntaxException e) {
      return false;
    }
    if (uri.getHost() == null || uri.getScheme() == null) {
      return false;
    }
    int defaultPort = ctx.request().isSSL() ? 443 : 80;
    int originPort = uri.getPort() >= 0 ? uri.getPort()
        : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    int port = authority.port() >= 0 ? authority.port() : defaultPort;
    return uri.getHost().equalsIgnoreCase(authority.host()) && originPort == port;
  }

  /** A route handler: 403 for a foreign origin, else on to the next handler. */
  static void guard(RoutingContext ctx) {
    if (allows(ctx)) {
      ctx.next();
    } else {
      HttpErrors.send(ctx, 403, "FORBIDDEN",
          "Origin: pages from another origin may not use " + ctx.request().path());
    }
  }
}
