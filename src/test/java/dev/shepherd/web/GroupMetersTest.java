package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Counters;
import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.PoolState;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * F1 (docs/rules.md): per-group meters keep a bounded label set however many groups a pool has.
 * 10^4 tenants pass through a pool whose status lists the busiest 20: the registry never holds
 * more than 21 {@code group} labels per meter (the listed groups and {@code other}), and {@code
 * other} sums every job outside the listed groups, so the totals stay right.
 */
class GroupMetersTest {
  private static final int BUSIEST = 20;

  private static PoolSnapshot snapshot(List<PoolSnapshot.GroupStatus> groups, int running,
      int queued, int groupCount) {
    List<PoolSnapshot.SlotStatus> slots = List.of(new PoolSnapshot.SlotStatus("w-0",
        Phase.ASSIGNED, running, running, List.of(), 1, 0, null, null, null));
    return new PoolSnapshot("p", PoolState.RUNNING, queued, 100_000, slots,
        new Counters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 0, 5, 10_000, List.of(), null,
        0, null, 0, false, null, groups, groupCount);
  }

  private static Set<String> labels(SimpleMeterRegistry registry, String name) {
    Set<String> groups = new TreeSet<>();
    for (Meter m : registry.find(name).meters()) {
      groups.add(m.getId().getTag("group"));
    }
    return groups;
  }

  @Test
  void F1_ten_thousand_groups_never_make_more_than_the_busiest_and_other() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    GroupMeters meters = new GroupMeters(registry, "p", PoolMeters.HERE);
    int tenants = 10_000;
    for (int round = 0; round < tenants / BUSIEST; round++) {
      List<PoolSnapshot.GroupStatus> busiest = new ArrayList<>();
      for (int i = 0; i < BUSIEST; i++) {
        busiest.add(new PoolSnapshot.GroupStatus("tenant-" + (round * BUSIEST + i), 1, 2, 0, 0,
            1, null, false, null, null));
      }
      meters.update(snapshot(busiest, BUSIEST + 7, 2 * BUSIEST + 50, tenants));

      assertThat(labels(registry, "shepherd.group.running")).hasSize(BUSIEST + 1)
          .contains(GroupMeters.OTHER, "tenant-" + round * BUSIEST);
      assertThat(labels(registry, "shepherd.group.queued")).hasSize(BUSIEST + 1);
      assertThat(meters.series()).isEqualTo(BUSIEST + 1);
    }
    assertThat(registry.get("shepherd.group.running").tag("group", GroupMeters.OTHER).gauge()
        .value()).as("running jobs outside the listed groups").isEqualTo(7);
    assertThat(registry.get("shepherd.group.queued").tag("group", GroupMeters.OTHER).gauge()
        .value()).isEqualTo(50);
    assertThat(registry.get("shepherd.group.queued").tag("group", "tenant-9999").gauge().value())
        .isEqualTo(2);

    meters.close();
    assertThat(registry.find("shepherd.group.running").meters()).isEmpty();
  }

  @Test
  void F1_a_pool_without_groups_has_only_other() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    GroupMeters meters = new GroupMeters(registry, "p", PoolMeters.HERE);
    meters.update(snapshot(List.of(), 3, 4, 0));
    assertThat(labels(registry, "shepherd.group.running")).containsExactly(GroupMeters.OTHER);
    assertThat(registry.get("shepherd.group.running").gauge().value()).isEqualTo(3);
  }

  @Test
  void F1_a_configured_group_outside_the_busiest_keeps_its_own_series() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    GroupMeters meters = new GroupMeters(registry, "p", PoolMeters.HERE);
    List<PoolSnapshot.GroupStatus> busiest = List.of(new PoolSnapshot.GroupStatus("tenant-1", 3, 4,
        0, 0, 1, null, false, null, null));
    List<PoolSnapshot.GroupStatus> configured = List.of(new PoolSnapshot.GroupStatus("billing", 1,
        2, 2, 0, 1, null, false, null, null));

    meters.update(snapshot(busiest, 5, 10, 3), configured);

    assertThat(labels(registry, "shepherd.group.running"))
        .containsExactly("billing", GroupMeters.OTHER, "tenant-1");
    assertThat(registry.get("shepherd.group.running").tag("group", "billing").gauge().value())
        .isEqualTo(1);
    assertThat(registry.get("shepherd.group.queued").tag("group", GroupMeters.OTHER).gauge()
        .value()).as("other: 10 queued less tenant-1's 4 and billing's 2").isEqualTo(4);
    assertThat(registry.get("shepherd.group.running").tag("group", GroupMeters.OTHER).gauge()
        .value()).isEqualTo(1);

    meters.update(snapshot(busiest, 3, 4, 2), List.of());
    assertThat(labels(registry, "shepherd.group.running")).containsExactly(GroupMeters.OTHER,
        "tenant-1");
  }
}
