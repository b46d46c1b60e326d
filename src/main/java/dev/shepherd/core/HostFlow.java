package dev.shepherd.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The host path (sections 8.2-8.3 in docs/rules.md): worker hosts registering their slots (H1,
 * H2, H7), being lost (H5: the cluster says so, or the host is silent past its lease, a core
 * timer) and retiring their slots after the grace (H6), and leaving on purpose.
 */
final class HostFlow {
  private final PoolData d;
  private final SlotFlow slots;
  private final Shutdown shutdown;

  HostFlow(PoolData data, SlotFlow slots, Shutdown shutdown) {
    this.d = data;
    this.slots = slots;
    this.shutdown = shutdown;
  }

  /**
   * H1, H2, H7 (docs/rules.md): an unknown host's slots join the pool, INSTALLING, after every slot
   * it has; a returning host's LOST slots, and those retired HOST_LOST or departed with it, come
   * back with a new incarnation; each is deployed. A slot retired by the supervisor stays retired.
   * A live host is refused when it registers from another node, and a repeat from its own node
   * changes nothing.
   */
  PoolError registered(PoolEvent.HostRegistered e) {
    PoolError invalid = validate(e);
    if (invalid != null) {
      return invalid;
    }
    Host host = d.hosts.get(e.host());
    if (host != null && host.state == HostState.UP) {
      if (host.node.equals(e.node())) {
        // A repeat changes nothing the pool shows; it is heard all the same.
        host.lastHeard = e.now();
        d.ignoredFacts++;
        return null;
      }
      return new PoolError.DuplicateHost(e.host(), host.node);
    }
    if (d.state != PoolState.RUNNING) {
      d.ignoredFacts++;
      return null;
    }
    if (host == null) {
      host = new Host(e.host(), e.node(), e.now());
      d.hosts.put(host.id, host);
    } else {
      host.node = e.node();
      host.state = HostState.UP;
      host.since = e.now();
    }
    host.lastHeard = e.now();
    d.publish(new Notice.HostChanged(host.id, host.node, HostState.UP, null));
    d.out.add(new Effect.StartTimer(new Timer.HostLease(host.id, host.since),
        host.since + d.settings.hosts().leaseMs()));
    Set<String> named = new HashSet<>();
    for (SlotSpec spec : e.slots()) {
      named.add(spec.id());
      int capacity = spec.maxConcurrency() == null ? Slot.UNKNOWN_CAPACITY : spec.maxConcurrency();
      Slot slot = d.slotsById.get(spec.id());
      if (slot == null) {
        slot = d.addSlot(spec.id(), capacity, host);
        host.slots.add(slot);
      } else if (!comesBack(slot)) {
        continue;
      } else {
        if (slot.departed) {
          slot.departed = false;
          d.visible++;
        }
        if (slot.retired()) {
          d.notRetired++;
        }
        slot.capacity = capacity;
        slot.incarnation++;
        slot.consecutiveFailures = 0;
        slot.moveTo(Slot.Life.INSTALLING);
        d.refresh(slot);
      }
      d.out.add(new Effect.Deploy(slot.id, slot.incarnation));
      d.publishPhase(slot);
    }
    List<String> every = new ArrayList<>(host.slots.size());
    host.slots.forEach(slot -> every.add(slot.id));
    d.record(new DurableRecord.HostKnown(host.id, host.node, every));
    List<Slot> unnamed = new ArrayList<>();
    for (Slot slot : host.slots) {
      if (!named.contains(slot.id) && !slot.departed) {
        unnamed.add(slot);
      }
    }
    if (!unnamed.isEmpty()) {
      slots.depart(unnamed, e.now());
    }
    return null;
  }

  /** Whether a known slot of a registering host is revived (H7 in docs/rules.md). */
  private static boolean comesBack(Slot slot) {
    return slot.life == Slot.Life.LOST || slot.departed
        || (slot.retired() && slot.retirement == Retirement.HOST_LOST);
  }

  private PoolError validate(PoolEvent.HostRegistered e) {
    if (e.slots().isEmpty()) {
      return new PoolError.InvalidHostSlots(e.host(), "a host registers at least one slot");
    }
    Set<String> ids = new HashSet<>();
    for (SlotSpec spec : e.slots()) {
      if (!ids.add(spec.id())) {
        return new PoolError.InvalidHostSlots(e.host(), "slot '" + spec.id() + "' is named twice");
      }
      Slot slot = d.slotsById.get(spec.id());
      if (slot != null && (slot.host == null || !slot.host.id.equals(e.host()))) {
        return new PoolError.InvalidHostSlots(e.host(),
            "slot '" + spec.id() + "' belongs to " + (slot.host == null ? "the pool itself"
                : "host '" + slot.host.id + "'"));
      }
    }
    return null;
  }

