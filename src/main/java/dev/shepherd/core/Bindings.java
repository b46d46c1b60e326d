package dev.shepherd.core;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Affinity bindings, key to slot (P4, P5 in docs/rules.md), bounded in memory (see {@link
 * PoolLimits}).
 *
 * <p>A binding counts the jobs of its key that the pool holds (queued or running). While that
 * count is above zero the binding is in use and never forgotten. When it drops to zero the
 * binding joins the tail of one of two least-recently-used lists: bindings chosen by the selector,
 * and bindings an operator set by rebalance. Each list keeps at most its limit; the head beyond
 * it is forgotten. Every operation is O(1).
 */
final class Bindings {
  /** One key's binding; also a node of an idle list while its key has no job. */
  static final class Binding {
    final String key;
    Slot slot;
    /** Jobs of this key the pool holds, queued or running. */
    int jobs;
    /** Set by a rebalance: idle, it waits in the rebalanced list. */
    boolean rebalanced;
    Binding prev;
    Binding next;
    IdleList list;

    Binding(String key, Slot slot) {
      this.key = key;
      this.slot = slot;
    }
  }

  /** An intrusive doubly linked list of idle bindings, least recently used first. */
  static final class IdleList {
    private Binding head;
    private Binding tail;
    private int size;

    void append(Binding b) {
      b.list = this;
      b.prev = tail;
      b.next = null;
      if (tail == null) {
        head = b;
      } else {
        tail.next = b;
      }
      tail = b;
      size++;
    }

    void unlink(Binding b) {
      if (b.prev == null) {
        head = b.next;
      } else {
        b.prev.next = b.next;
      }
      if (b.next == null) {
        tail = b.prev;
      } else {
        b.next.prev = b.prev;
      }
      b.prev = null;
      b.next = null;
      b.list = null;
      size--;
    }

    int size() {
      return size;
    }
  }

  /** Hears every binding made or moved, and every one forgotten (a durable pool records them). */
  interface Recorder {
    void bound(String key, Slot slot, boolean rebalanced);

    void forgotten(String key);
  }

  private final Map<String, Binding> byKey = new HashMap<>();
  private final Recorder recorder;
  private final IdleList selected = new IdleList();
  private final IdleList rebalanced = new IdleList();
  private final int maxSelected;
  private final int maxRebalanced;
  /** Bindings ever made, by the selector or by rebalance (ROUND_ROBIN reads it). */
  private long made;
  /** Idle bindings forgotten so far. */
  private long forgotten;

  Bindings(PoolLimits limits, Recorder recorder) {
    this.maxSelected = limits.maxIdleKeys();
    this.maxRebalanced = limits.maxRebalancedKeys();
    this.recorder = recorder;
  }

  /** The slot {@code key} is bound to, or null when the key is unseen (or forgotten). */
  Slot slotOf(String key) {
    Binding b = byKey.get(key);
    return b == null ? null : b.slot;
  }

  /** A job of {@code key} was accepted with target {@code slot}; binds an unseen key to it. */
  void jobAccepted(String key, Slot slot) {
    boolean unseen = !byKey.containsKey(key);
    inUse(key, slot).jobs++;
    if (unseen) {
      recorder.bound(key, slot, false);
    }
  }

  /**
   * A binding rebuilt from a durable image (A3 in docs/rules.md): made, not recorded again, and not
   * yet idle; {@link #idleRestored} puts the ones without a job on their idle lists.
   */
  void restore(String key, Slot slot, boolean rebalanced) {
    Binding b = inUse(key, slot);
    b.slot = slot;
    b.rebalanced = rebalanced;
  }

  /** After a recovery: every binding whose key has no job becomes idle, in key order. */
  void idleRestored() {
    for (Binding b : new TreeMap<>(byKey).values()) {
      if (b.jobs == 0 && b.list == null && byKey.get(b.key) == b) {
        idle(b);
      }
    }
  }

  /** A job of {@code key} left the pool (answered, and off its slot). */
  void jobReleased(String key) {
    Binding b = byKey.get(key);
    if (b == null || b.jobs <= 0) {
      throw new IllegalStateException("released a job of key '" + key + "' the pool did not hold");
    }
    if (--b.jobs == 0) {
      idle(b);
    }
  }

  /** P5 (docs/rules.md): binds {@code key} to {@code slot} for later submissions. */
  void rebalance(String key, Slot slot) {
    Binding b = inUse(key, slot);
    b.slot = slot;
    b.rebalanced = true;
    recorder.bound(key, slot, true);
    if (b.jobs == 0) {
      idle(b);
    }
  }

  /** F6 (docs/rules.md): the keys bound to {@code slot}, in key order. O(bindings). */
  java.util.List<String> keysOf(Slot slot) {
    java.util.List<String> keys = new java.util.ArrayList<>();
    for (Binding b : byKey.values()) {
      if (b.slot == slot) {
        keys.add(b.key);
      }
    }
    keys.sort(null);
    return keys;
  }

  /**
   * F6 (docs/rules.md): the bound {@code key} moves to {@code slot} because its slot leaves the
   * pool, as a rebalance moves it, keeping its kind (chosen by the selector or by an operator) and
   * its place among the idle.
   */
  void move(String key, Slot slot) {
    Binding b = byKey.get(key);
    b.slot = slot;
    recorder.bound(key, slot, b.rebalanced);
  }

  /** The binding of {@code key}, made (to {@code slot}) if unseen, taken off any idle list. */
  private Binding inUse(String key, Slot slot) {
    Binding b = byKey.get(key);
    if (b == null) {
      b = new Binding(key, slot);
      byKey.put(key, b);
      made++;
    } else if (b.list != null) {
      b.list.unlink(b);
    }
    return b;
  }

  private void idle(Binding b) {
    IdleList list = b.rebalanced ? rebalanced : selected;
    list.append(b);
    int max = b.rebalanced ? maxRebalanced : maxSelected;
    while (list.size() > max) {
      Binding oldest = list.head;
      list.unlink(oldest);
      byKey.remove(oldest.key);
      forgotten++;
      recorder.forgotten(oldest.key);
    }
  }

  long made() {
    return made;
  }

  long forgotten() {
    return forgotten;
  }

  int size() {
    return byKey.size();
  }

  /** Jobs of {@code key} the pool holds, as counted; for invariants. */
  int jobsOf(String key) {
    Binding b = byKey.get(key);
    return b == null ? 0 : b.jobs;
  }

  /** Every binding by key, for fingerprints and invariants. */
  TreeMap<String, Binding> sorted() {
    return new TreeMap<>(byKey);
  }

  /** Idle bindings in each list, least recently used first, for fingerprints. */
  String idleOrder() {
    StringBuilder out = new StringBuilder("selected=[");
    for (Binding b = selected.head; b != null; b = b.next) {
      out.append(b.key).append(' ');
    }
    out.append("] rebalanced=[");
    for (Binding b = rebalanced.head; b != null; b = b.next) {
      out.append(b.key).append(' ');
    }
    return out.append("] made=").append(made).append(" forgotten=").append(forgotten).toString();
  }
}
