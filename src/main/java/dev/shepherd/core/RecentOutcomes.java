package dev.shepherd.core;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The ring of recently answered jobs (J6), so that a submitter who did not wait can look its
 * job's outcome up: the latest answers by id, oldest first, bounded by {@link Retention} in count
 * and bytes, the oldest forgotten first. An answer for an id already remembered replaces the
 * earlier one and counts as the newest. O(1) per answer.
 */
final class RecentOutcomes {
  private final Retention limits;
  private final LinkedHashMap<String, RecentOutcome> entries = new LinkedHashMap<>();
  private long bytes;

  RecentOutcomes(Retention limits) {
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

  RecentOutcome get(String job) {
    return entries.get(job);
  }

  /** Remembers {@code entry}; returns the ids forgotten to make room, oldest first. */
  List<String> add(RecentOutcome entry) {
    RecentOutcome previous = entries.remove(entry.job());
    if (previous != null) {
      bytes -= previous.bytes();
    }
    entries.put(entry.job(), entry);
    bytes += entry.bytes();
    List<String> out = List.of();
    Iterator<RecentOutcome> oldest = entries.values().iterator();
    while (entries.size() > limits.capacity() || bytes > limits.maxBytes()) {
      RecentOutcome gone = oldest.next();
      oldest.remove();
      bytes -= gone.bytes();
      if (out.isEmpty()) {
        out = new ArrayList<>(1);
      }
      out.add(gone.job());
    }
    return out;
  }

  /** Puts a recovered entry back (A3), oldest first, without forgetting any. */
  void restore(RecentOutcome entry) {
    entries.put(entry.job(), entry);
    bytes += entry.bytes();
  }

  /** The remembered entries, oldest first. */
  List<RecentOutcome> all() {
    return new ArrayList<>(entries.values());
  }
}
