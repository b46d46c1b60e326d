package dev.shepherd.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link MajorityCheck}: a configured majority that a split into two equal sides would give both. */
class MajorityCheckTest {

  @Test
  void A1_a_majority_of_more_than_half_the_members_draws_no_warning() {
    assertThat(MajorityCheck.warning(3, 2)).isNull();
    assertThat(MajorityCheck.warning(2, 2)).isNull();
    assertThat(MajorityCheck.warning(5, 3)).isNull();
    assertThat(MajorityCheck.warning(1, 2)).isNull();
  }

  @Test
  void A1_a_cluster_of_twice_its_majority_or_more_is_told_the_majority_it_needs() {
    assertThat(MajorityCheck.warning(4, 2)).contains("4 members", "SHEPHERD_CLUSTER_MAJORITY is 2",
        "set it to 3");
    assertThat(MajorityCheck.warning(5, 2)).contains("set it to 3");
    assertThat(MajorityCheck.warning(6, 3)).contains("set it to 4");
  }

  @Test
  void A1_no_protection_at_all_is_left_to_its_own_warning() {
    assertThat(MajorityCheck.warning(5, 1)).isNull();
    assertThat(MajorityCheck.warning(5, 0)).isNull();
  }
}
