package dev.shepherd.cluster.setup;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import dev.shepherd.cluster.ha.ReplyRoutes;
import io.vertx.core.Completable;
import io.vertx.core.Vertx;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.core.spi.cluster.RegistrationListener;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * vertx-hazelcast's cluster manager, except that the event bus stops sending to a member the
 * moment Hazelcast removes it ({@link LiveRegistrations}), not once the departed member's
 * consumers have left the cluster's list: submitters then lose only what they sent before the
 * removal (docs/benchmarks.md, "Failover"). As {@link ReplyRoutes}, it also keeps a standby's
 * routes to its submitters ready: their {@code replyTo} addresses' consumers, and the event-bus
 * addresses of the nodes those are on, known before a takeover needs them. Shepherd's nodes run
 * it ({@link ClusterSetup}); an application's clustered Vert.x that submits to HA pools gets the
 * same by building with it.
 */
public class DepartureAwareClusterManager extends HazelcastClusterManager implements ReplyRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(DepartureAwareClusterManager.class);
  private final LiveRegistrations live = new LiveRegistrations(this::liveNodes, this::reachReady);
  /** Nodes' event-bus addresses, learned as they are published: a node keeps its own for life. */
  private final KnownNodeInfos nodeInfos = new KnownNodeInfos();
  private volatile Vertx vertx;

  /** With the Hazelcast configuration vertx-hazelcast finds itself. */
  public DepartureAwareClusterManager() {
    super();
  }

  /** With {@code config}. */
  public DepartureAwareClusterManager(Config config) {
    super(config);
  }

  @Override
  public void init(Vertx vertx) {
    super.init(vertx);
    this.vertx = vertx;
  }

  /**
   * Joins, then learns every member's event-bus address ahead of the first send to it ({@link
   * KnownNodeInfos}); a failure to follow them is logged and leaves the reads to the first sends.
   */
  @Override
  public void join(Completable<Void> promise) {
    super.join((done, failure) -> {
      if (failure == null) {
        vertx.executeBlocking(() -> {
          nodeInfos.follow(getHazelcastInstance(), this::isMember);
          return null;
        }, false).onFailure(e -> LOG.warn("the cluster members' event-bus addresses are not"
            + " followed ({}); each is read when first sent to", String.valueOf(e.getMessage())));
      }
      promise.complete(done, failure);
    });
  }

  @Override
  public void registrationListener(RegistrationListener listener) {
    super.registrationListener(live.wrap(listener));
  }

  @Override
  public void getRegistrations(String address, Completable<List<RegistrationInfo>> promise) {
    List<RegistrationInfo> ready = isActive() ? live.readyList(address) : null;
    if (ready != null) {
      vertx.getOrCreateContext().runOnContext(v -> promise.succeed(ready));
      return;
    }
    long updates = live.updates(address);
    super.getRegistrations(address, (registrations, failure) -> promise.complete(
        failure == null ? live.fetched(address, registrations, updates) : null, failure));
  }

  @Override
  public void getNodeInfo(String nodeId, Completable<NodeInfo> promise) {
    NodeInfo known = nodeInfos.get(nodeId);
    if (known != null) {
      vertx.getOrCreateContext().runOnContext(v -> promise.succeed(known));
      return;
    }
    super.getNodeInfo(nodeId, (info, failure) -> {
      if (failure == null && info != null) {
        nodeInfos.learned(nodeId, info);
      }
      promise.complete(info, failure);
    });
  }

  @Override
  public void keepReady(String address) {
    if (!isActive() || !live.keepReady(address)) {
      return;
    }
    long updates = live.updates(address);
    super.getRegistrations(address, (registrations, failure) -> {
      if (failure != null) {
        live.notReady(address);
      } else {
        live.fetched(address, registrations, updates);
      }
    });
  }

  /**
   * Routes around the departed member at once, then lets vertx-hazelcast clean the cluster's list
   * of it (which waits for the member's partitions to have new owners).
   */
  @Override
  public void memberRemoved(MembershipEvent event) {
    nodeInfos.forget(String.valueOf(event.getMember().getAttribute(HazelcastMembership.NODE_ID)));
    routeAround();
    super.memberRemoved(event);
  }

  /** Hands the event bus its lists of consumers without those of departed members. */
  void routeAround() {
    if (isActive()) {
      live.departed();
    }
  }

  /** The current list of a ready address once read, or null (tests). */
  List<RegistrationInfo> readyList(String address) {
    return live.readyList(address);
  }

  /** Reads, once, the event-bus address of each node with a consumer of a ready address. */
  private void reachReady(List<RegistrationInfo> registrations) {
    for (RegistrationInfo registration : registrations) {
      String node = registration.nodeId();
      if (isActive() && !nodeInfos.knows(node) && !node.equals(getNodeId())) {
        super.getNodeInfo(node, (info, failure) -> {
          if (failure == null && info != null && !nodeInfos.knows(node)) {
            nodeInfos.learned(node, info);
          }
        });
      }
    }
  }

  /** Whether {@code node}'s event-bus address is known without asking the cluster (tests). */
  boolean knowsNode(String node) {
    return nodeInfos.knows(node);
  }

  /** Whether {@code node} is another member of the cluster now. */
  private boolean isMember(String node) {
    Set<String> nodes = liveNodes();
    return nodes != null && nodes.contains(node) && !node.equals(getNodeId());
  }

  /** The Vert.x node ids of the cluster's members now, or null before this member joined. */
  private Set<String> liveNodes() {
    HazelcastInstance hazelcast = getHazelcastInstance();
    if (hazelcast == null || !isActive()) {
      return null;
    }
    Set<String> nodes = new HashSet<>();
    for (Member member : hazelcast.getCluster().getMembers()) {
      nodes.add(member.getAttribute(HazelcastMembership.NODE_ID));
    }
    return nodes;
  }
}
