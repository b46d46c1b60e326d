package dev.shepherd.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The dead-letter set (J5 in docs/rules.md): jobs that will not run again by themselves, by id,
 * oldest first, bounded in count and payload bytes; the oldest are evicted (and counted) to make
 * room. A job kept again replaces its earlier entry.
 */
final class DeadLetters {
  private final KeptByAge<DeadLetter> kept;
  private long evicted;

  DeadLetters(Retention limits) {
    this.kept = new KeptByAge<>(limits, DeadLetter::bytes);
  }

  boolean enabled() {
    return kept.enabled();
  }

  int size() {
    return kept.size();
  }

  long bytes() {
    return kept.bytes();
  }

  long evicted() {
    return evicted;
  }

  /** T3 (docs/rules.md): a recovered pool's count of evictions continues its predecessor's. */
  void continueEvicted(long count) {
    evicted = count;
  }

  DeadLetter get(String job) {
    return kept.get(job);
  }

  /** Keeps {@code entry}; returns the ids evicted to make room, oldest first (maybe its own). */
  List<String> add(DeadLetter entry) {
    List<String> out = kept.add(entry.job(), entry);
    evicted += out.size();
    return out;
  }

  /** Puts a recovered entry back (A3 in docs/rules.md), without evicting. */
  void restore(DeadLetter entry) {
    kept.restore(entry.job(), entry);
  }

  /**
   * Evicts (and counts) the oldest entries beyond the limits, as a pool recovered under smaller
   * ones must; returns their ids, oldest first.
   */
  List<String> trim() {
    List<String> out = kept.trim();
    evicted += out.size();
    return out;
  }

  void remove(String job) {
    kept.remove(job);
  }

  /** Oldest first. */
  List<DeadLetter> all() {
    return kept.all();
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
