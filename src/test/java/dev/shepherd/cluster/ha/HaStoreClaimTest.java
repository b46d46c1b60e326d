package dev.shepherd.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A claim (A2): it takes the pool's next term unless another live member holds the lock, and a
 * claim refused names that member's node, so a standby knows whose leaving to claim after (A3).
 * Where a member runs it, the members are that member's as the claim runs.
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
  void A2_the_member_running_a_claim_judges_the_leader_by_its_own_view_of_the_cluster() {
    HaEntry entry = new HaEntry();
    entry.term = 4;
    entry.leader = "n1";
    Map.Entry<String, HaEntry> held = new AbstractMap.SimpleEntry<>("jobs", entry);
    HaStore.Claim sentWhileTheLeaderLived = new HaStore.Claim("n2", Set.of("n1", "n2"));
    sentWhileTheLeaderLived.setHazelcastInstance(cluster("n2", "n3"));

    assertThat(sentWhileTheLeaderLived.process(held).won()).isTrue();
    assertThat(entry.term).isEqualTo(5);

    HaStore.Claim staleView = new HaStore.Claim("n3", Set.of("n3"));
    staleView.setHazelcastInstance(cluster("n2", "n3"));
    assertThat(staleView.process(held).heldBy()).as("n2 lives, whatever n3 saw").isEqualTo("n2");
  }

  @Test
  void A2_a_backup_takes_the_term_the_claim_took_whatever_its_own_view_of_the_cluster() {
    HaEntry primary = new HaEntry();
    primary.term = 4;
    primary.leader = "n1";
    HaEntry backup = new HaEntry();
    backup.term = 4;
    backup.leader = "n1";
    HaStore.Claim claim = new HaStore.Claim("n2", Set.of("n1", "n2"));
    claim.setHazelcastInstance(cluster("n2", "n3"));

    assertThat(claim.process(new AbstractMap.SimpleEntry<>("jobs", primary)).won()).isTrue();
    // The backup's member has not yet seen n1 leave; the claim run there would be refused.
    var forBackup = claim.getBackupProcessor();
    assertThat(forBackup).isNotNull().isNotInstanceOf(HaStore.Claim.class);
    forBackup.process(new AbstractMap.SimpleEntry<>("jobs", backup));

    assertThat(backup.term).isEqualTo(primary.term).isEqualTo(5);
    assertThat(backup.leader).isEqualTo(primary.leader).isEqualTo("n2");
  }

  @Test
  void A3_a_claim_and_its_backup_drop_the_same_uncommitted_batches() {
    HaEntry primary = new HaEntry();
    HaEntry backup = new HaEntry();
    for (HaEntry entry : java.util.List.of(primary, backup)) {
      entry.term = 4;
      entry.leader = "n1";
      entry.keep(4, 1, null, "base".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      entry.keep(4, 2, "b".getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
      entry.keep(4, 4, "d".getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
    }
    HaStore.Claim claim = new HaStore.Claim("n2", Set.of("n2"));

    HaEntry.Claimed won = claim.process(new AbstractMap.SimpleEntry<>("jobs", primary));
    claim.getBackupProcessor().process(new AbstractMap.SimpleEntry<>("jobs", backup));

    assertThat(won.batches()).hasSize(1);
    assertThat(primary.batches).extracting(HaEntry.Stored::id).containsExactly(2L);
    assertThat(backup.batches).extracting(HaEntry.Stored::id).containsExactly(2L);
  }

  @Test
  void A2_a_refused_claim_sends_its_backups_nothing() {
    HaEntry entry = new HaEntry();
    entry.term = 4;
    entry.leader = "n1";
    HaStore.Claim claim = new HaStore.Claim("n2", Set.of("n1", "n2"));

    assertThat(claim.process(new AbstractMap.SimpleEntry<>("jobs", entry)).won()).isFalse();
    assertThat(claim.getBackupProcessor()).isNull();
  }

  /** A Hazelcast instance whose cluster has members of these node ids. */
  private static com.hazelcast.core.HazelcastInstance cluster(String... nodes) {
    java.util.Set<com.hazelcast.cluster.Member> members = new java.util.LinkedHashSet<>();
    for (String node : nodes) {
      members.add((com.hazelcast.cluster.Member) java.lang.reflect.Proxy.newProxyInstance(
          HaStoreClaimTest.class.getClassLoader(),
          new Class<?>[] {com.hazelcast.cluster.Member.class},
          (proxy, method, args) -> switch (method.getName()) {
            case "getAttribute" -> HaStore.NODE_ID.equals(args[0]) ? node : null;
            case "hashCode" -> node.hashCode();
            case "equals" -> proxy == args[0];
            default -> null;
          }));
    }
    com.hazelcast.cluster.Cluster cluster = (com.hazelcast.cluster.Cluster)
        java.lang.reflect.Proxy.newProxyInstance(HaStoreClaimTest.class.getClassLoader(),
            new Class<?>[] {com.hazelcast.cluster.Cluster.class},
            (proxy, method, args) -> method.getName().equals("getMembers") ? members : null);
    return (com.hazelcast.core.HazelcastInstance) java.lang.reflect.Proxy.newProxyInstance(
        HaStoreClaimTest.class.getClassLoader(),
        new Class<?>[] {com.hazelcast.core.HazelcastInstance.class},
        (proxy, method, args) -> method.getName().equals("getCluster") ? cluster : null);
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
