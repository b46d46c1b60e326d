package dev.shepherd.cluster;

import dev.shepherd.cluster.setup.ClusterSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Free loopback ports for a test's own cluster, and a cluster name nobody else uses. */
public final class ClusterPorts {
  private ClusterPorts() {}

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
        return base;
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
