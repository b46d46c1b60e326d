package dev.shepherd.runtime.wire;

import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;

/** The cluster node id of a Vert.x instance (a new random one each time a node starts). */
public final class NodeId {
  private NodeId() {}

  /** {@code vertx}'s node id, or null when it is not clustered. */
  public static String of(Vertx vertx) {
    if (!vertx.isClustered() || !(vertx instanceof VertxInternal internal)) {
      return null;
    }
    ClusterManager manager = internal.clusterManager();
    return manager == null ? null : manager.getNodeId();
  }
}
