package dev.shepherd.cluster.directory;

import dev.shepherd.runtime.access.PoolAnnouncement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pools other nodes announced ({@link PoolAnnouncement}) and are still heard from: a pool is
 * listed from its first announcement until it is announced gone, its node leaves the cluster, or
 * its announcements stop for {@link PoolAnnouncement#silenceLimitMs()}. Should two nodes announce
 * the same pool, it is listed once, from the node heard first (a second coordinator of one name
 * is a mistake of configuration; the other is listed again if the first goes). A highly
 * available pool that goes is kept as {@linkplain #leaderless() leaderless} for {@link
 * #TAKEOVER_WAIT_MS}, or until it is announced again: a standby is expected to take it over.
 * Time comes in with each call; not thread-safe (its owner confines it to one context).
 */
final class AnnouncedPools {
  /**
   * How long a highly available pool that went is waited for: longer than a takeover after a
   * hung leader (about 7 s: 5 s until Hazelcast removes the member, then the claim).
   */
  static final long TAKEOVER_WAIT_MS = 15_000;

  /** One pool as announced by one node, and when it was last heard. */
  record Entry(String pool, String prefix, String node, long heardAt, long silenceLimitMs,
      boolean ha) {
    boolean silentAt(long now) {
      return now - heardAt > silenceLimitMs;
    }
  }

  /** A highly available pool that no node announces now, since {@code since}. */
  record Leaderless(String pool, String prefix, long since) {}

  /** Pool name, then node (in the order first heard), to its latest announcement. */
  private final Map<String, LinkedHashMap<String, Entry>> pools = new LinkedHashMap<>();
  /** Highly available pools that went, by name, while they are waited for. */
  private final Map<String, Leaderless> leaderless = new LinkedHashMap<>();

  /**
   * Takes an announcement heard at {@code now}; true when what {@link #listed()} answers changed
   * (a pool appeared, went, or moved).
   */
  boolean heard(PoolAnnouncement announcement, long now) {
    if (announcement.gone()) {
      return gone(announcement.pool(), announcement.node(), now);
    }
    List<Entry> before = listed();
    boolean waited = leaderless.remove(announcement.pool()) != null;
    pools.computeIfAbsent(announcement.pool(), name -> new LinkedHashMap<>())
        .put(announcement.node(), new Entry(announcement.pool(), announcement.prefix(),
            announcement.node(), now, announcement.silenceLimitMs(), announcement.ha()));
    return changed(before) || waited;
  }

  /** {@code node} said its pool {@code pool} has stopped; at {@code now}. */
  boolean gone(String pool, String node, long now) {
    List<Entry> before = listed();
    Map<String, Entry> nodes = pools.get(pool);
    if (nodes != null) {
      Entry went = nodes.remove(node);
      if (nodes.isEmpty()) {
        pools.remove(pool);
        waitFor(went, now);
      }
    }
    return changed(before);
  }

  /** {@code node} left the cluster at {@code now}: every pool it announced goes. */
  boolean nodeLeft(String node, long now) {
    return removeIf(entry -> entry.node().equals(node), now);
  }

  /**
   * Forgets what has been silent too long at {@code now}, and the leaderless pools waited for
   * long enough.
   */
  boolean expire(long now) {
    boolean waitedOut = leaderless.values()
        .removeIf(pool -> now - pool.since() > TAKEOVER_WAIT_MS);
    return removeIf(entry -> entry.silentAt(now), now) || waitedOut;
  }

  /** The highly available pools that went and are waited for, by the order they went. */
  List<Leaderless> leaderless() {
    return List.copyOf(leaderless.values());
  }

  private void waitFor(Entry went, long now) {
    if (went != null && went.ha()) {
      leaderless.put(went.pool(), new Leaderless(went.pool(), went.prefix(), now));
    }
  }

  /** One entry per pool, by the order pools were first heard. */
  List<Entry> listed() {
    List<Entry> out = new ArrayList<>(pools.size());
    for (LinkedHashMap<String, Entry> nodes : pools.values()) {
      out.add(nodes.values().iterator().next());
    }
    return out;
  }

  private boolean removeIf(java.util.function.Predicate<Entry> drop, long now) {
    List<Entry> before = listed();
    for (Iterator<LinkedHashMap<String, Entry>> it = pools.values().iterator(); it.hasNext(); ) {
      LinkedHashMap<String, Entry> nodes = it.next();
      Entry first = nodes.values().iterator().next();
      nodes.values().removeIf(drop);
      if (nodes.isEmpty()) {
        it.remove();
        waitFor(first, now);
      }
    }
    return changed(before);
  }

  /** Whether the listed pools differ from {@code before} in anything but when they were heard. */
  private boolean changed(List<Entry> before) {
    List<Entry> after = listed();
    if (before.size() != after.size()) {
      return true;
    }
    for (int i = 0; i < before.size(); i++) {
      Entry a = before.get(i);
      Entry b = after.get(i);
      if (!a.pool().equals(b.pool()) || !a.prefix().equals(b.prefix())
          || !a.node().equals(b.node())) {
        return true;
      }
    }
    return false;
  }
}
