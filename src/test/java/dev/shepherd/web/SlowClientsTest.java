package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Connections that hold a socket without using it are closed: those that trickle their request
 * headers (which resets any idle timeout with every byte) after {@code http.headerTimeoutMs},
 * idle kept-alive ones and trickled bodies after {@code http.idleTimeoutMs}. What legitimately
 * takes long keeps working: a submit waiting for a slow job, the live WebSocket, a pinging SockJS
 * bridge client. The server here has short limits (1 s for headers, 2 s idle).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlowClientsTest {
  private WebTestApp app;
  private String host;

  @BeforeAll
  void start() {
    app = WebTestApp.start(WebTestApp.config(new JsonObject().put("headerTimeoutMs", 1000)
        .put("idleTimeoutMs", 2000), WebTestApp.demoPool("jobs", 2)));
    host = "Host: 127.0.0.1:" + app.port() + "\r\n";
  }

  @AfterAll
  void stop() {
    app.close();
  }

  @Test
  void two_hundred_connections_trickling_headers_are_closed_while_a_normal_client_is_served()
      throws Exception {
    Vertx clients = Vertx.vertx();
    try {
      NetClient net = clients.createNetClient();
      AtomicInteger closed = new AtomicInteger();
      AtomicInteger answered = new AtomicInteger();
      List<NetSocket> sockets = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        NetSocket socket = net.connect(app.port(), "127.0.0.1").toCompletionStage()
            .toCompletableFuture().get(10, SECONDS);
        sockets.add(socket);
        socket.handler(data -> answered.incrementAndGet());
        long[] line = {0};
        long timer = clients.setPeriodic(300, id -> socket.write("X-Slow-" + line[0]++ + ": "
            + "1\r\n"));
        socket.closeHandler(v -> {
          clients.cancelTimer(timer);
          closed.incrementAndGet();
        });
        socket.write("GET /health HTTP/1.1\r\n" + host);
      }
      assertThat(Http.get(app.url("/health")).status()).isEqualTo(200);
      await().atMost(30, SECONDS).until(() -> closed.get() == 200);
      assertThat(answered.get()).as("no trickling request was answered").isZero();
      assertThat(Http.get(app.url("/api/pools")).status()).isEqualTo(200);
      assertThat(sockets).hasSize(200);
    } finally {
      clients.close().toCompletionStage().toCompletableFuture().get(10, SECONDS);
    }
  }

  @Test
  void a_connection_that_sends_nothing_is_closed() throws IOException {
    try (Socket socket = connect()) {
      assertThat(readUntilClosed(socket)).isEmpty();
    }
  }

  @Test
  void an_idle_kept_alive_connection_is_closed_after_its_response() throws IOException {
    try (Socket socket = connect()) {
      write(socket, "GET /health HTTP/1.1\r\n" + host + "\r\n");
      assertThat(readUntilClosed(socket)).startsWith("HTTP/1.1 200");
    }
  }

  @Test
  void a_trickled_body_is_closed_and_submits_nothing() throws Exception {
    try (Socket socket = connect()) {
      write(socket, "POST /api/pools/jobs/jobs HTTP/1.1\r\n" + host
          + "Content-Length: 200\r\n\r\n{\"payload\":");
      CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
        try {
          return readUntilClosed(socket);
        } catch (IOException e) {
          return "";
        }
      });
      for (int i = 0; i < 40 && !read.isDone(); i++) {
        try {
          write(socket, " ");
        } catch (IOException e) {
          break; // closed by the server
        }
        Thread.sleep(300);
      }
      assertThat(read.get(20, SECONDS)).doesNotContain("completed");
    }
    assertThat(Http.get(app.url("/api/pools/jobs")).json().getJsonObject("counters")
        .getLong("accepted")).isZero();
  }

  @Test
  void a_submit_waiting_longer_than_the_idle_timeout_is_still_answered() {
    Http.Response r = Http.post(app.url("/api/pools/jobs/jobs"),
        "{\"payload\":{\"sleepMs\":3500,\"echo\":\"late\"}}");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().getJsonObject("result").getString("echo")).isEqualTo("late");
  }

  @Test
  void the_live_websocket_and_a_pinging_bridge_client_outlive_both_limits() {
    try (Sockets live = Sockets.connect(app.port(), "/api/pools/jobs/events");
        Sockets bridge = Sockets.connect(app.port(), "/eventbus/websocket")) {
      bridge.send(new JsonObject().put("type", "register").put("address",
          "shepherd.jobs.events"));
      long ping = app.vertx().setPeriodic(1000, id -> bridge.send(new JsonObject()
          .put("type", "ping")));
      try {
        // Stats come every 500 ms: ten of them span five seconds, two and a half idle timeouts.
        await().atMost(20, SECONDS).until(() -> live.received().stream()
            .filter(e -> "stats".equals(e.getString("type"))).count() >= 10
            && bridge.received().stream().filter(f -> "rec".equals(f.getString("type")))
                .count() >= 10);
      } finally {
        app.vertx().cancelTimer(ping);
      }
    }
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress("127.0.0.1", app.port()), 5000);
    socket.setSoTimeout(20_000);
    return socket;
  }

  private static void write(Socket socket, String text) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** Everything the server sends until it closes; a 20 s silence fails the test. */
  private static String readUntilClosed(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    StringBuilder text = new StringBuilder();
    byte[] buffer = new byte[4096];
    while (true) {
      int n;
      try {
        n = in.read(buffer);
      } catch (SocketTimeoutException e) {
        throw new AssertionError("the server kept the connection open; got: " + text, e);
      } catch (IOException e) {
        return text.toString(); // reset: closed
      }
      if (n < 0) {
        return text.toString();
      }
      text.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
    }
  }
}
