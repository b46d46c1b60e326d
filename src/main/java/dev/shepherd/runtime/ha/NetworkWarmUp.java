package dev.shepherd.runtime.ha;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One TCP exchange on loopback between a server and a client of one Vert.x, made while a node
 * stands by, so that a standby that takes over does not run Vert.x's and Netty's network code for
 * the first time then. A standby's event bus has often never accepted or opened a connection: the
 * first ones come with the takeover (a submitter's to the new leader, the leader's to the
 * submitter for the answers). Profiled there (docs/benchmarks.md, HA section), the event loop
 * that accepted the submitter's connection spent 42-64 ms of CPU in its first read alone: Netty's
 * adaptive allocator, creating its first chunk, initializes its JDK Flight Recorder event class,
 * which initializes the JVM's Flight Recorder metadata; the loop that connected to the submitter
 * loaded the client's classes. Here both happen on an ephemeral port of 127.0.0.1, at no cost to
 * anyone: the server echoes what the client writes, and both close. A standby runs it on a
 * Vert.x of its own ({@link #runAlone}), closed right after: the classes, the linked call sites
 * and the Flight Recorder's metadata are the JVM's, and the node's own Vert.x, which may close
 * at any time, never has a connection of this exchange to refuse.
 */
public final class NetworkWarmUp {
  static final String PING = "shepherd warm-up";

  private NetworkWarmUp() {}

  /**
   * {@link #run} on a Vert.x of its own (one event loop, no file cache), closed once the exchange
   * is over; blocks the calling thread, which must not be a Vert.x thread. The bytes echoed.
   */
  public static int runAlone() {
    Vertx own = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1)
        .setInternalBlockingPoolSize(1).setFileSystemOptions(new FileSystemOptions()
            .setFileCachingEnabled(false).setClassPathResolvingEnabled(false)));
    try {
      return run(own).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during the loopback exchange", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the loopback exchange failed: " + e, e);
    } finally {
      own.close();
    }
  }

  /**
   * Listens on an ephemeral port of 127.0.0.1, connects to it, writes {@link #PING}, reads it
   * back and closes everything; completes with the bytes echoed once all is closed, or fails (the
   * listener and client closed all the same).
   */
  public static Future<Integer> run(Vertx vertx) {
    NetServer server = vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1")
        .setPort(0));
    server.connectHandler(socket -> socket.handler(socket::write));
    NetClient client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(5_000));
    Future<Integer> exchanged = server.listen()
        .compose(listening -> client.connect(listening.actualPort(), "127.0.0.1"))
        .compose(NetworkWarmUp::exchange);
    return exchanged.eventually(() -> Future.join(client.close(), server.close()));
  }

  /** Writes {@link #PING} on {@code socket}, and closes it once all of it came back. */
  private static Future<Integer> exchange(NetSocket socket) {
    Promise<Integer> echoed = Promise.promise();
    Buffer received = Buffer.buffer();
    socket.handler(chunk -> {
      received.appendBuffer(chunk);
      if (received.length() >= PING.length()) {
        echoed.tryComplete(received.length());
      }
    });
    socket.closeHandler(v -> echoed.tryFail("the warm-up connection closed before its echo"));
    socket.write(PING);
    return echoed.future().eventually(socket::close);
  }
}
