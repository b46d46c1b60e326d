package dev.shepherd.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Accepted, unanswered jobs by id (P15 (docs/rules.md) duplicates, P17 cancel). Caller-chosen ids
 * live in a hash map. Generated ids ({@code job-N}) live in a ring indexed by {@code N}: they are
 * made in order and mostly answered in order, so at a long backlog answering one touches the ring
 * near its head instead of a cold map node and id string (the cost that otherwise dominates a cycle
 * at a backlog of a million). Before an add would make the ring long and mostly empty (a
 * straggler holding it open, or a recovered id far past the others), the jobs it holds move to the
 * map.
 */
final class JobTable {
  static final String PREFIX = "job-";
  private static final int MIN_COMPACT_SPAN = 1024;

  private final Map<String, Job> named = new HashMap<>();
  private Job[] ring = new Job[16];
  /** The generated number at ring position {@link #start}. */
  private long first = 1;
  private int start;
  /** Positions from {@link #first} that may hold jobs (gaps are nulls). */
  private int span;
  private int ringLive;
  private long nextNumber = 1;

  int size() {
    return named.size() + ringLive;
  }

  /** Positions the ring has room for: its memory, which only a test reads. */
  int ringCapacity() {
    return ring.length;
  }

  /** Jobs held in the ring, the rest being in the map; only a test reads it. */
  int inRing() {
    return ringLive;
  }

  Job get(String id) {
    Job job = named.get(id);
    if (job != null) {
      return job;
    }
    long number = generatedNumber(id);
    return number > 0 ? ringGet(number) : null;
  }

  boolean contains(String id) {
    return get(id) != null;
  }

  /** Reserves the next generated number whose id no caller has taken. */
  long nextGenerated() {
    long number;
    do {
      number = nextNumber++;
    } while (!named.isEmpty() && named.containsKey(PREFIX + number));
    return number;
  }

  /** After a recovery: generated numbers continue past {@code number} (A3 in docs/rules.md). */
  void continueAfter(long number) {
    nextNumber = Math.max(nextNumber, number + 1);
  }

  long generatedSoFar() {
    return nextNumber - 1;
  }

  void add(Job job) {
    if (job.generated > 0) {
      ringAdd(job);
    } else {
      named.put(job.id, job);
    }
  }

  /** Removes exactly this job, if present. */
  void remove(Job job) {
    if (job.generated >= first && job.generated < first + span
        && ring[position(job.generated)] == job) {
      ring[position(job.generated)] = null;
      ringLive--;
      while (span > 0 && ring[start] == null) {
        start = (start + 1) & (ring.length - 1);
        first++;
        span--;
      }
    } else {
      named.remove(job.id, job);
    }
  }

  /** Every job, in no particular order (for invariants and tests). */
  List<Job> values() {
    List<Job> all = new ArrayList<>(named.values());
    for (int i = 0; i < span; i++) {
      Job job = ring[(start + i) & (ring.length - 1)];
      if (job != null) {
        all.add(job);
      }
    }
    return all;
  }

  /** The {@code N} of a canonical {@code job-N} (no sign, no leading zero), or 0. */
  static long generatedNumber(String id) {
    int length = id.length();
    if (length <= PREFIX.length() || length > PREFIX.length() + 18 || !id.startsWith(PREFIX)
        || id.charAt(PREFIX.length()) == '0') {
      return 0;
    }
    long number = 0;
    for (int i = PREFIX.length(); i < length; i++) {
      char c = id.charAt(i);
      if (c < '0' || c > '9') {
        return 0;
      }
      number = number * 10 + (c - '0');
    }
    return number;
  }

  private Job ringGet(long number) {
    if (number < first || number >= first + span) {
      return null;
    }
    return ring[position(number)];
  }

  private int position(long number) {
    return (int) ((start + (number - first)) & (ring.length - 1));
  }

  private void ringAdd(Job job) {
    if (span > 0) {
      // The span this add would make, not the one before it: a recovery adds a far straggler's
      // successors in one step, and a ring must not grow to reach them.
      long after = job.generated - first + 1;
      if (after > MIN_COMPACT_SPAN && after > 4L * (ringLive + 1)) {
        compact();
      }
    }
    if (span == 0) {
      first = job.generated;
      start = 0;
    }
    long needed = job.generated - first + 1;
    if (needed > ring.length) {
      grow(needed);
    }
    span = (int) needed;
    ring[position(job.generated)] = job;
    ringLive++;
  }

  /** A few stragglers hold a long, mostly empty ring open: they move to the map. */
  private void compact() {
    for (int i = 0; i < span; i++) {
      int at = (start + i) & (ring.length - 1);
      if (ring[at] != null) {
        named.put(ring[at].id, ring[at]);
        ring[at] = null;
      }
    }
    ringLive = 0;
    span = 0;
  }

  private void grow(long needed) {
    if (needed > (1 << 30)) {
      throw new IllegalStateException("generated-id ring cannot hold " + needed + " positions");
    }
    int capacity = ring.length;
    while (capacity < needed) {
      capacity *= 2;
    }
    Job[] bigger = new Job[capacity];
    for (int i = 0; i < span; i++) {
      bigger[i] = ring[(start + i) & (ring.length - 1)];
    }
    ring = bigger;
    start = 0;
  }
}
