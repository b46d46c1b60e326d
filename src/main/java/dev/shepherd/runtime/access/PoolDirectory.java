package dev.shepherd.runtime.access;

import io.vertx.core.Vertx;
import java.util.List;

/**
 * Where the pools are: every pool a node can serve, each as a {@link PoolHandle}. On a single
 * Vert.x instance that is the pools it runs ({@link #local}); in a cluster, every pool of the
 * cluster wherever its coordinator runs (the cluster's implementation lives with the cluster
 * code). A pool coordinated here is always reached through its in-JVM handle. Callable from any
 * thread.
 */
public interface PoolDirectory {

  /** The pool named {@code name}, or null when no pool of that name is known. */
  PoolHandle find(String name);

  /** The pool whose address prefix is {@code prefix}, or null. */
  PoolHandle byPrefix(String prefix);

  /** Every known pool, by name. */
  List<PoolHandle> pools();

  /** The pools of {@code vertx} alone (a node that is not clustered). */
  static PoolDirectory local(Vertx vertx) {
    return new LocalDirectory(vertx);
  }
}
