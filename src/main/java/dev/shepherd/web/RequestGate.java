package dev.shepherd.web;

import dev.shepherd.runtime.payload.LogText;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every request passes before any route sees it: the connection's deadlines are told of
 * it, its {@code Host} must be one of the {@link AllowedHosts} (421 otherwise, on every path:
 * API, static files, WebSockets, the SockJS bridge, metrics, health), and its path and query must
 * be well-formed (400 naming which). Also the handler for requests the HTTP decoder could not
 * read (a request line or headers too long: 414 and 431; anything else malformed: 400). Each
 * answer is the JSON error body; nothing from the request reaches a log line unquoted.
 */
final class RequestGate implements Handler<HttpServerRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(RequestGate.class);

  /** Methods a route may use; others (TRACE, CONNECT, made-up ones) are 501 on every path. */
  private static final List<HttpMethod> METHODS = List.of(HttpMethod.GET, HttpMethod.HEAD,
      HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE, HttpMethod.OPTIONS);

  private final AllowedHosts hosts;
  private final IntSupplier serverPort;
  private final ConnectionDeadlines deadlines;
  private final Handler<HttpServerRequest> next;

  RequestGate(AllowedHosts hosts, IntSupplier serverPort, ConnectionDeadlines deadlines,
      Handler<HttpServerRequest> next) {
    this.hosts = hosts;
    this.serverPort = serverPort;
    this.deadlines = deadlines;
    this.next = next;
  }

  @Override
  public void handle(HttpServerRequest request) {
    deadlines.requestArrived(request);
    secure(request);
    if (request.headers().getAll("Host").size() > 1) {
      refuse(request, 400, "BAD_REQUEST", "Host: a request has exactly one Host header");
      return;
    }
    if (!hosts.allows(request.authority(), request.isSSL(), serverPort.getAsInt())) {
      LOG.debug("refused a request for host {}", LogText.quote(request.getHeader("Host")));
      refuse(request, 421, "MISDIRECTED_REQUEST", "Host: "
          + quoted(request.getHeader("Host")) + " is not a name of this server (its names are"
          + " localhost, 127.0.0.1 and [::1] at its port, the address it is bound to, and those"
          + " listed in http.allowedHosts)");
      return;
    }
    if (!METHODS.contains(request.method())) {
      refuse(request, 501, "NOT_IMPLEMENTED", "method: " + quoted(request.method().name())
          + " is not one this server supports " + METHODS);
      return;
    }
    String uri = request.uri();
    if (!uri.startsWith("/") && !uri.equals("*") && !absoluteFormForThisServer(request)) {
      refuse(request, 421, "MISDIRECTED_REQUEST",
          "request line: an absolute URI must name this server, as Host does");
      return;
    }
    String path = request.path();
    if (path == null || !path.startsWith("/") || !wellFormedEscapes(path)) {
      refuse(request, 400, "BAD_REQUEST",
          "path: must start with / and use only well-formed %XX escapes");
      return;
    }
    try {
      request.params();
    } catch (IllegalArgumentException e) {
      refuse(request, 400, "BAD_REQUEST",
          "query: malformed query string (every % must start a %XX escape)");
      return;
    }
    next.handle(request);
  }

  /**
   * A request line with an absolute URI ({@code GET http://host/path}, as sent to a proxy) names
   * the server twice; both names must be this server's.
   */
  private boolean absoluteFormForThisServer(HttpServerRequest request) {
    URI uri;
    try {
      uri = new URI(request.uri());
    } catch (URISyntaxException e) {
      return false;
    }
    if (uri.getRawAuthority() == null) {
      return false;
    }
    HostAndPort authority = HostAndPort.parseAuthority(uri.getRawAuthority(), -1);
    return authority != null && hosts.allows(authority, request.isSSL(), serverPort.getAsInt());
  }

  /** For {@code HttpServer.invalidRequestHandler}: the decoder could not read the request. */
  void invalid(HttpServerRequest request) {
    DecoderResult result = request.decoderResult();
    Throwable cause = result == null ? null : result.cause();
    LOG.debug("unreadable HTTP request: {}",
        LogText.quote(cause == null ? "unknown" : cause.toString()));
    secure(request);
    if (cause instanceof TooLongHttpLineException) {
      HttpErrors.sendAndClose(request, 414, "URI_TOO_LONG",
          "request line: longer than this server reads (a shorter path and query)");
    } else if (cause instanceof TooLongHttpHeaderException) {
      HttpErrors.sendAndClose(request, 431, "HEADERS_TOO_LARGE",
          "headers: larger than this server reads");
    } else {
      HttpErrors.sendAndClose(request, 400, "BAD_REQUEST",
          "request: not a well-formed HTTP/1.1 request");
    }
  }

  private static void refuse(HttpServerRequest request, int status, String name,
      String message) {
    if (request.isEnded()) {
      HttpErrors.send(request.response(), status, name, message);
    } else {
      HttpErrors.sendAndClose(request, status, name, message); // its body will not be read
    }
  }

  private static void secure(HttpServerRequest request) {
    request.response()
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "no-referrer");
  }

  private static String quoted(String text) {
    return text == null ? "(none)" : "\"" + (text.length() > 100 ? text.substring(0, 100) + "…"
        : text) + "\"";
  }

  /** Every {@code %} starts a two-digit hex escape (what route matching decodes). */
  static boolean wellFormedEscapes(String path) {
    for (int i = 0; i < path.length(); i++) {
      if (path.charAt(i) == '%') {
        if (i + 2 >= path.length() || !hex(path.charAt(i + 1)) || !hex(path.charAt(i + 2))) {
          return false;
        }
        i += 2;
      }
    }
    return true;
  }

  private static boolean hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
