package dev.shepherd.runtime.access;

import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The highly available pools this Vert.x instance lists and stands by for (A1 in docs/rules.md), by
 * name, with their addresses: while no node leads such a pool (a failover under way, or too few
 * members for a majority), the web layer still knows that the pool exists and waits for a leader,
 * or answers {@code 503 NO_LEADER}, rather than calling it unknown.
 */
public final class Standbys {
  private static final Map<Vertx, Map<String, Addresses>> POOLS = new ConcurrentHashMap<>();

  private Standbys() {}

  public static void add(Vertx vertx, String pool, Addresses addresses) {
    POOLS.computeIfAbsent(vertx, v -> new ConcurrentHashMap<>()).put(pool, addresses);
  }

  public static void remove(Vertx vertx, String pool) {
    Map<String, Addresses> pools = POOLS.get(vertx);
    if (pools != null) {
      pools.remove(pool);
      if (pools.isEmpty()) {
        POOLS.remove(vertx, pools);
      }
    }
  }

  /** The addresses of the HA pool {@code pool} if this instance stands by for it, else null. */
  public static Addresses find(Vertx vertx, String pool) {
    Map<String, Addresses> pools = POOLS.get(vertx);
    return pools == null ? null : pools.get(pool);
  }

  /** Every HA pool this instance stands by for, with its addresses. */
  public static Map<String, Addresses> all(Vertx vertx) {
    Map<String, Addresses> pools = POOLS.get(vertx);
    return pools == null ? Map.of() : Map.copyOf(pools);
  }
}
