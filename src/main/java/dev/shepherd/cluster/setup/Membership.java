package dev.shepherd.cluster.setup;

import io.vertx.core.spi.cluster.ClusterManager;
import java.util.function.Consumer;

/**
 * Which Vert.x nodes are in the cluster, as a pool's coordinator needs to know it for its worker
 * hosts (H5 in docs/rules.md): whether a node is still a member, and word when one leaves. Nodes
 * are Vert.x node ids (a new one each time a JVM starts).
 */
public interface Membership {
  /** The cluster manager of vertx-hazelcast, named so that no other path loads the class. */
  String HAZELCAST_MANAGER = "io.vertx.spi.cluster.hazelcast.HazelcastClusterManager";

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
   * The membership {@code manager} knows: Hazelcast's members, with word of departures, when it
   * is vertx-hazelcast's; another cluster manager's node list otherwise (no word of departures:
   * heartbeats find those). vertx-hazelcast is an optional dependency, so it is looked for by name.
   */
  static Membership of(ClusterManager manager) {
    for (Class<?> type = manager.getClass(); type != null; type = type.getSuperclass()) {
      if (type.getName().equals(HAZELCAST_MANAGER)) {
        return HazelcastMembership.of(manager);
      }
    }
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
}
