package dev.shepherd.runtime;

import dev.shepherd.core.JobSettings;
import dev.shepherd.core.Pool;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.coordinator.Coordinator;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Test hooks for pools coordinated in this JVM, for tests of other packages: a pool verticle
 * whose job rules (section 10) are set in code, and queries of a local coordinator's pool (J5
 * dead letters, J6 lookups), run on the coordinator's context as the pool's own handlers run.
 */
public final class PoolProbe {
  private PoolProbe() {}

  /** A pool verticle that runs its configuration with {@code jobs} as its job rules. */
  public static PoolVerticle withJobs(JobSettings jobs) {
    return new PoolVerticle(c -> c.withSettings(c.settings().withJobs(jobs)));
  }

  /** Whether {@code vertx} coordinates {@code pool} now (an HA pool: whether it leads it). */
  public static boolean coordinates(Vertx vertx, String pool) {
    return LocalPools.find(vertx, pool) != null;
  }

  /** The term {@code vertx} coordinates {@code pool} in; -1 when it does not coordinate it. */
  public static long term(Vertx vertx, String pool) {
    Coordinator coordinator = LocalPools.find(vertx, pool);
    return coordinator == null ? -1 : coordinator.term();
  }

  /** {@code query} of the pool {@code vertx} coordinates, on the coordinator's context. */
  public static <T> T query(Vertx vertx, String pool, Function<Pool, T> query) {
    Coordinator coordinator = LocalPools.find(vertx, pool);
    if (coordinator == null) {
      throw new AssertionError("pool " + pool + " is not coordinated here");
    }
    CompletableFuture<T> answer = new CompletableFuture<>();
    coordinator.execute(() -> {
      try {
        answer.complete(query.apply(coordinator.pool()));
      } catch (RuntimeException | AssertionError e) {
        answer.completeExceptionally(e);
      }
    });
    try {
      return answer.get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("the query of pool " + pool + " did not answer", e);
    }
  }
}
