package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.PoolAnnouncement;
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

      assertThat(table.nodeLeft("a")).isTrue();
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

      assertThat(table.nodeLeft("a")).isTrue();
      assertThat(listed()).containsExactly("mail@b");
      assertThat(table.nodeLeft("a")).isFalse();
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
      table.nodeLeft("a");

      assertThat(table.heard(running("jobs", "a2"), 100)).isTrue();
      assertThat(listed()).containsExactly("jobs@a2");
    }
  }
}
