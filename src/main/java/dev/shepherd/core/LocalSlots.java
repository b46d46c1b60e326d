package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The pool's own slots, by position (F6 in docs/rules.md): the configured ones first, then those
 * resizes added ({@code w-<position>}), including ones a shrink took out, which a later grow
 * brings back under the same id. Also the size the last resize set; until then the configured one
 * (the first slot's capacity, 1 when there is none or it is unknown). A worker host's slots are
 * never here.
 */
final class LocalSlots {
  /** Every local slot the pool has had, by position; those at and past {@link #instances} leave. */
  final List<Slot> slots;
  int instances;
  int maxConcurrency;
  /** Whether a resize set the size (a durable image then carries it). */
  boolean resized;
  /** Local slots draining now: while above 0, each transition lets the empty ones leave. */
  int draining;

  LocalSlots(PoolData d) {
    this.slots = new ArrayList<>(d.slots);
    this.instances = slots.size();
    Integer first = d.settings.slots().isEmpty() ? null
        : d.settings.slots().get(0).maxConcurrency();
    this.maxConcurrency = first == null ? 1 : first;
  }

  /** The id of the local slot at {@code position}. */
  String idAt(int position) {
    return position < slots.size() ? slots.get(position).id : "w-" + position;
  }

  PoolSize size() {
    return new PoolSize(instances, maxConcurrency);
  }

  String fingerprint() {
    return "instances=" + instances + " maxConcurrency=" + maxConcurrency + " resized=" + resized
        + " draining=" + draining
        + " slots=" + slots.stream().map(slot -> slot.id).toList();
  }
}
