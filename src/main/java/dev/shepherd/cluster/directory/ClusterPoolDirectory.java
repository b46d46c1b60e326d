package dev.shepherd.cluster.directory;

import dev.shepherd.cluster.setup.Membership;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.access.BusPoolHandle;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.access.PoolAnnouncement;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.access.ReplyAddress;
import dev.shepherd.runtime.access.Standbys;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.RuntimeTime;
import dev.shepherd.runtime.time.Scheduler;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.NodeId;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every pool of the cluster, wherever its coordinator runs (section 8.4 in docs/rules.md): the
 * pools of this Vert.x instance through their in-JVM handles, and those other nodes announce
 * ({@link PoolAnnouncement}) through {@link BusPoolHandle}s. It listens on the announcement
 * address, asks every coordinator to announce at once when it starts, forgets a pool that is
 * announced gone, whose node leaves the cluster (Hazelcast's membership, so a killed node's pools
 * go within a second) or that has been silent for {@link PoolAnnouncement#SILENCES} announcements
 * (a node that hangs). Its table lives on the context that started it; readers on any thread see
 * the latest immutable view.
 *
 * <p>Why announcements rather than a cluster-wide map: entries of a map outlive a node that is
 * killed (someone must clean them, and a node that is cut off cannot), reading a map is a call
 * across the cluster on every {@code GET /api/pools}, and a map needs the cluster's partitions to
 * be healthy. Announcements cost one small message per pool and second, expire by themselves, and
 * reads are local.
 */
public final class ClusterPoolDirectory implements PoolDirectory {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterPoolDirectory.class);
  /** How often silent announcements are looked for. */
  static final long EXPIRY_CHECK_MS = 500;
  /** How long a status, cancel or rebalance of a remote pool waits (the health check's limit). */
  static final long CONTROL_TIMEOUT_MS = 5_000;

  private final Vertx vertx;
  private final Context context;
  /** How long a request to a highly available pool that no node leads waits for one. */
  private final long leaderWaitMs;
  /** Silences are measured on the monotonic clock: a step of the wall clock expires nothing. */
  private final RuntimeClock clock;
  private final Scheduler scheduler;
  private final String node;
  private final AnnouncedPools table = new AnnouncedPools();
  private final Membership membership;
  private MessageConsumer<Object> announcements;
  private long expiryTimer = -1;
  /**
   * This node's reply address for each pool it reaches over the bus: a submit that waits for its
   * outcome (an HTTP caller's) is answered there by whichever coordinator holds the job by then,
   * so it outlives a failover (A4 in docs/rules.md), and a handle replaced meanwhile does not
   * strand it. One per pool name for the directory's life, closed with it.
   */
  private final Map<String, ReplyAddress> replies = new ConcurrentHashMap<>();
  /** Handles on the pools this node stands by for, while no node leads them. */
  private final Map<String, PoolHandle> standbys = new ConcurrentHashMap<>();
  /** The remote pools by name and by prefix; replaced whole on each change. */
  private volatile Remote remote = new Remote(Map.of(), Map.of());

  private record Remote(Map<String, PoolHandle> byName, Map<String, PoolHandle> byPrefix) {}

  private ClusterPoolDirectory(Vertx vertx, Context context, long leaderWaitMs) {
    this.vertx = vertx;
    this.context = context;
    this.leaderWaitMs = leaderWaitMs;
    RuntimeTime time = RuntimeTime.of(vertx);
    this.clock = time.clock();
    this.scheduler = time.scheduler(context);
    this.node = NodeId.of(vertx);
    this.membership = Membership.of(((VertxInternal) vertx).clusterManager());
  }

  /**
   * Starts the directory of {@code vertx}'s cluster on the caller's context; it completes once it
   * listens and has asked the coordinators to announce (their answers arrive shortly after).
   */
  public static Future<ClusterPoolDirectory> start(Vertx vertx) {
    return start(vertx, PoolClient.DEFAULT_LEADER_WAIT_MS);
  }

  /**
   * The same, with a request to a highly available pool that no node leads waiting up to {@code
   * leaderWaitMs} for one before it is answered that none leads ({@code http.leaderWaitMs}).
   */
  public static Future<ClusterPoolDirectory> start(Vertx vertx, long leaderWaitMs) {
    if (!vertx.isClustered()) {
      return Future.failedFuture(new IllegalStateException(
          "a cluster directory needs a clustered Vert.x"));
    }
    ClusterPoolDirectory directory =
        new ClusterPoolDirectory(vertx, vertx.getOrCreateContext(), leaderWaitMs);
    Promise<ClusterPoolDirectory> started = Promise.promise();
    directory.context.runOnContext(v -> directory.listen().map(directory).onComplete(started));
    return started.future();
  }

  private Future<Void> listen() {
    membership.watch(left -> {
      // What this node is still asking of the pools the leaving node coordinated ends now, not
      // at its timeout (the bus would keep the dead node's consumers a while longer).
      for (PoolHandle handle : remote.byName().values()) {
        if (left.equals(handle.node()) && handle instanceof BusPoolHandle bus) {
          bus.nodeLeft();
        }
      }
      context.runOnContext(v -> nodeLeft(left));
    });
    announcements = vertx.eventBus().consumer(PoolAnnouncement.ADDRESS, message -> {
      PoolAnnouncement announcement;
      try {
        announcement = PoolAnnouncement.decode(message.body());
      } catch (BadRequest e) {
        LOG.debug("ignored a pool announcement: {}", LogText.quote(e.getMessage()));
        return;
      }
      if (!announcement.node().equals(node) && table.heard(announcement, now())) {
        publish();
      }
    });
    expiryTimer = scheduler.every(EXPIRY_CHECK_MS, () -> {
      if (table.expire(now())) {
        publish();
      }
    });
    return announcements.completion()
        .onSuccess(v -> vertx.eventBus().publish(PoolAnnouncement.QUERY, new JsonObject()));
  }

  private void nodeLeft(String left) {
    if (table.nodeLeft(left, now())) {
      LOG.info("pools of node {} are gone: it left the cluster", left);
      publish();
    }
  }

  /** Rebuilds the readers' view from the table, keeping the handles of pools that stayed. */
  private void publish() {
    Remote before = remote;
    Map<String, PoolHandle> byName = new LinkedHashMap<>();
    Map<String, PoolHandle> byPrefix = new HashMap<>();
    for (AnnouncedPools.Entry entry : table.listed()) {
      PoolHandle kept = before.byName().get(entry.pool());
      PoolHandle handle = handle(kept, entry.pool(), entry.prefix(), entry.node(), entry.ha());
      if (kept != handle) {
        LOG.info("pool {} is served by node {} at {}", LogText.quote(entry.pool()), entry.node(),
            LogText.quote(entry.prefix()));
      }
      byName.put(entry.pool(), handle);
      byPrefix.put(entry.prefix(), handle);
    }
    for (AnnouncedPools.Leaderless pool : table.leaderless()) {
      PoolHandle kept = before.byName().get(pool.pool());
      PoolHandle handle = handle(kept, pool.pool(), pool.prefix(), null, true);
      if (kept != handle) {
        LOG.info("pool {} has no leader now; waiting up to {} ms for a standby to take it over",
            LogText.quote(pool.pool()), AnnouncedPools.TAKEOVER_WAIT_MS);
      }
      byName.put(pool.pool(), handle);
      byPrefix.put(pool.prefix(), handle);
    }
    before.byName().keySet().stream().filter(name -> !byName.containsKey(name))
        .forEach(name -> LOG.info("pool {} is gone from the cluster", LogText.quote(name)));
    remote = new Remote(Map.copyOf(byName), Map.copyOf(byPrefix));
  }

  /**
   * {@code kept} if it is the handle of that pool at that prefix on that node, else a new one; a
   * highly available pool's waits for a leader ({@link BusPoolHandle#awaitingLeader}), and with
   * no node ({@code at} null) is {@linkplain BusPoolHandle#leaderless leaderless}.
   */
  private PoolHandle handle(PoolHandle kept, String pool, String prefix, String at, boolean ha) {
    if (kept != null && prefix.equals(kept.addresses().prefix())
        && Objects.equals(at, kept.node()) && kept.awaitsLeader() == ha) {
      return kept;
    }
    BusPoolHandle handle = new BusPoolHandle(vertx, pool, new Addresses(prefix), at,
        PoolClient.DEFAULT_REQUEST_TIMEOUT_MS, CONTROL_TIMEOUT_MS,
        replies.computeIfAbsent(pool, name ->
            new ReplyAddress(vertx, name, PoolClient.DEFAULT_REQUEST_TIMEOUT_MS)));
    if (!ha) {
      return handle;
    }
    // Without a node, no node leads it now (it went, or none has announced it yet): a read that
    // the bus hands to the dead leader's lingering consumers is answered that none leads.
    BusPoolHandle waiting = handle.awaitingLeader(leaderWaitMs);
    return at == null ? waiting.leaderless() : waiting;
  }

  private long now() {
    return clock.monotonicMs();
  }

  @Override
  public PoolHandle find(String name) {
    PoolHandle local = LocalPools.handle(vertx, name);
    if (local != null) {
      return local;
    }
    PoolHandle found = remote.byName().get(name);
    return found != null ? found : standingBy(name);
  }

  /**
   * A handle on the highly available pool {@code name} that this node stands by for and that no
   * node leads now (none announces it), or null: it waits for a leader, then answers that there
   * is none.
   */
  private PoolHandle standingBy(String name) {
    Addresses addresses = Standbys.find(vertx, name);
    if (addresses == null) {
      return null;
    }
    PoolHandle kept = standbys.get(name);
    PoolHandle handle = handle(kept, name, addresses.prefix(), null, true);
    if (handle != kept) {
      standbys.put(name, handle);
    }
    return handle;
  }

  @Override
  public PoolHandle byPrefix(String prefix) {
    for (PoolHandle local : LocalPools.handles(vertx)) {
      if (local.addresses().prefix().equals(prefix)) {
        return local;
      }
    }
    PoolHandle handle = remote.byPrefix().get(prefix);
    // A remote pool of the same name as a local one is not served: the local one is.
    if (handle != null) {
      return LocalPools.handle(vertx, handle.name()) == null ? handle : null;
    }
    for (Map.Entry<String, Addresses> standby : Standbys.all(vertx).entrySet()) {
      if (standby.getValue().prefix().equals(prefix)) {
        return find(standby.getKey());
      }
    }
    return null;
  }

  @Override
  public List<PoolHandle> pools() {
    Map<String, PoolHandle> all = new HashMap<>(remote.byName());
    Standbys.all(vertx).keySet().stream().filter(name -> !all.containsKey(name))
        .forEach(name -> all.put(name, standingBy(name)));
    LocalPools.handles(vertx).forEach(local -> all.put(local.name(), local));
    List<PoolHandle> out = new ArrayList<>(all.values());
    out.sort(Comparator.comparing(PoolHandle::name));
    return out;
  }

  /** Stops listening; the view stays as it was. */
  public Future<Void> close() {
    membership.close();
    scheduler.cancel(expiryTimer);
    List<Future<Void>> closing = new ArrayList<>();
    replies.values().forEach(address -> closing.add(address.close()));
    if (announcements != null) {
      closing.add(announcements.unregister());
    }
    return Future.join(closing).mapEmpty();
  }
}