  /**
   * H5 (docs/rules.md): every slot of the host that is not retired becomes LOST: what it ran is
   * interrupted with exit NODE_LOST (P9; RETRY jobs run elsewhere), nothing is charged to the
   * restart budget, and the grace of H6 starts.
   */
  PoolError lost(PoolEvent.HostLost e) {
    Host host = d.hosts.get(e.host());
    if (host == null) {
      return new PoolError.UnknownHost(e.host());
    }
    if (host.state != HostState.UP || d.state == PoolState.STOPPED) {
      d.ignoredFacts++;
      return null;
    }
    lose(host, e.cause(), e.now());
    return null;
  }

  /**
   * H5 (docs/rules.md): a heartbeat or reports from a host: an UP host's lease runs from now;
   * anything heard from a host the pool does not have UP changes nothing (the runtime asks it to
   * register again).
   */
  PoolError heard(PoolEvent.HostHeard e) {
    Host host = d.hosts.get(e.host());
    if (host == null) {
      return new PoolError.UnknownHost(e.host());
    }
    if (host.state != HostState.UP) {
      d.ignoredFacts++;
      return null;
    }
    host.lastHeard = e.now();
    return null;
  }

  /**
   * H5 (docs/rules.md): the lease timer of a host UP since {@code since}: lost when nothing was
   * heard from it for {@code leaseMs}, else checked again when the lease from its last word ends.
   * One timer per host at a time, however often it is heard.
   */
  void leaseCheck(Timer.HostLease timer, long now) {
    Host host = d.hosts.get(timer.host());
    if (host == null || host.state != HostState.UP || host.since != timer.since()
        || d.state == PoolState.STOPPED) {
      d.ignoredFacts++;
      return;
    }
    long leaseMs = d.settings.hosts().leaseMs();
    long silent = now - host.lastHeard;
    if (silent < leaseMs) {
      d.out.add(new Effect.StartTimer(timer, host.lastHeard + leaseMs));
      return;
    }
    lose(host, "no heartbeat from host '" + host.id + "' for " + silent
        + " ms (heartbeatTimeoutMs " + leaseMs + ")", now);
  }

  private void lose(Host host, String cause, long now) {
    host.state = HostState.LOST;
    host.since = now;
    d.publish(new Notice.HostChanged(host.id, host.node, HostState.LOST, cause));
    List<Job> interrupted = new ArrayList<>();
    for (Slot slot : host.slots) {
      if (slot.departed || slot.retired()) {
        continue;
      }
      if (slot.life == Slot.Life.RUNNING || slot.life == Slot.Life.INSTALLING) {
        d.out.add(new Effect.Stop(slot.id, slot.incarnation, Exit.NODE_LOST));
      }
      d.interruptRunning(slot,
          new Interruption.WorkerStopped(slot.id, Exit.NODE_LOST, cause), interrupted);
      slot.moveTo(Slot.Life.LOST);
      d.refresh(slot);
      d.publishPhase(slot);
    }
    if (d.state == PoolState.DRAINING) {
      shutdown.settleWhileDraining(interrupted);
      shutdown.finishDrainIfIdle(now);
      return;
    }
    d.requeues.settle(interrupted);
    d.out.add(new Effect.StartTimer(new Timer.HostGrace(host.id, host.since),
        host.since + d.settings.hosts().graceMs()));
    d.dispatch(now);
  }

  /** A host left on purpose: its slots depart as deregistered remote workers do. */
  PoolError deregistered(PoolEvent.HostDeregistered e) {
    Host host = d.hosts.get(e.host());
    if (host == null) {
      return new PoolError.UnknownHost(e.host());
    }
    if (host.state == HostState.GONE) {
      d.ignoredFacts++;
      return null;
    }
    host.state = HostState.GONE;
    host.since = e.now();
    d.publish(new Notice.HostChanged(host.id, host.node, HostState.GONE, null));
    List<Slot> leaving = new ArrayList<>();
    for (Slot slot : host.slots) {
      if (!slot.departed) {
        leaving.add(slot);
      }
    }
    slots.depart(leaving, e.now());
    return null;
  }

  /**
   * H6 (docs/rules.md): the grace of a host lost at {@code since} is over: if it is still lost
   * since then, its LOST slots retire with HOST_LOST (P10, P11).
   */
  void graceOver(Timer.HostGrace timer, long now) {
    Host host = d.hosts.get(timer.host());
    if (d.state != PoolState.RUNNING || host == null || host.state != HostState.LOST
        || host.since != timer.since()) {
      d.ignoredFacts++;
      return;
    }
    for (Slot slot : host.slots) {
      if (slot.life == Slot.Life.LOST) {
        d.retire(slot, Retirement.HOST_LOST);
      }
    }
  }
}
