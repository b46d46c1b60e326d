package dev.shepherd.core;

import static dev.shepherd.core.Fixture.only;
import static dev.shepherd.core.Fixture.placed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** F4 (docs/rules.md): token buckets per pool and per group, and rate-limited answers. */
class RateLimitTest {

  private static GroupSettings limit(int permits, long perMs) {
    return new GroupSettings(null, null, null, new RateLimit(permits, perMs), null);
  }

  @Test
  void F4_a_job_without_a_token_waits_and_runs_when_its_token_arrives() {
    Fixture fx = Fixture.pool(3).flow(FlowSettings.NONE.withGroups(Map.of("a", limit(1, 1000))))
        .running();
    assertThat(placed(fx.submitIn("a1", "a", 5))).containsExactly("a1@w-0");
    var effects = fx.submitIn("a2", "a", 5);
    assertThat(placed(effects)).isEmpty();
    assertThat(fx.timers()).containsEntry(new Timer.GroupReady("a", 1000), 1000L);
    assertThat(placed(fx.submitIn("b1", "b", 5))).containsExactly("b1@w-1");
    assertThat(placed(fx.tick(999))).isEmpty();
    assertThat(placed(fx.tick(1000))).containsExactly("a2@w-2");
  }

  @Test
  void F4_the_bucket_starts_full_and_refills_continuously() {
    Fixture fx = Fixture.pool(4).flow(FlowSettings.NONE.withGroups(Map.of("a", limit(2, 1000))))
        .running();
    fx.submitIn("a1", "a", 5);
    fx.submitIn("a2", "a", 5);
    fx.submitIn("a3", "a", 5);
    assertThat(fx.group("a").running()).isEqualTo(2);
    // Half a period brings back one of the two tokens.
    assertThat(fx.timers()).containsEntry(new Timer.GroupReady("a", 500), 500L);
    assertThat(placed(fx.tick(500))).containsExactly("a3@w-2");
  }

  @Test
  void F4_the_pools_bucket_counts_every_start() {
    Fixture fx = Fixture.pool(3).flow(FlowSettings.NONE.withPoolRateLimit(new RateLimit(1, 100)))
        .running();
    fx.submitIn("a1", "a", 5);
    assertThat(placed(fx.submitIn("b1", "b", 5))).isEmpty();
    assertThat(placed(fx.submitIn("n1", null, 5))).isEmpty();
    assertThat(fx.timers()).containsEntry(new Timer.GroupReady(null, 100), 100L);
    assertThat(placed(fx.tick(100))).hasSize(1);
    assertThat(placed(fx.tick(200))).hasSize(1);
  }

  @Test
  void F4_a_rate_limited_answer_puts_the_job_back_first_uncounted_and_holds_its_group() {
    Fixture fx = Fixture.pool(1).running();
    fx.submitIn("a1", "a", 5);
    fx.submitIn("a2", "a", 5);
    fx.submitIn("b1", "b", 5);
    var effects = fx.rateLimited("a1", 500);
    assertThat(Fixture.outcomes(effects)).isEmpty();
    // Group a is held: b runs meanwhile.
    assertThat(placed(effects)).containsExactly("b1@w-0");
    assertThat(fx.group("a").heldUntil()).isEqualTo(500L);
    fx.complete("b1");
    assertThat(fx.pool.lookup("a1").state()).isEqualTo(JobView.JobState.QUEUED);
    assertThat(placed(fx.tick(500))).containsExactly("a1@w-0");
    assertThat(fx.assignment("a1").attempt()).isEqualTo(1);
    Counters c = fx.counters();
    assertThat(c.failed()).isZero();
    assertThat(c.restarts()).isZero();
    assertThat(c.retried()).isZero();
  }

  @Test
  void F4_a_rate_limited_job_without_a_group_holds_the_pool() {
    Fixture fx = Fixture.pool(2).running();
    fx.submit("n1");
    fx.submitIn("b1", "b", 5);
    fx.rateLimited("n1", 300);
    assertThat(placed(fx.submitIn("b2", "b", 5))).isEmpty();
    assertThat(placed(fx.tick(300))).containsExactly("n1@w-0");
  }

  @Test
  void F4_a_stale_rate_limited_answer_is_refused_and_changes_nothing() {
    Fixture fx = Fixture.pool(1).running();
    fx.submitIn("a1", "a", 5);
    long token = fx.token("a1");
    fx.complete("a1");
    PoolError error = fx.refuse(new PoolEvent.RateLimited("w-0", token, 100, fx.now()));
    assertThat(error).isInstanceOf(PoolError.CompletionForUnavailableWorker.class);
    fx.submitIn("a2", "a", 5);
    assertThat(fx.refuse(new PoolEvent.RateLimited("w-0", token, 100, fx.now())))
        .isInstanceOf(PoolError.StaleCompletion.class);
    assertThat(fx.refuse(new PoolEvent.RateLimited("nope", token, 100, fx.now())))
        .isInstanceOf(PoolError.UnknownWorker.class);
  }

  @Test
  void F4_a_rate_limited_job_does_not_use_up_its_attempts() {
    Fixture fx = Fixture.pool(1).retry(1).running();
    fx.submitIn("a1", "a", 5);
    for (int i = 0; i < 5; i++) {
      fx.rateLimited("a1", 0);
      assertThat(fx.assignment("a1").attempt()).isEqualTo(1);
    }
    assertThat(fx.pool.holds("a1")).isTrue();
  }

