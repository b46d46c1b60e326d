package dev.shepherd.cluster.directory;

import dev.shepherd.cluster.hosts.HostCodec;
import dev.shepherd.cluster.hosts.HostMac;
import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.cluster.hosts.HostMessages;
import dev.shepherd.cluster.hosts.HostReport;
import dev.shepherd.cluster.setup.Membership;
import dev.shepherd.core.HostState;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Notice;
import dev.shepherd.core.PoolError;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolState;
import dev.shepherd.core.SlotSpec;
import dev.shepherd.runtime.coordinator.HostedPool;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.slot.ResultCheck;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pool coordinator's worker hosts (H2-H7 in docs/rules.md): it turns what hosts say (registration, heartbeat,
 * reports, departure) and what the cluster says (a node left) into the pool's events, tells the
 * pool when it heard from a host, gives the pool a {@link RemoteSlot} for each slot a host brings,
 * and asks a host the pool does not know (any more) to register again. The pool decides; the
 * directory follows its published host states. Confined to the coordinator's context.
 *
 * <p>A host is lost (H5) when its node leaves the cluster or when nothing was heard from it for
 * {@code heartbeatTimeoutMs}, whichever comes first. The second is the pool's own lease (a core
 * timer, {@code Timer.HostLease}, armed by the runtime as the core asks, like a job's deadline):
 * the directory only says when a host was heard ({@code PoolEvent.HostHeard}), on the pool's
 * monotonic clock ({@link HostedPool#now}), so a step of the wall clock neither hastens nor
 * delays a loss. A host registering under the id of a live host from another node is refused
 * ({@code DUPLICATE_HOST}) unless that node has left the cluster: then the old one is lost first,
 * and the new one taken.
 */
final class HostDirectory implements PoolObserver {
  private static final Logger LOG = LoggerFactory.getLogger(HostDirectory.class);

  private final HostedPool coordinator;
  private final Membership membership;
  private final long heartbeatTimeoutMs;
  private final long term;
  private final HostMac mac;
  private final Map<String, RemoteHost> hosts = new LinkedHashMap<>();

  HostDirectory(HostedPool coordinator, Membership membership) {
    this(coordinator, membership, HostMac.NONE);
  }

  /** With {@code mac} signing the commands this pool sends its hosts (docs/security.md). */
  HostDirectory(HostedPool coordinator, Membership membership, HostMac mac) {
    this.coordinator = coordinator;
    this.membership = membership;
    this.heartbeatTimeoutMs = coordinator.heartbeatTimeoutMs();
    this.term = coordinator.term();
    this.mac = mac;
  }

  long heartbeatTimeoutMs() {
    return heartbeatTimeoutMs;
  }

  long term() {
    return term;
  }

  private String pool() {
    return coordinator.name();
  }

  // ---- what hosts say ------------------------------------------------------------------------

  /**
   * A registration (H1, H2, H7 in docs/rules.md): null when the pool took it (or already had it
   * from that node), else why not: {@code 409 DUPLICATE_HOST} (or another of the pool's refusals),
   * or {@code 503 SHUTTING_DOWN} when the pool no longer runs.
   */
  PoolErrorException register(HostMessages.Register r) {
    if (coordinator.state() != PoolState.RUNNING) {
      return new PoolErrorException(PoolErrorException.SHUTTING_DOWN, "pool '" + pool() + "' is "
          + coordinator.state() + " and takes no host");
    }
    long now = coordinator.now();
    RemoteHost host = hosts.get(r.host());
    if (host != null && host.state == HostState.UP && !host.node.equals(r.node())
        && !membership.isMember(host.node)) {
      lose(host, "node " + host.node + " left the cluster (the host registered again from node "
          + r.node() + ")");
    }
    boolean known = host != null;
    if (!known) {
      host = new RemoteHost(r.host(), r.node(), r.address(), coordinator, term, mac);
      hosts.put(host.id, host);
    }
    String oldNode = host.node;
    String oldAddress = host.address;
    host.node = r.node();
    host.address = r.address();
    List<RemoteSlot> added = new ArrayList<>();
    List<SlotSpec> specs = new ArrayList<>(r.slots().size());
    for (HostMessages.SlotOffer offer : r.slots()) {
      specs.add(new SlotSpec(offer.id(), offer.maxConcurrency()));
      if (!host.slots.containsKey(offer.id())) {
        RemoteSlot slot = new RemoteSlot(offer.id(), host);
        if (coordinator.addSlot(slot)) {
          host.slots.put(slot.id(), slot);
          added.add(slot);
        }
      }
    }
    PoolError refusal =
        coordinator.report(new PoolEvent.HostRegistered(r.host(), r.node(), specs, now));
    if (refusal != null) {
      for (RemoteSlot slot : added) {
        host.slots.remove(slot.id());
        coordinator.removeSlot(slot);
      }
      if (known) {
        host.node = oldNode;
        host.address = oldAddress;
      } else {
        hosts.remove(host.id);
      }
      LOG.info("pool {}: refused host {} from node {}: {}", pool(), LogText.quote(r.host()),
          LogText.quote(r.node()), refusal.message());
      return new PoolErrorException(refusal);
    }
    // Taken, or a repeat from the same node (the pool checked it runs, above): the pool has the
    // host UP now. The notice that says so may still wait for its durable write (A3, a highly
    // available pool), and the directory does not wait for it: judging by it answered hosts of
    // an HA pool "not taken" while the pool had taken them, and took their slots away again.
    host.state = HostState.UP;
    return null;
  }

  /**
   * A heartbeat: renews the lease of a host the pool has UP from that node; any other host (one
   * the pool does not know, has lost, or has from another node) is asked to register again.
   */
  void heartbeat(HostMessages.Heartbeat hb) {
    RemoteHost host = hosts.get(hb.host());
    if (host == null || host.state != HostState.UP || !host.node.equals(hb.node())) {
      LOG.info("pool {}: heartbeat from host {} on node {}, which the pool does not have {};"
              + " asking it to register again", pool(), LogText.quote(hb.host()),
          LogText.quote(hb.node()), host == null ? "at all" : host.state == HostState.UP
              ? "from that node" : "(it is " + host.state + ")");
      JsonObject reregister = HostCodec.encode(
          new HostCommand.Batch(term, List.of(new HostCommand.Reregister(hb.round()))));
      coordinator.sender().send(hb.address(), reregister,
          mac.sign(HostMac.COMMANDS, term, reregister));
      return;
    }
    coordinator.report(new PoolEvent.HostHeard(host.id, coordinator.now()));
  }

  /**
   * A host's reports, in the order they happened, each one event of the pool. What the pool
   * refuses (a completion or fact about an assignment or incarnation it no longer holds, or
   * about a slot that is not the host's) is ignored: counted, changing nothing (a completion so
   * refused is stale). Returns how many were refused.
   */
  int reports(HostReport.Batch batch) {
    long now = coordinator.now();
    RemoteHost host = hosts.get(batch.host());
    if (host != null && host.state == HostState.UP) {
      coordinator.report(new PoolEvent.HostHeard(host.id, now));
    }
    String own = batch.host() + "/";
    int refused = 0;
    for (HostReport report : batch.items()) {
      boolean owned = report.worker().startsWith(own);
      if (owned && report instanceof HostReport.Completion c
          && c.runNanos() != HostReport.Completion.UNMEASURED) {
        coordinator.ran(c.worker(), c.runNanos());
      }
      PoolError error = owned
          ? coordinator.report(event(report, now))
          : new PoolError.UnknownWorker(report.worker());
      if (error != null) {
        refused++;
      }
    }
    if (refused > 0) {
      LOG.debug("pool {}: {} of {} reports from host {} were refused", pool(), refused,
          batch.items().size(), LogText.quote(batch.host()));
    }
    return refused;
  }

  /**
   * The pool's event for {@code report}. A result no answer could carry becomes the job's failure
   * here, where it enters the pool, as a local slot's would.
   */
  private static PoolEvent event(HostReport report, long now) {
    if (report instanceof HostReport.Completion c && c.error() == null) {
      JobError unsendable = ResultCheck.problem(c.result());
      if (unsendable != null) {
        return new PoolEvent.Completed(c.worker(), c.assignment(), null, unsendable, now);
      }
      return new PoolEvent.Completed(c.worker(), c.assignment(), c.result(), null,
          ResultCheck.bytes(c.result()), now);
    }
    return report.toEvent(now);
  }

  /** A host leaves on purpose: its slots depart. Null, or why not (it is not known). */
  PoolError deregister(HostMessages.Deregister d) {
    PoolError refusal =
        coordinator.report(new PoolEvent.HostDeregistered(d.host(), coordinator.now()));
    return refusal;
  }

  // ---- what the cluster and the clock say ----------------------------------------------------

  /** Node {@code node} left the cluster: every host the pool has UP on it is lost. */
  void nodeLeft(String node) {
    for (RemoteHost host : new ArrayList<>(hosts.values())) {
      if (host.state == HostState.UP && host.node.equals(node)) {
        lose(host, "node " + node + " left the cluster");
      }
    }
  }

  private void lose(RemoteHost host, String cause) {
    coordinator.report(new PoolEvent.HostLost(host.id, cause, coordinator.now()));
  }

  /** The pool published a host's new state: the directory follows it. */
  @Override
  public void onNotice(Notice notice) {
    if (notice instanceof Notice.HostChanged changed) {
      RemoteHost host = hosts.get(changed.host());
      if (host != null) {
        host.state = changed.state();
      }
      if (changed.state() == HostState.LOST) {
        // The pool's own log warns of the loss; this line says why (the cluster, or silence).
        LOG.info("pool {}: host {} is lost: {}", pool(), LogText.quote(changed.host()),
            changed.cause());
      }
    }
  }
}
