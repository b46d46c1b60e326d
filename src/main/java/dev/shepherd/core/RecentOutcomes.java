package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The ring of recently answered jobs (J6 in docs/rules.md), so that a submitter who did not wait
 * can look its job's outcome up: the latest answers, oldest first, bounded in count and bytes, the
 * oldest forgotten first.
 *
 * <p>Remembering happens for every job, so it is a circular array with the entries' sizes beside
 * them: O(1), no hashing, no allocation, and forgetting the oldest reads only its size, not the
 * long-cold entry. A lookup, which is rare, scans from the newest answer back (O(size)), so an id
 * answered twice (a replay, a caller reusing ids) is found with its latest outcome.
 */
final class RecentOutcomes {
  private final Retention limits;
  private RecentOutcome[] entries = new RecentOutcome[16];
  private long[] sizes = new long[16];
  /** The position of the oldest entry, and how many there are. */
  private int head;
  private int count;
  private long bytes;

  RecentOutcomes(Retention limits) {
    this.limits = limits;
  }

  boolean enabled() {
    return limits.capacity() > 0;
  }

  int size() {
    return count;
  }

  long bytes() {
    return bytes;
  }

  /** The latest answer of {@code job} still remembered, or null. O(size). */
  RecentOutcome get(String job) {
    for (int i = count - 1; i >= 0; i--) {
      RecentOutcome entry = entries[at(i)];
      if (entry.job().equals(job)) {
        return entry;
      }
    }
    return null;
  }

  /**
   * Remembers {@code entry}, forgetting the oldest to make room; {@code forgotten}, when not null,
   * hears the id of each, oldest first.
   */
  void add(RecentOutcome entry, Consumer<String> forgotten) {
    append(entry);
    trim(forgotten);
  }

  /**
   * Forgets the oldest entries beyond the limits (after {@link #add}, or once a pool recovered
   * under smaller ones); {@code forgotten}, when not null, hears the id of each, oldest first.
   */
  void trim(Consumer<String> forgotten) {
    while (count > limits.capacity() || bytes > limits.maxBytes()) {
      if (forgotten != null) {
        forgotten.accept(entries[head].job());
      }
      bytes -= sizes[head];
      entries[head] = null;
      head = (head + 1) & (entries.length - 1);
      count--;
    }
  }

  /** Puts a recovered entry back (A3 in docs/rules.md), oldest first, without forgetting any. */
  void restore(RecentOutcome entry) {
    append(entry);
  }

  private void append(RecentOutcome entry) {
    if (count == entries.length) {
      grow();
    }
    int tail = at(count);
    entries[tail] = entry;
    sizes[tail] = entry.bytes();
    count++;
    bytes += entry.bytes();
  }

  /** The remembered answers, oldest first. */
  List<RecentOutcome> all() {
    List<RecentOutcome> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(entries[at(i)]);
    }
    return out;
  }

  private int at(int i) {
    return (head + i) & (entries.length - 1);
  }

  /** Doubles the arrays (their length stays a power of two), the oldest entry first. */
  private void grow() {
    RecentOutcome[] moreEntries = new RecentOutcome[entries.length * 2];
    long[] moreSizes = new long[sizes.length * 2];
    for (int i = 0; i < count; i++) {
      moreEntries[i] = entries[at(i)];
      moreSizes[i] = sizes[at(i)];
    }
    entries = moreEntries;
    sizes = moreSizes;
    head = 0;
  }
}
