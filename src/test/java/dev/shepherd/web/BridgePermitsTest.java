package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.access.BusPoolHandle;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which addresses the bridge lets through: a permitted suffix of a pool the directory knows at
 * the moment of the frame, so pools that appear later pass and pools that left do not.
 */
class BridgePermitsTest {
  private final List<PoolHandle> known = new ArrayList<>();
  private final PoolDirectory directory = new PoolDirectory() {
    @Override
    public PoolHandle find(String name) {
      return known.stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
    }

    @Override
    public PoolHandle byPrefix(String prefix) {
      return known.stream().filter(p -> p.addresses().prefix().equals(prefix)).findFirst()
          .orElse(null);
    }

    @Override
    public List<PoolHandle> pools() {
      return List.copyOf(known);
    }
  };
  private final BridgePermits permits = new BridgePermits(directory, HttpConfig.Bridge.DEFAULT);

  private static PoolHandle pool(String name, String prefix) {
    return new BusPoolHandle(null, name, new Addresses(prefix), "node", 1, 1);
  }

  @Test
  void a_permitted_suffix_of_a_known_pool_passes_in_its_direction_only() {
    known.add(pool("jobs", "shepherd.jobs"));
    known.add(pool("a.b", "custom.prefix.with.dots"));

    assertThat(permits.inbound("shepherd.jobs.submit")).isTrue();
    assertThat(permits.inbound("shepherd.jobs.status")).isTrue();
    assertThat(permits.outbound("shepherd.jobs.events")).isTrue();
    assertThat(permits.inbound("custom.prefix.with.dots.submit")).isTrue();
    assertThat(permits.inbound("shepherd.jobs.events")).isFalse();
    assertThat(permits.outbound("shepherd.jobs.submit")).isFalse();
    assertThat(permits.inbound("shepherd.jobs.cancel")).as("not configured").isFalse();
    assertThat(permits.inbound("shepherd.jobs.completed")).isFalse();
  }

  @Test
  void addresses_of_no_known_pool_are_refused() {
    known.add(pool("jobs", "shepherd.jobs"));

    for (String address : List.of("shepherd.other.submit", "shepherd.submit", "submit",
        ".submit", "shepherd.jobs.", "shepherd.jobs", "shepherd.jobs.submit.x",
        "xshepherd.jobs.submit", "__shepherd.pools.announce", "shepherd.jobs.slot.w-0")) {
      assertThat(permits.inbound(address)).as(address).isFalse();
      assertThat(permits.outbound(address)).as(address).isFalse();
    }
  }

  @Test
  void a_pool_that_appears_later_passes_and_one_that_left_does_not() {
    assertThat(permits.inbound("shepherd.late.submit")).isFalse();

    known.add(pool("late", "shepherd.late"));
    assertThat(permits.inbound("shepherd.late.submit")).isTrue();

    known.clear();
    assertThat(permits.inbound("shepherd.late.submit")).isFalse();
  }
}
