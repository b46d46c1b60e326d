package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A worker host as the pool knows it: a node that runs incarnations of its slots for this pool
 * (section 8.2 in docs/rules.md). Internal and mutable; the pool is its only writer.
 */
final class Host {
  final String id;
  /** The cluster member it registered from; a restarted host comes back with another one. */
  String node;
  HostState state = HostState.UP;
  /** When it last changed state. */
  long since;
  /** When it was last heard from while UP (H5 in docs/rules.md: its lease runs from here). */
  long lastHeard;
  /** Its slots, in slot order. */
  final List<Slot> slots = new ArrayList<>();

  Host(String id, String node, long since) {
    this.id = id;
    this.node = node;
    this.since = since;
  }

  @Override
  public String toString() {
    return id + "[" + state + " node=" + node + " since=" + since + " slots=" + slots.size() + "]";
  }
}
