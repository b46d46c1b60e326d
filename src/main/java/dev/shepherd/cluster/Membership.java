package dev.shepherd.cluster;

import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.function.Consumer;

/**
 * Which Vert.x nodes are in the cluster, as a pool's coordinator needs to know it for its worker
 * hosts (H5): whether a node is still a member, and word when one leaves. Nodes are Vert.x node
 * ids (a new one each time a JVM starts).
 */
interface Membership {

  /** Whether {@code node} is a member now. */
  boolean isMember(String node);

  /**
   * Starts telling {@code onLeft} the id of each node that leaves, on a thread of the cluster
   * manager (the caller hops onto its own context).
   */
  void watch(Consumer<String> onLeft);

  /** Stops telling. */
  void close();

  /**
   * The membership of {@code vertx}: Hazelcast's members when it is clustered with Hazelcast;
   * another cluster manager's node list (no word of departures: heartbeats find those); every
   * node when it is not clustered (a host in the same JVM is never lost by membership).
   */
  static Membership of(Vertx vertx) {
    ClusterManager manager = ((VertxInternal) vertx).clusterManager();
    if (manager instanceof HazelcastClusterManager hazelcast) {
      return new HazelcastMembership(hazelcast);
    }
    if (manager != null) {
      return new Membership() {
        @Override
        public boolean isMember(String node) {
          return manager.getNodes().contains(node);
        }

        @Override
        public void watch(Consumer<String> onLeft) {}

        @Override
        public void close() {}
      };
    }
    return new Membership() {
      @Override
      public boolean isMember(String node) {
        return true;
      }

      @Override
      public void watch(Consumer<String> onLeft) {}

      @Override
      public void close() {}
    };
  }
}
