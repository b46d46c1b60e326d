package dev.shepherd.cluster;

import dev.shepherd.cluster.setup.ClusterSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** Free loopback ports for a test's own cluster, and a cluster name nobody else uses. */
public final class ClusterPorts {
  /** Ports {@link #freeHttpPort} and {@link #freeBase} handed out in this JVM: never again. */
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private ClusterPorts() {}

  /**
   * A free TCP port on loopback for a node's HTTP server, below Linux's ephemeral range (a port
   * the kernel handed out as free from that range could be taken by any outgoing connection in
   * the seconds before the node binds it), and never one handed out before in this JVM, as a
   * port or in a cluster's block. Where the port need not be known before the node starts,
   * configure port 0 and read the port the node names ({@code ClusterNode#httpPort}): then
   * nothing can take it first.
   */
  public static int freeHttpPort() {
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = 10_000 + ThreadLocalRandom.current().nextInt(22_700);
      if (HANDED_OUT.add(port) && allFree(port, 1)) {
        return port;
      }
    }
    throw new IllegalStateException("no free port found on 127.0.0.1");
  }

  /** Records the block of cluster ports from {@code base}, so no HTTP port is picked in it. */
  static int reserveBlock(int base) {
    for (int port = base; port < base + ClusterSettings.PORT_COUNT; port++) {
      HANDED_OUT.add(port);
    }
    return base;
  }

  /**
   * The first of {@link ClusterSettings#PORT_COUNT} consecutive free ports on 127.0.0.1, picked at
   * random in 10000-32699 so that tests (and other test runs) do not meet, and below Linux's
   * ephemeral range (32768 and up by default), where an outgoing connection could take a port of
   * the block before a member binds it.
   */
  public static int freeBase() {
    for (int attempt = 0; attempt < 200; attempt++) {
      int base = 10_000 + ThreadLocalRandom.current().nextInt(2_270) * 10;
      if (allFree(base, ClusterSettings.PORT_COUNT)) {
        return reserveBlock(base);
      }
    }
    throw new IllegalStateException("no run of free ports found on 127.0.0.1");
  }

  /** A cluster name of its own for one test. */
  public static String uniqueName(String test) {
    return test + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
  }

  private static boolean allFree(int base, int count) {
    for (int port = base; port < base + count; port++) {
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        socket.setReuseAddress(true);
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }
}
