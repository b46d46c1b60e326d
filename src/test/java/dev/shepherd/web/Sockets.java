package dev.shepherd.web;

import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A test WebSocket on its own Vert.x instance that collects every JSON frame it receives, text or
 * binary (the SockJS bridge's raw endpoint sends binary frames). The client and socket are kept
 * in fields while in use, or Vert.x may close them.
 */
final class Sockets implements AutoCloseable {
  private final Vertx vertx = Vertx.vertx();
  private final WebSocketClient client = vertx.createWebSocketClient();
  private final List<JsonObject> received = new CopyOnWriteArrayList<>();
  private WebSocket socket;
  private volatile boolean closed;
  private volatile Short closeStatus;

  static Sockets connect(int port, String uri) {
    return connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port).setURI(uri));
  }

  static Sockets connect(WebSocketConnectOptions options) {
    Sockets s = new Sockets();
    try {
      // The handler goes on in the connect callback, on the socket's event loop, before any
      // frame can be delivered (a frame arriving without a handler would be lost).
      s.socket = s.client.connect(options)
          .map(ws -> ws.handler(buffer -> s.received.add(new JsonObject(buffer)))
              .closeHandler(v -> {
                s.closeStatus = ws.closeStatusCode();
                s.closed = true;
              }))
          .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      s.close();
      throw new IllegalStateException("could not connect to " + options.getURI(), e);
    }
    return s;
  }

  /** Tries to connect and returns the failure (for refused handshakes). */
  static Throwable refusal(WebSocketConnectOptions options) {
    Sockets s = new Sockets();
    try {
      s.client.connect(options).toCompletionStage().toCompletableFuture().get(10,
          TimeUnit.SECONDS);
      return null;
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      return e;
    } finally {
      s.close();
    }
  }

  void send(JsonObject frame) {
    socket.writeTextMessage(frame.encode());
  }

  /** Sends {@code text} as it is, JSON or not. */
  void sendText(String text) {
    socket.writeTextMessage(text);
  }

  List<JsonObject> received() {
    return received;
  }

  /** Whether the server closed the socket (or the connection ended). */
  boolean closed() {
    return closed;
  }

  /** The status of the server's close frame, or null. */
  Short closeStatus() {
    return closeStatus;
  }

  boolean any(java.util.function.Predicate<JsonObject> test) {
    return received.stream().anyMatch(test);
  }

  JsonObject first(java.util.function.Predicate<JsonObject> test) {
    return received.stream().filter(test).findFirst().orElse(null);
  }

  @Override
  public void close() {
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      // closing a test client
    }
  }
}
