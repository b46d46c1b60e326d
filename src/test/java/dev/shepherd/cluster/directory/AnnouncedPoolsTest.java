package dev.shepherd.cluster.directory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.access.PoolAnnouncement;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The directory's table of announced pools (section 8.4): a pool is listed from its first
 * announcement until it is announced gone, its node leaves, or it falls silent; a pool two nodes
 * announce is listed once, from the node heard first.
 */
class AnnouncedPoolsTest {
  private final AnnouncedPools table = new AnnouncedPools();

  private static PoolAnnouncement running(String pool, String node) {
    return new PoolAnnouncement(pool, "shepherd." + pool, node, 1_000, false);
  }

  private static PoolAnnouncement gone(String pool, String node) {
    return new PoolAnnouncement(pool, "shepherd." + pool, node, 0, true);
  }

  private List<String> listed() {
    return table.listed().stream().map(e -> e.pool() + "@" + e.node()).toList();
  }

  @Nested
  class Appearing {
    @Test
    void a_pool_is_listed_from_its_first_announcement_with_its_prefix_and_node() {
      assertThat(table.heard(running("jobs", "a"), 0)).isTrue();
      assertThat(table.heard(running("images", "b"), 10)).isTrue();

      assertThat(listed()).containsExactly("jobs@a", "images@b");
      assertThat(table.listed().get(0).prefix()).isEqualTo("shepherd.jobs");
    }

    @Test
    void announcing_again_changes_nothing_listed() {
      table.heard(running("jobs", "a"), 0);

      assertThat(table.heard(running("jobs", "a"), 1_000)).isFalse();
      assertThat(listed()).containsExactly("jobs@a");
    }

    @Test
    void a_new_prefix_from_the_same_node_is_a_change() {
      table.heard(running("jobs", "a"), 0);

      assertThat(table.heard(new PoolAnnouncement("jobs", "custom.jobs", "a", 1_000, false),
          500)).isTrue();
      assertThat(table.listed()).singleElement().extracting(AnnouncedPools.Entry::prefix)
          .isEqualTo("custom.jobs");
    }

    @Test
    void a_pool_two_nodes_announce_is_listed_from_the_first_until_it_goes() {
      table.heard(running("jobs", "a"), 0);
      assertThat(table.heard(running("jobs", "b"), 10)).isFalse();
      table.heard(running("jobs", "a"), 20);
      assertThat(listed()).containsExactly("jobs@a");

      assertThat(table.nodeLeft("a", 0)).isTrue();
      assertThat(listed()).containsExactly("jobs@b");
    }
  }

  @Nested
  class Disappearing {
    @Test
    void a_pool_announced_gone_goes_at_once() {
      table.heard(running("jobs", "a"), 0);

      assertThat(table.heard(gone("jobs", "a"), 10)).isTrue();
      assertThat(listed()).isEmpty();
    }

    @Test
    void gone_from_another_node_leaves_the_pool_listed() {
      table.heard(running("jobs", "a"), 0);

      assertThat(table.heard(gone("jobs", "b"), 10)).isFalse();
      assertThat(listed()).containsExactly("jobs@a");
    }

    @Test
    void every_pool_of_a_node_that_left_goes_and_the_others_stay() {
      table.heard(running("jobs", "a"), 0);
      table.heard(running("images", "a"), 0);
      table.heard(running("mail", "b"), 0);

      assertThat(table.nodeLeft("a", 0)).isTrue();
      assertThat(listed()).containsExactly("mail@b");
      assertThat(table.nodeLeft("a", 0)).isFalse();
    }

    @Test
    void a_pool_silent_for_its_silence_limit_is_forgotten_and_not_before() {
      table.heard(running("jobs", "a"), 0);
      table.heard(running("mail", "b"), 3_000);
      long limit = running("jobs", "a").silenceLimitMs();

      assertThat(table.expire(limit)).isFalse();
      assertThat(table.expire(limit + 1)).isTrue();
      assertThat(listed()).containsExactly("mail@b");
    }

    @Test
    void announcements_keep_a_pool_listed_past_the_silence_limit_of_the_first() {
      table.heard(running("jobs", "a"), 0);
      for (long t = 1_000; t <= 20_000; t += 1_000) {
        table.heard(running("jobs", "a"), t);
        assertThat(table.expire(t + 500)).isFalse();
      }
      assertThat(listed()).containsExactly("jobs@a");
    }

    @Test
    void a_pool_that_comes_back_after_it_went_is_listed_again() {
      table.heard(running("jobs", "a"), 0);
      table.nodeLeft("a", 0);

      assertThat(table.heard(running("jobs", "a2"), 100)).isTrue();
      assertThat(listed()).containsExactly("jobs@a2");
    }
  }

  /** A1: a highly available pool that goes is waited for while a standby takes it over. */
  @Nested
  class Leaderless {
    private PoolAnnouncement ha(String pool, String node, boolean gone) {
      return new PoolAnnouncement(pool, "shepherd." + pool, node, gone ? 0 : 1_000, gone, true);
    }

    private List<String> waited() {
      return table.leaderless().stream().map(l -> l.pool() + "@" + l.since()).toList();
    }

    @Test
    void A1_a_highly_available_pool_announced_gone_is_waited_for_until_the_new_leader_announces()
    {
      table.heard(ha("jobs", "a", false), 0);

      assertThat(table.heard(ha("jobs", "a", true), 100)).isTrue();
      assertThat(listed()).isEmpty();
      assertThat(waited()).containsExactly("jobs@100");
      assertThat(table.leaderless().get(0).prefix()).isEqualTo("shepherd.jobs");

      assertThat(table.heard(ha("jobs", "b", false), 900)).isTrue();
      assertThat(listed()).containsExactly("jobs@b");
      assertThat(waited()).isEmpty();
    }

    @Test
    void A1_a_highly_available_pool_whose_node_left_or_fell_silent_is_waited_for() {
      table.heard(ha("jobs", "a", false), 0);
      table.heard(ha("mail", "b", false), 0);

      assertThat(table.nodeLeft("a", 50)).isTrue();
      long silent = ha("mail", "b", false).silenceLimitMs() + 1;
      assertThat(table.expire(silent)).isTrue();

      assertThat(waited()).containsExactly("jobs@50", "mail@" + silent);
    }

    @Test
    void A1_a_leaderless_pool_is_forgotten_after_the_takeover_wait() {
      table.heard(ha("jobs", "a", false), 0);
      table.nodeLeft("a", 0);

      assertThat(table.expire(AnnouncedPools.TAKEOVER_WAIT_MS)).isFalse();
      assertThat(table.expire(AnnouncedPools.TAKEOVER_WAIT_MS + 1)).isTrue();
      assertThat(waited()).isEmpty();
    }

    @Test
    void a_pool_that_is_not_highly_available_is_not_waited_for() {
      table.heard(running("jobs", "a"), 0);
      table.nodeLeft("a", 0);

      assertThat(waited()).isEmpty();
    }

    @Test
    void a_highly_available_pool_still_announced_by_another_node_is_not_leaderless() {
      table.heard(ha("jobs", "a", false), 0);
      table.heard(ha("jobs", "b", false), 10);

      table.nodeLeft("a", 20);

      assertThat(listed()).containsExactly("jobs@b");
      assertThat(waited()).isEmpty();
    }
  }
}
