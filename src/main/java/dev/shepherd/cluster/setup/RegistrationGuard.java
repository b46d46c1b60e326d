package dev.shepherd.cluster.setup;

import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;

/**
 * Keeps this node's event-bus consumers listed in the cluster (A4 in docs/rules.md: an answer to a
 * {@code replyTo} on a live node must reach it). Each member of a Hazelcast cluster removes the
 * consumers of the members it sees leave from the cluster's shared list of consumers. A member
 * that was paused ({@code kill -STOP}, a long GC) and resumes believes, for a moment, that the
 * others left, and its removals can land in the partitions the others still own: consumers of live
 * nodes then vanish from the list, and whatever is sent to them (answers, commands to worker
 * hosts, completions) is dropped with no handler, until the owner happens to publish its consumers
 * again. The guard watches the list for removals of this node's own consumers made by another
 * member and then lists this node's live consumers again; removals this node makes itself (a
 * consumer unregistered) pass.
 */
public interface RegistrationGuard {
  /** Stops watching. */
  void close();

  /**
   * Guards {@code vertx}'s consumers when its cluster manager is vertx-hazelcast's; a guard that
   * does nothing otherwise (vertx-hazelcast is an optional dependency, looked for by name).
   */
  static RegistrationGuard start(Vertx vertx) {
    ClusterManager manager = vertx.isClustered() ? ((VertxInternal) vertx).clusterManager() : null;
    for (Class<?> type = manager == null ? null : manager.getClass(); type != null;
        type = type.getSuperclass()) {
      if (type.getName().equals(Membership.HAZELCAST_MANAGER)) {
        return HazelcastRegistrationGuard.start(vertx, manager);
      }
    }
    return () -> { };
  }
}
