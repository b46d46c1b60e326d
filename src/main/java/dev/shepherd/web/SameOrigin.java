package dev.shepherd.web;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * Refuses requests that a page of another origin makes from a browser: WebSockets are not subject
 * to CORS, and the SockJS bridge answers CORS requests from anywhere, so without this any web page
 * the operator visits could watch the pools or, without a token, submit jobs.
 *
 * <p>Two signals, either of which refuses: {@code Origin} (sent on WebSocket handshakes and on
 * every state-changing request) must be one of this server's own origins: the same scheme, and a
 * host and port among the {@link AllowedHosts}, never the request's own {@code Host}, which a DNS
 * rebinding attacker chooses. And Fetch Metadata, {@code Sec-Fetch-Site}, which browsers send even
 * where they leave out {@code Origin}, must be {@code same-origin} or {@code none} (typed by the
 * user): {@code cross-site} is refused, and so is {@code same-site}, because every other server on
 * the same machine ({@code http://localhost:3000} beside {@code http://localhost:8080}) is "same
 * site". Clients that are not browsers send neither header and pass.
 */
final class SameOrigin {
  private final AllowedHosts hosts;
  private final IntSupplier serverPort;

  SameOrigin(AllowedHosts hosts, IntSupplier serverPort) {
    this.hosts = hosts;
    this.serverPort = serverPort;
  }

  /** Whether the request comes from no browser page, or from a page of this server. */
  boolean allows(HttpServerRequest request) {
    return refusal(request) == null;
  }

  /** Which header refuses the request ({@code Origin} or {@code Sec-Fetch-Site}), or null. */
  String refusal(HttpServerRequest request) {
    if (request.headers().getAll("Sec-Fetch-Site").size() > 1
        || request.headers().getAll("Origin").size() > 1) {
      return "Origin";
    }
    String site = request.getHeader("Sec-Fetch-Site");
    if (site != null) {
      String value = site.trim().toLowerCase(Locale.ROOT);
      if (!value.equals("same-origin") && !value.equals("none")) {
        return "Sec-Fetch-Site";
      }
    }
    String origin = request.getHeader("Origin");
    return origin == null || ownOrigin(request, origin) ? null : "Origin";
  }

  /** A route handler: 403 for a page of another origin, else on to the next handler. */
  void guard(RoutingContext ctx) {
    String header = refusal(ctx.request());
    if (header == null) {
      ctx.next();
    } else {
      HttpErrors.send(ctx, 403, "FORBIDDEN",
          header + ": pages from another origin may not use " + ctx.request().path());
    }
  }

  private boolean ownOrigin(HttpServerRequest request, String origin) {
    URI uri;
    try {
      uri = new URI(origin);
    } catch (URISyntaxException e) {
      return false;
    }
    String scheme = request.isSSL() ? "https" : "http";
    if (!scheme.equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null
        || uri.getRawUserInfo() != null || uri.getRawQuery() != null
        || uri.getRawFragment() != null
        || (uri.getRawPath() != null && !uri.getRawPath().isEmpty())) {
      return false;
    }
    int port = uri.getPort() >= 0 ? uri.getPort() : request.isSSL() ? 443 : 80;
    return hosts.names(uri.getHost(), port, request.authority(), request.isSSL(),
        serverPort.getAsInt());
  }
}
