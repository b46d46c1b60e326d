package dev.shepherd.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A claim (A2): it takes the pool's next term unless another live member holds the lock, and a
 * claim refused names that member's node, so a standby knows whose leaving to claim after (A3).
 */
class HaStoreClaimTest {
  @Test
  void A2_a_claim_while_a_live_member_leads_is_refused_naming_the_leader() {
    HaEntry entry = new HaEntry();
    entry.term = 4;
    entry.leader = "n1";
    Map.Entry<String, HaEntry> held = new AbstractMap.SimpleEntry<>("jobs", entry);

    HaEntry.Claimed refused = new HaStore.Claim("n2", Set.of("n1", "n2")).process(held);

    assertThat(refused.won()).isFalse();
    assertThat(refused.heldBy()).isEqualTo("n1");
    assertThat(entry.term).as("unchanged").isEqualTo(4);
    assertThat(entry.leader).isEqualTo("n1");
  }

  @Test
  void A2_a_claim_once_the_leader_left_wins_the_next_term() {
    HaEntry entry = new HaEntry();
    entry.term = 4;
    entry.leader = "n1";
    entry.writtenBy = 3;
    Map.Entry<String, HaEntry> held = new AbstractMap.SimpleEntry<>("jobs", entry);

    HaEntry.Claimed won = new HaStore.Claim("n2", Set.of("n2", "n3")).process(held);

    assertThat(won.won()).isTrue();
    assertThat(won.term()).isEqualTo(5);
    assertThat(won.previousTerm()).as("the term that wrote last").isEqualTo(3);
    assertThat(held.getValue().leader).isEqualTo("n2");
  }
}