  @Test
  void F4_rate_limits_are_validated_naming_the_field() {
    assertThatThrownBy(() -> new RateLimit(0, 10)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("rateLimit.permits");
    assertThatThrownBy(() -> new RateLimit(1, 0)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("rateLimit.perMs");
    assertThatThrownBy(() -> new GroupSettings(-1, null, null, null, null))
        .isInstanceOf(ConfigException.class).hasMessageContaining("groups.concurrency");
    assertThatThrownBy(() -> new GroupSettings(null, -1, null, null, null))
        .isInstanceOf(ConfigException.class).hasMessageContaining("groups.queueCapacity");
    assertThatThrownBy(() -> new GroupSettings(null, null, 0, null, null))
        .isInstanceOf(ConfigException.class).hasMessageContaining("groups.weight");
    assertThatThrownBy(() -> new GroupDefaults(0, 0, 1001, null))
        .isInstanceOf(ConfigException.class).hasMessageContaining("groups.weight");
    assertThatThrownBy(() -> FlowSettings.NONE.withPriorityAgingMs(-1))
        .isInstanceOf(ConfigException.class).hasMessageContaining("priorityAgingMs");
    assertThatThrownBy(() -> FlowSettings.NONE.withGroups(Map.of("", GroupSettings.INHERIT)))
        .isInstanceOf(ConfigException.class).hasMessageContaining("groups.overrides");
    assertThatThrownBy(() -> new PoolEvent.RateLimited("w", 1, -1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void F1_F4_each_flow_setting_takes_the_edges_of_its_range_and_nothing_past_them() {
    assertThat(new RateLimit(1, 1)).isEqualTo(new RateLimit(1, 1));
    assertThat(new RateLimit(RateLimit.MAX_PERMITS, RateLimit.MAX_PER_MS).permits())
        .isEqualTo(RateLimit.MAX_PERMITS);
    assertThatThrownBy(() -> new RateLimit(RateLimit.MAX_PERMITS + 1, 10))
        .isInstanceOf(ConfigException.class).hasMessageContaining("rateLimit.permits");
    assertThatThrownBy(() -> new RateLimit(1, RateLimit.MAX_PER_MS + 1))
        .isInstanceOf(ConfigException.class).hasMessageContaining("rateLimit.perMs");
    int max = GroupDefaults.MAX_WEIGHT;
    assertThat(new GroupDefaults(0, 0, max, null).weight()).isEqualTo(max);
    assertThat(new GroupSettings(null, null, max, null, null).weight()).isEqualTo(max);
    assertThat(new GroupSettings(null, null, 1, null, null).weight()).isEqualTo(1);
    assertThatThrownBy(() -> new GroupSettings(null, null, max + 1, null, null))
        .isInstanceOf(ConfigException.class).hasMessageContaining("groups.weight");
    assertThat(FlowSettings.NONE.withBusiest(0).busiest()).isZero();
    assertThatThrownBy(() -> FlowSettings.NONE.withBusiest(-1))
        .isInstanceOf(ConfigException.class).hasMessageContaining("groups.busiest");
    String longest = "g".repeat(FlowSettings.MAX_GROUP_LENGTH);
    assertThat(FlowSettings.validGroup(longest)).isTrue();
    assertThat(FlowSettings.validGroup(longest + "g")).isFalse();
    assertThat(FlowSettings.NONE.withGroups(Map.of(longest, GroupSettings.INHERIT)).groups())
        .containsOnlyKeys(longest);
  }

  @Test
  void F4_a_bucket_with_a_token_has_it_now_and_a_full_one_is_full_now() {
    TokenBucket bucket = new TokenBucket(new RateLimit(2, 1000), 100);
    assertThat(bucket.nextAt(100)).isEqualTo(100);
    assertThat(bucket.fullAt(100)).isEqualTo(100);
    bucket.take(100);
    assertThat(bucket.nextAt(100)).as("one token left").isEqualTo(100);
    assertThat(bucket.fullAt(100)).as("half a period refills one of two").isEqualTo(600);
    bucket.take(100);
    assertThat(bucket.has(599)).isFalse();
    assertThat(bucket.nextAt(100)).isEqualTo(600);
    assertThat(bucket.fullAt(1100)).isEqualTo(1100);
  }

  @Test
  void F4_a_timer_of_the_past_is_ignored_and_counted() {
    Fixture fx = Fixture.pool(1).running();
    long before = fx.counters().ignoredFacts();
    fx.apply(new PoolEvent.TimerFired(new Timer.GroupReady("nobody", 5), 5));
    fx.apply(new PoolEvent.TimerFired(new Timer.GroupReady(null, 5), 5));
    assertThat(fx.counters().ignoredFacts()).isEqualTo(before + 2);
    assertThat(only(fx.log(), Effect.Assign.class)).isEmpty();
  }

  @Test
  void F4_an_idle_group_is_kept_until_its_bucket_refills_so_forgetting_gives_no_fresh_tokens() {
    Fixture fx = Fixture.pool(1).flow(FlowSettings.NONE.withDefaults(
        new GroupDefaults(0, 0, 1, new RateLimit(1, 1000)))).running();
    fx.submitIn("a1", "a", 5);
    fx.at(10).complete("a1");
    assertThat(fx.group("a")).as("kept while its bucket refills").isNotNull();
    assertThat(placed(fx.submitIn("a2", "a", 5))).isEmpty();
    assertThat(placed(fx.tick(1000))).containsExactly("a2@w-0");
    fx.at(1005).complete("a2");
    fx.at(2000).submitIn("b1", "b", 5);
    assertThat(fx.group("a")).as("forgotten once full").isNull();
  }
}
