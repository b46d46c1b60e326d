package dev.shepherd.cluster.setup;

import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.core.spi.cluster.RegistrationListener;
import io.vertx.core.spi.cluster.RegistrationUpdateEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The consumers the event bus may send to: the cluster's list of consumers less those of nodes
 * that are no longer members. vertx-hazelcast removes a departed member's consumers from the list
 * only once every partition of the list has an owner again (for a killed member, 0.2-0.6 s after
 * its removal, docs/benchmarks.md), and until then the event bus keeps sending that member's share
 * of every address to it, where it is lost. This filter stands between the list and the event
 * bus's node selector: every list handed to the selector is kept to live members, and when a
 * member leaves, the selector at once gets the lists it holds without that member's consumers.
 *
 * <p>It also keeps some addresses <em>ready</em> (a standby's submitters' {@code replyTo}, at most
 * {@link #MAX_READY}): their lists are read once and then kept current by the list's own update
 * events, as the selector keeps the addresses it sends to, so that a first send to one of them
 * needs no read of the list (which, right after a kill, waits for the dead member's partitions).
 * An address whose consumers all left is no longer kept ready.
 */
final class LiveRegistrations {
  /** The most addresses kept ready; beyond them a first send reads the list as usual. */
  static final int MAX_READY = 256;

  private final Supplier<Set<String>> liveNodes;
  private final Consumer<List<RegistrationInfo>> readyListed;
  /** The lists last handed on, by address: what a departure filters again. */
  private final Map<String, List<RegistrationInfo>> handed = new ConcurrentHashMap<>();
  /** Update events per address: a read begun before one must not replace what it brought. */
  private final Map<String, Long> updates = new ConcurrentHashMap<>();
  private final Set<String> ready = ConcurrentHashMap.newKeySet();
  private volatile RegistrationListener selector;

  /**
   * {@code liveNodes}: the node ids of the cluster's members now, null while not joined; {@code
   * readyListed} hears each list kept for a ready address.
   */
  LiveRegistrations(Supplier<Set<String>> liveNodes,
      Consumer<List<RegistrationInfo>> readyListed) {
    this.liveNodes = liveNodes;
    this.readyListed = readyListed;
  }

  LiveRegistrations(Supplier<Set<String>> liveNodes) {
    this(liveNodes, list -> { });
  }

  /** What the cluster manager's list reports to instead of {@code selector}. */
  RegistrationListener wrap(RegistrationListener selector) {
    this.selector = selector;
    return new RegistrationListener() {
      @Override
      public void registrationsUpdated(RegistrationUpdateEvent event) {
        String address = event.address();
        updates.merge(address, 1L, Long::sum);
        List<RegistrationInfo> live = keep(address, event.registrations());
        boolean selected = selector.wantsUpdatesFor(address);
        if (live.isEmpty() && ready.remove(address) && !selected) {
          // Its consumers left (a client gone): no longer kept ready, nor followed.
          handed.remove(address);
          updates.remove(address);
        }
        if (selected) {
          selector.registrationsUpdated(new RegistrationUpdateEvent(address, live));
        }
      }

      @Override
      public void registrationsLost() {
        selector.registrationsLost();
      }

      @Override
      public boolean wantsUpdatesFor(String address) {
        return ready.contains(address) || selector.wantsUpdatesFor(address);
      }
    };
  }

  /** How many update events {@code address} has had: what a read begun now passes back. */
  long updates(String address) {
    return updates.getOrDefault(address, 0L);
  }

  /**
   * {@code registrations} of {@code address} as a read begun after {@code updatesBefore} events
   * found them, kept to live members; kept for a departure unless an update came meanwhile.
   */
  List<RegistrationInfo> fetched(String address, List<RegistrationInfo> registrations,
      long updatesBefore) {
    if (updates(address) != updatesBefore) {
      return live(registrations);
    }
    return keep(address, registrations);
  }

  /** As above for a read that no update can have overtaken (tests). */
  List<RegistrationInfo> fetched(String address, List<RegistrationInfo> registrations) {
    return fetched(address, registrations, updates(address));
  }

  /**
   * Keeps {@code address} ready from now on: whether it is new (the caller reads its list once),
   * or false when it was ready already or {@link #MAX_READY} are.
   */
  boolean keepReady(String address) {
    return ready.size() < MAX_READY && ready.add(address);
  }

  /** A first read of a ready address failed: the next {@link #keepReady} tries again. */
  void notReady(String address) {
    ready.remove(address);
  }

  /** The current list of a ready address that has been read, kept to live members; or null. */
  List<RegistrationInfo> readyList(String address) {
    List<RegistrationInfo> list = ready.contains(address) ? handed.get(address) : null;
    return list == null ? null : live(list);
  }

  /**
   * A member left: each list the selector still wants or that is kept ready, without the
   * consumers of nodes that are no longer members (handed to the selector if it wants it); lists
   * nobody wants are forgotten.
   */
  void departed() {
    RegistrationListener to = selector;
    for (Map.Entry<String, List<RegistrationInfo>> entry : handed.entrySet()) {
      String address = entry.getKey();
      boolean selected = to != null && to.wantsUpdatesFor(address);
      if (!selected && !ready.contains(address)) {
        handed.remove(address, entry.getValue());
        continue;
      }
      List<RegistrationInfo> was = entry.getValue();
      List<RegistrationInfo> live = live(was);
      if (live.size() < was.size() && handed.replace(address, was, live) && selected) {
        to.registrationsUpdated(new RegistrationUpdateEvent(address, live));
      }
    }
  }

  private List<RegistrationInfo> keep(String address, List<RegistrationInfo> registrations) {
    List<RegistrationInfo> live = live(registrations);
    handed.put(address, live);
    if (ready.contains(address)) {
      readyListed.accept(live);
    }
    return live;
  }

  private List<RegistrationInfo> live(List<RegistrationInfo> registrations) {
    Set<String> nodes = liveNodes.get();
    if (nodes == null || registrations.isEmpty()) {
      return registrations;
    }
    List<RegistrationInfo> live = new ArrayList<>(registrations.size());
    for (RegistrationInfo registration : registrations) {
      if (nodes.contains(registration.nodeId())) {
        live.add(registration);
      }
    }
    return live.size() == registrations.size() ? registrations : live;
  }
}
