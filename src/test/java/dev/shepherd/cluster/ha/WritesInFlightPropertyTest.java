package dev.shepherd.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A3: how many of a leader's writes may be in flight, as the JVM's system property sets it. */
class WritesInFlightPropertyTest {
  @Test
  void A3_four_writes_in_flight_unless_the_property_says_from_1_to_16() {
    assertThat(HazelcastLeadership.writesInFlight(null)).isEqualTo(4);
    assertThat(HazelcastLeadership.writesInFlight("1")).isEqualTo(1);
    assertThat(HazelcastLeadership.writesInFlight(" 16 ")).isEqualTo(16);
    for (String bad : new String[] {"0", "17", "-1", "four", "", "2.5"}) {
      assertThatThrownBy(() -> HazelcastLeadership.writesInFlight(bad))
          .as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("shepherd.ha.writesInFlight: must be an integer from 1 to 16 (was " + bad
              + ")");
    }
  }
}
