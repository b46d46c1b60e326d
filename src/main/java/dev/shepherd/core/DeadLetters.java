package dev.shepherd.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The dead-letter set (J5): jobs that will not run again by themselves, by id, oldest first,
 * bounded by {@link Retention} in count and payload bytes; the oldest are evicted (and counted)
 * to make room. A job kept again replaces its earlier entry.
 */
final class DeadLetters {
  private final Retention limits;
  private final LinkedHashMap<String, DeadLetter> entries = new LinkedHashMap<>();
  private long bytes;
  private long evicted;

  DeadLetters(Retention limits) {
    this.limits = limits;
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

  long evicted() {
    return evicted;
  }

  DeadLetter get(String job) {
    return entries.get(job);
  }

  /** Keeps {@code entry}; returns the ids evicted to make room, oldest first (maybe its own). */
  List<String> add(DeadLetter entry) {
    remove(entry.job());
    entries.put(entry.job(), entry);
    bytes += entry.bytes();
    List<String> out = List.of();
    while (entries.size() > limits.capacity() || bytes > limits.maxBytes()) {
      String oldest = entries.keySet().iterator().next();
      remove(oldest);
      evicted++;
      if (out.isEmpty()) {
        out = new ArrayList<>(1);
      }
      out.add(oldest);
    }
    return out;
  }

  /** Puts a recovered entry back (A3), without evicting. */
  void restore(DeadLetter entry) {
    entries.put(entry.job(), entry);
    bytes += entry.bytes();
  }

  DeadLetter remove(String job) {
    DeadLetter entry = entries.remove(job);
    if (entry != null) {
      bytes -= entry.bytes();
    }
    return entry;
  }

  /** Oldest first. */
  List<DeadLetter> all() {
    return new ArrayList<>(entries.values());
  }

  /** Up to {@code limit} entries, newest first, after skipping {@code offset}. O(size). */
  List<DeadLetter> newestFirst(int offset, int limit) {
    List<DeadLetter> all = all();
    List<DeadLetter> page = new ArrayList<>(Math.max(0, Math.min(limit, all.size() - offset)));
    for (int i = all.size() - 1 - offset; i >= 0 && page.size() < limit; i--) {
      page.add(all.get(i));
    }
    return page;
  }
}
