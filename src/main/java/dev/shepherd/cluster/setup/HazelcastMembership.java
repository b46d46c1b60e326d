package dev.shepherd.cluster.setup;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Hazelcast's view of the members, through a membership listener of its own: Vert.x's {@code
 * nodeListener} has a single slot, which Vert.x HA takes. A member's Vert.x node id is its {@value
 * #NODE_ID} attribute.
 */
final class HazelcastMembership implements Membership {
  /** The member attribute in which vertx-hazelcast keeps the Vert.x node id. */
  static final String NODE_ID = "__vertx.nodeId";

  private final HazelcastClusterManager manager;
  private UUID registration;

  private HazelcastMembership(HazelcastClusterManager manager) {
    this.manager = manager;
  }

  /** {@code manager} is vertx-hazelcast's (see {@link Membership#of}). */
  static Membership of(io.vertx.core.spi.cluster.ClusterManager manager) {
    return new HazelcastMembership((HazelcastClusterManager) manager);
  }

  @Override
  public boolean isMember(String node) {
    return manager.getNodes().contains(node);
  }

  @Override
  public void watch(Consumer<String> onLeft) {
    registration = manager.getHazelcastInstance().getCluster()
        .addMembershipListener(new MembershipListener() {
          @Override
          public void memberAdded(MembershipEvent event) {}

          @Override
          public void memberRemoved(MembershipEvent event) {
            String node = event.getMember().getAttribute(NODE_ID);
            if (node != null) {
              onLeft.accept(node);
            }
          }
        });
  }

  @Override
  public void close() {
    if (registration != null) {
      try {
        manager.getHazelcastInstance().getCluster().removeMembershipListener(registration);
      } catch (RuntimeException e) {
        // Hazelcast is already shutting down: the listener goes with it.
      }
      registration = null;
    }
  }
}
