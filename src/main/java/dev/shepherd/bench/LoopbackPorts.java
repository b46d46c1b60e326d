package dev.shepherd.bench;

import dev.shepherd.cluster.setup.ClusterSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.SplittableRandom;

/** Free ports on 127.0.0.1 for a cluster of its own, as benchmarks and cluster tests need them. */
public final class LoopbackPorts {
  private LoopbackPorts() {}

  /**
   * A first cluster port such that it and the next ones a node may bind ({@link
   * ClusterSettings#PORT_COUNT}) are all free on 127.0.0.1 now, picked at random in 10000-32699:
   * below Linux's ephemeral range (32768 and up by default), so that no outgoing connection (of
   * the cluster's own members, say) takes a port of the block before a node binds it.
   */
  public static int freeClusterBlock(SplittableRandom random) {
    for (int attempt = 0; attempt < 200; attempt++) {
      int base = 10_000 + random.nextInt(22_700);
      boolean free = true;
      for (int i = 0; i < ClusterSettings.PORT_COUNT && free; i++) {
        try (ServerSocket socket = new ServerSocket(base + i, 1,
            InetAddress.getLoopbackAddress())) {
          socket.setReuseAddress(false);
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) {
        return base;
      }
    }
    throw new IllegalStateException("no block of " + ClusterSettings.PORT_COUNT
        + " free ports on 127.0.0.1");
  }
}
