package dev.shepherd.runtime.access;

import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.coordinator.Coordinator;
import io.vertx.core.Vertx;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The coordinators running in this JVM, per Vert.x instance, so an in-JVM {@link PoolClient}, the
 * web layer and metrics can reach a pool without the event bus.
 */
public final class LocalPools {
  private static final Map<Vertx, Map<String, Coordinator>> POOLS = new ConcurrentHashMap<>();
  /**
   * Each registered coordinator's in-JVM handle, made here rather than by the coordinator: the
   * coordinator knows nothing of how it is reached (the access package depends on the
   * coordinator's, not the other way).
   */
  private static final Map<Coordinator, PoolHandle> HANDLES = new ConcurrentHashMap<>();
  /**
   * Moves on after every registration and unregistration, once the maps changed: a caller that
   * read it before looking a pool up, and reads the same value again, may keep what it found.
   */
  private static final AtomicLong GENERATION = new AtomicLong();

  private LocalPools() {}

  /** The registry's generation ({@link #GENERATION}). */
  public static long generation() {
    return GENERATION.get();
  }

  public static void register(Vertx vertx, Coordinator coordinator) {
    Map<String, Coordinator> pools = POOLS.computeIfAbsent(vertx, v -> new ConcurrentHashMap<>());
    if (pools.putIfAbsent(coordinator.name(), coordinator) != null) {
      throw new IllegalStateException("a pool named '" + coordinator.name()
          + "' is already deployed in this Vert.x instance");
    }
    HANDLES.put(coordinator, new LocalPoolHandle(coordinator));
    GENERATION.incrementAndGet();
  }

  public static void unregister(Vertx vertx, Coordinator coordinator) {
    Map<String, Coordinator> pools = POOLS.get(vertx);
    if (pools != null) {
      if (pools.remove(coordinator.name(), coordinator)) {
        HANDLES.remove(coordinator);
      }
      if (pools.isEmpty()) {
        POOLS.remove(vertx, pools);
      }
    }
    GENERATION.incrementAndGet();
  }

  /** The coordinator of {@code pool} in this Vert.x instance, or null. */
  public static Coordinator find(Vertx vertx, String pool) {
    Map<String, Coordinator> pools = POOLS.get(vertx);
    return pools == null ? null : pools.get(pool);
  }

  /** The in-JVM handle on {@code pool} in this Vert.x instance, or null. */
  public static PoolHandle handle(Vertx vertx, String pool) {
    Coordinator coordinator = find(vertx, pool);
    return coordinator == null ? null : HANDLES.get(coordinator);
  }

  /** The handles on every pool of this Vert.x instance. */
  public static List<PoolHandle> handles(Vertx vertx) {
    return all(vertx).stream().map(HANDLES::get).filter(Objects::nonNull).toList();
  }

  /** Every coordinator of this Vert.x instance. */
  public static Collection<Coordinator> all(Vertx vertx) {
    Map<String, Coordinator> pools = POOLS.get(vertx);
    return pools == null ? List.of() : List.copyOf(pools.values());
  }
}
