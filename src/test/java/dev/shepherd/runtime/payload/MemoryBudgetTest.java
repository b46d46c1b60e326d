package dev.shepherd.runtime.payload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.PoolFixture;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The startup check of the pools' byte budgets against the heap ({@link MemoryBudget}): silent
 * while they fit in half the heap, one line per pool naming the fields and figures when not.
 */
class MemoryBudgetTest {
  private static final long HEAP = 256L << 20;

  private static PoolConfig pool(String name, Long backlogMaxBytes) {
    JsonObject json = PoolFixture.demoPool(name, 2).put("backlogCapacity", 1000);
    if (backlogMaxBytes != null) {
      json.put("backlogMaxBytes", backlogMaxBytes);
    }
    return PoolConfig.parse(json, "");
  }

  @Test
  void budgets_within_half_the_heap_say_nothing_whatever_backlogCapacity_times_maxBodyBytes() {
    // 1000 × 1 MiB of bodies would not fit, but 2 × 32 MiB of budget do.
    assertThat(MemoryBudget.warnings(List.of(pool("a", 32L << 20), pool("b", 32L << 20)),
        1 << 20, HEAP)).isEmpty();
  }

  @Test
  void budgets_beyond_half_the_heap_warn_once_per_pool_naming_fields_and_figures() {
    List<String> lines = MemoryBudget.warnings(
        List.of(pool("a", 100L << 20), pool("b", 100L << 20)), 1 << 20, HEAP);

    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).startsWith("pool a: ").contains("backlogMaxBytes 100.0 MiB")
        .contains("backlogCapacity 1000").contains("http.maxBodyBytes 1.0 MiB")
        .contains("200.4 MiB").contains("256.0 MiB").doesNotContain("\n");
    assertThat(lines.get(1)).startsWith("pool b: ");
  }

  @Test
  void an_unlimited_budget_warns() {
    assertThat(MemoryBudget.warnings(List.of(pool("a", Long.MAX_VALUE)), 1 << 20, HEAP))
        .singleElement().asString().contains("backlogMaxBytes unlimited");
  }

  @Test
  void the_default_budget_of_one_pool_is_an_eighth_of_the_heap_and_fits() {
    PoolConfig defaults = pool("a", null);
    assertThat(defaults.settings().backlogMaxBytes())
        .isEqualTo(Math.max(1L << 20, Runtime.getRuntime().maxMemory() / 8));
    assertThat(MemoryBudget.warnings(List.of(defaults), 1 << 20,
        Runtime.getRuntime().maxMemory())).isEmpty();
  }
}
