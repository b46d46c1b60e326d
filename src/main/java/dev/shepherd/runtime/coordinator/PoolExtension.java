package dev.shepherd.runtime.coordinator;

import dev.shepherd.runtime.PoolVerticle;
import io.vertx.core.Future;

/**
 * Something a {@link PoolVerticle} runs beside its coordinator, found with {@link
 * java.util.ServiceLoader} (one new instance per pool): the cluster package's worker-host support
 * is one. It sees the pool as a {@link HostedPool} only: it may add slot handles, consume
 * addresses of its own and feed the pool facts, always on the coordinator's context.
 */
public interface PoolExtension {

  /** Coordinator's context, after the pool's own addresses and before its first deployment. */
  Future<Void> start(HostedPool pool);

  /** Coordinator's context, once the pool has stopped (every job answered). */
  Future<Void> stop();
}
