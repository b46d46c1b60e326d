package dev.shepherd.core;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Entries kept by id, oldest first, within a {@link Retention} (count and bytes): a new entry
 * for an id already kept replaces it as the newest, and the oldest are pushed out to make room.
 * What the dead-letter set (J5 in docs/rules.md) and the recent outcomes (J6) are made of. O(1) per
 * entry.
 */
final class KeptByAge<V> {
  private final Retention limits;
  private final ToLongFunction<V> cost;
  private final LinkedHashMap<String, V> entries = new LinkedHashMap<>();
  private long bytes;

  KeptByAge(Retention limits, ToLongFunction<V> cost) {
    this.limits = limits;
    this.cost = cost;
  }

  boolean enabled() {
    return limits.capacity() > 0;
  }

  int size() {
    return entries.size();
  }

  long bytes() {
    return bytes;
  }

  V get(String id) {
    return entries.get(id);
  }

  /** Keeps {@code entry} as the newest; returns the ids pushed out, oldest first (maybe its own). */
  List<String> add(String id, V entry) {
    remove(id);
    entries.put(id, entry);
    bytes += cost.applyAsLong(entry);
    return trim();
  }

  /** Pushes out the oldest entries beyond the limits; returns their ids, oldest first. */
  List<String> trim() {
    List<String> out = List.of();
    Iterator<Map.Entry<String, V>> oldest = entries.entrySet().iterator();
    while (entries.size() > limits.capacity() || bytes > limits.maxBytes()) {
      Map.Entry<String, V> gone = oldest.next();
      oldest.remove();
      bytes -= cost.applyAsLong(gone.getValue());
      if (out.isEmpty()) {
        out = new ArrayList<>(1);
      }
      out.add(gone.getKey());
    }
    return out;
  }

  /** Puts a recovered entry back (A3 in docs/rules.md), oldest first, without pushing any out. */
  void restore(String id, V entry) {
    entries.put(id, entry);
    bytes += cost.applyAsLong(entry);
  }

  void remove(String id) {
    V entry = entries.remove(id);
    if (entry != null) {
      bytes -= cost.applyAsLong(entry);
    }
  }

  /** Every entry, oldest first. */
  List<V> all() {
    return new ArrayList<>(entries.values());
  }
}
