package dev.shepherd.cluster.setup;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.spi.cluster.hazelcast.impl.HazelcastNodeInfo;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The event-bus address of each member of the cluster, known before this member first sends to
 * it. vertx-hazelcast reads a node's address from a partitioned map the first time a member sends
 * to that node; right after a member left, that read waits until the departed member's partitions
 * have new owners, and a failover's first submits to a standby the submitter had never sent to
 * waited with it (docs/benchmarks.md, "Failover: a standby's address known ahead"). A node keeps
 * its address for its life, so an address once known is never read again: each is learned when
 * its node publishes it (a listener on vertx-hazelcast's map), those published before this member
 * joined are read once, and a departed node's is forgotten.
 */
final class KnownNodeInfos {
  /** vertx-hazelcast's map of node ids to their event-bus addresses. */
  static final String MAP = "__vertx.nodeInfo";

  private final Map<String, NodeInfo> known = new ConcurrentHashMap<>();

  /** {@code node}'s address, or null when not known yet. */
  NodeInfo get(String node) {
    return known.get(node);
  }

  /** Whether {@code node}'s address is known. */
  boolean knows(String node) {
    return known.containsKey(node);
  }

  /** Keeps {@code node}'s address, read by this member. */
  void learned(String node, NodeInfo info) {
    known.put(node, info);
  }

  /** Forgets a departed node's address. */
  void forget(String node) {
    known.remove(node);
  }

  /**
   * Learns each address as its node publishes it, then reads those published already; {@code
   * member} says which node ids belong to current members (others are not kept). Blocks on the
   * cluster: call it off an event loop, once this member has joined.
   */
  void follow(HazelcastInstance hazelcast, Predicate<String> member) {
    IMap<String, HazelcastNodeInfo> map = hazelcast.getMap(MAP);
    map.addEntryListener(new Published(member), true);
    for (Map.Entry<String, HazelcastNodeInfo> entry : map.entrySet()) {
      if (member.test(entry.getKey())) {
        known.putIfAbsent(entry.getKey(), entry.getValue().unwrap());
      }
    }
  }

  /** Keeps what the cluster's map says of its members' addresses. */
  private final class Published implements EntryAddedListener<String, HazelcastNodeInfo>,
      EntryUpdatedListener<String, HazelcastNodeInfo>,
      EntryRemovedListener<String, HazelcastNodeInfo> {
    private final Predicate<String> member;

    Published(Predicate<String> member) {
      this.member = member;
    }

    @Override
    public void entryAdded(EntryEvent<String, HazelcastNodeInfo> event) {
      keep(event);
    }

    @Override
    public void entryUpdated(EntryEvent<String, HazelcastNodeInfo> event) {
      keep(event);
    }

    @Override
    public void entryRemoved(EntryEvent<String, HazelcastNodeInfo> event) {
      known.remove(event.getKey());
    }

    private void keep(EntryEvent<String, HazelcastNodeInfo> event) {
      if (event.getValue() != null && member.test(event.getKey())) {
        known.put(event.getKey(), event.getValue().unwrap());
      }
    }
  }
}
