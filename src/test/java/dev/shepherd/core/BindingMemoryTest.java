package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Key bindings stay bounded (PoolLimits): 100,000 distinct keys through keyed submits and
 * 100,000 through rebalances leave at most the two idle limits behind. Measured as retained heap
 * after full collections; the bound is generous, since the difference it guards against is ten
 * times larger (about 70 MB for 200,000 remembered keys).
 */
@Isolated
class BindingMemoryTest {
  private static final int KEYS = 100_000;
  /** Retained bytes per remembered key, generously: docs/limits.md documents about 350 B. */
  private static final long BYTES_PER_KEY = 600;

  @Test
  void P4_P5_a_flood_of_distinct_keys_retains_only_the_idle_limits() {
    Pool pool = Pool.create(PoolSettings.defaults("memory", 4));
    pool.start();
    for (int i = 0; i < 4; i++) {
      pool.apply(new PoolEvent.WorkerCreated("w-" + i, 1, 0));
    }
    long before = retainedHeap();
    long now = 0;
    for (int k = 0; k < KEYS; k++) {
      String key = "request-" + k + "-" + Long.toHexString(k * 0x9e3779b97f4a7c15L);
      Transition t = pool.apply(new PoolEvent.Submit(null, "p", key, "r", 0, ++now));
      Effect.Assign assign = (Effect.Assign) t.effects().stream()
          .filter(Effect.Assign.class::isInstance).findFirst().orElseThrow();
      pool.apply(new PoolEvent.Completed(assign.worker(), assign.assignment(), "ok", null, now));
      pool.apply(new PoolEvent.Rebalance("moved-" + key, "w-" + (k % 4), now));
    }
    long after = retainedHeap();
    long bound = (long) (PoolLimits.DEFAULT.maxIdleKeys() + PoolLimits.DEFAULT.maxRebalancedKeys())
        * BYTES_PER_KEY;
    System.out.printf("bindings: %d keys submitted and %d rebalanced retain %d bytes (bound %d)%n",
        KEYS, KEYS, after - before, bound);
    assertThat(after - before).isLessThan(bound);
    assertThat(pool.binding("moved-request-" + (KEYS - 1) + "-"
        + Long.toHexString((KEYS - 1) * 0x9e3779b97f4a7c15L))).isNotNull();
    assertThat(pool.binding("moved-request-0-0")).isNull();
    PoolInvariants.check(pool);
  }

  private static long retainedHeap() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
