package dev.shepherd.runtime;

import io.vertx.core.Future;

/**
 * Something a {@link PoolVerticle} runs beside its coordinator, found with {@link
 * java.util.ServiceLoader} (one new instance per pool): the cluster package's worker-host support
 * is one. It may add slot handles ({@link Coordinator#addSlot}), consume addresses of its own and
 * feed the pool facts ({@link Coordinator#report}), always on the coordinator's context.
 */
public interface PoolExtension {

  /** Coordinator's context, after the pool's own addresses and before its first deployment. */
  Future<Void> start(Coordinator coordinator);

  /** Coordinator's context, once the pool has stopped (every job answered). */
  Future<Void> stop();
}
