package dev.shepherd.runtime.ha;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A3: a standby loads the classes a takeover uses before it takes over; it finds them where
 * Shepherd's classes come from, and only those of the core, runtime and cluster packages.
 */
class TakeoverClassesTest {
  @Test
  void A3_a_standby_loads_the_core_runtime_and_cluster_classes_a_takeover_uses() {
    assertThat(TakeoverClasses.names())
        .contains("dev.shepherd.runtime.coordinator.Coordinator",
            "dev.shepherd.core.Pool", "dev.shepherd.cluster.ha.HazelcastLeadership")
        .noneMatch(name -> name.startsWith("dev.shepherd.bench.")
            || name.startsWith("dev.shepherd.demo.") || name.startsWith("dev.shepherd.app.")
            || name.endsWith("package-info"));
    assertThat(TakeoverClasses.load(TakeoverClassesTest.class.getClassLoader()))
        .isEqualTo(TakeoverClasses.names().size());
  }
}
