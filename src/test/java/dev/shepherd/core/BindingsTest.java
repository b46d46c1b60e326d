package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two idle lists of affinity bindings (P4, P5 in docs/rules.md): a key with no job joins the
 * list of how it was bound, each list forgets its own least recently used beyond its limit, and
 * every forgotten key is counted and heard.
 */
class BindingsTest {
  private final List<String> forgotten = new ArrayList<>();
  private final Bindings bindings = new Bindings(new PoolLimits(Long.MAX_VALUE, 2, 1),
      new Bindings.Recorder() {
        @Override
        public void bound(String key, Slot slot, boolean rebalanced) {}

        @Override
        public void forgotten(String key) {
          BindingsTest.this.forgotten.add(key);
        }
      });
  private final Slot slot = new Slot("w-0", 0, 1, null);

  private void oneJob(String key) {
    bindings.jobAccepted(key, slot);
    bindings.jobReleased(key);
  }

  @Test
  void P4_P5_each_idle_list_keeps_its_own_limit_and_forgets_its_oldest_counted() {
    oneJob("a");
    oneJob("b");
    bindings.rebalance("r1", slot);
    assertThat(bindings.size()).isEqualTo(3);
    assertThat(forgotten).as("two selected and one rebalanced fit").isEmpty();
    oneJob("c");
    assertThat(forgotten).containsExactly("a");
    bindings.rebalance("r2", slot);
    assertThat(forgotten).containsExactly("a", "r1");
    assertThat(bindings.forgotten()).isEqualTo(2);
    assertThat(bindings.made()).isEqualTo(5);
    assertThat(bindings.size()).isEqualTo(3);
    assertThat(bindings.slotOf("a")).isNull();
    assertThat(bindings.slotOf("b")).isSameAs(slot);
    assertThat(bindings.idleOrder()).isEqualTo("selected=[b c ] rebalanced=[r2 ] made=5 forgotten=2");
  }

  @Test
  void P4_releasing_a_job_the_pool_did_not_hold_is_a_broken_invariant() {
    assertThatThrownBy(() -> bindings.jobReleased("never")).isInstanceOf(IllegalStateException.class);
    oneJob("a");
    assertThatThrownBy(() -> bindings.jobReleased("a")).isInstanceOf(IllegalStateException.class);
    assertThat(bindings.jobsOf("a")).isZero();
  }
}
