package dev.shepherd.web;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Closes HTTP connections that hold a socket without using it. An idle timeout alone does not do
 * this: a client that sends one header line every few seconds resets it with every byte and keeps
 * the connection forever, and one that waits for a long job's outcome sends nothing while it
 * rightly waits. So deadlines count from what the connection has done, not from its last byte:
 *
 * <ul>
 *   <li>A new connection must have sent a whole request head (line and headers) within {@code
 *       headerTimeoutMs}.</li>
 *   <li>Once a response has been sent, the next request's head must arrive within {@code
 *       idleTimeoutMs} (the keep-alive limit; a browser opens a new connection when it needs
 *       one).</li>
 *   <li>A request body must have arrived within {@code idleTimeoutMs} of the head.</li>
 *   <li>While the server works on a request (a submit waiting for its outcome) nothing is
 *       counted; a connection upgraded to a WebSocket leaves these deadlines (the live view
 *       sends stats every 500 ms, the SockJS bridge has its own ping timeout).</li>
 * </ul>
 *
 * <p>A connection past a deadline is closed without a response: it has not sent a request to
 * answer. HTTP/1.1 only (one request at a time per connection), which is why the server does not
 * offer cleartext HTTP/2. Each connection's check runs on its own event loop, every quarter of the
 * shorter deadline (at most every second), so a deadline is kept within that much.
 */
final class ConnectionDeadlines {
  private final Vertx vertx;
  private final long headerTimeoutMs;
  private final long idleTimeoutMs;
  private final long tickMs;
  private final Map<HttpConnection, Tracked> open = new ConcurrentHashMap<>();

  /** One connection, touched only on its own event loop. */
  private static final class Tracked {
    final HttpConnection connection;
    final long openedAt;
    HttpServerRequest current;
    long requestAt;
    long idleSince = -1;
    long timer = -1;

    Tracked(HttpConnection connection, long openedAt) {
      this.connection = connection;
      this.openedAt = openedAt;
    }
  }

  ConnectionDeadlines(Vertx vertx, long headerTimeoutMs, long idleTimeoutMs) {
    this.vertx = vertx;
    this.headerTimeoutMs = headerTimeoutMs;
    this.idleTimeoutMs = idleTimeoutMs;
    this.tickMs = Math.max(25, Math.min(1000, Math.min(headerTimeoutMs, idleTimeoutMs) / 4));
  }

  /** The server's connection handler: runs on the new connection's event loop. */
  void opened(HttpConnection connection) {
    Tracked tracked = new Tracked(connection, now());
    open.put(connection, tracked);
    connection.closeHandler(v -> {
      Tracked gone = open.remove(connection);
      if (gone != null && gone.timer >= 0) {
        vertx.cancelTimer(gone.timer);
      }
    });
    schedule(tracked);
  }

  /** A request head has arrived on its connection. */
  void requestArrived(HttpServerRequest request) {
    Tracked tracked = open.get(request.connection());
    if (tracked != null) {
      tracked.current = request;
      tracked.requestAt = now();
      tracked.idleSince = -1;
    }
  }

  private void schedule(Tracked tracked) {
    tracked.timer = vertx.setTimer(tickMs, id -> check(tracked));
  }

  private void check(Tracked tracked) {
    tracked.timer = -1;
    if (!open.containsKey(tracked.connection)) {
      return;
    }
    long now = now();
    HttpServerRequest request = tracked.current;
    boolean late;
    if (request == null) {
      late = now - tracked.openedAt >= headerTimeoutMs;
    } else if (request.response().getStatusCode() == 101) {
      open.remove(tracked.connection); // a WebSocket now; it has its own liveness
      return;
    } else if (request.response().ended() || request.response().closed()) {
      if (tracked.idleSince < 0) {
        tracked.idleSince = now;
      }
      late = now - tracked.idleSince >= idleTimeoutMs;
    } else {
      late = !request.isEnded() && now - tracked.requestAt >= idleTimeoutMs;
    }
    if (late) {
      open.remove(tracked.connection);
      tracked.connection.close();
    } else {
      schedule(tracked);
    }
  }

  private static long now() {
    return System.nanoTime() / 1_000_000;
  }
}
