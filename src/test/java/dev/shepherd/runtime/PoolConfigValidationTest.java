package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.BackoffSettings;
import dev.shepherd.core.ConfigException;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.JobSettings;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.Retention;
import dev.shepherd.core.SupervisionSettings;
import dev.shepherd.demo.DemoWorker;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.testworkers.NeedsArgumentWorker;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Invalid configuration fails the {@link PoolVerticle} deployment with a message naming the field
 * and the bad value, and nothing stays deployed: no verticle, no pool, no bus consumer (P1).
 * Section 10's fields are read with their defaults, and those defaults heal (J7).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PoolConfigValidationTest {

  private static Arguments invalid(String field, Consumer<JsonObject> edit) {
    return Arguments.of(field, edit);
  }

  private static JsonObject worker(JsonObject pool) {
    return pool.getJsonObject("worker");
  }

  private static JsonObject supervision(JsonObject pool) {
    return pool.getJsonObject("supervision");
  }

  static Stream<Arguments> invalidConfigurations() {
    return Stream.of(
        invalid("worker.class", p -> worker(p).remove("class")),
        invalid("worker.class", p -> worker(p).put("class", "com.example.NoSuchWorker")),
        invalid("worker.class", p -> worker(p).put("class", "java.lang.String")),
        invalid("worker.class", p -> worker(p).put("class", NeedsArgumentWorker.class.getName())),
        invalid("worker.class", p -> worker(p).put("class", 42)),
        invalid("worker", p -> p.put("worker", "dev.shepherd.demo.DemoWorker")),
        invalid("worker.instances", p -> worker(p).put("instances", 0)),
        invalid("worker.instances", p -> worker(p).put("instances", "four")),
        invalid("worker.maxConcurrency", p -> worker(p).put("maxConcurrency", 0)),
        invalid("worker.threading", p -> worker(p).put("threading", "FAST")),
        invalid("worker.config", p -> worker(p).put("config", "failStart=always")),
        invalid("worker.instance", p -> worker(p).put("instance", 2)),
        invalid("worker.onException", p -> worker(p).put("onException", "SOMETIMES")),
        invalid("worker.onException", p -> worker(p).put("onException", true)),
        invalid("worker.onException", p -> worker(p).put("onException", new JsonObject())),
        invalid("backlogCapacity", p -> p.put("backlogCapacity", -1)),
        invalid("backlogCapacity", p -> p.put("backlogCapacity", 1.5)),
        invalid("backlogCapacty", p -> p.put("backlogCapacty", 10)),
        invalid("interruption", p -> p.put("interruption", "SOMETIMES")),
        invalid("maxAttempts", p -> p.put("maxAttempts", -3)),
        invalid("jobTimeoutMs", p -> p.put("jobTimeoutMs", -1)),
        invalid("jobTimeoutMs", p -> p.put("jobTimeoutMs", "30s")),
        invalid("drainTimeoutMs", p -> p.put("drainTimeoutMs", true)),
        invalid("heartbeatTimeoutMs", p -> p.put("heartbeatTimeoutMs", 0)),
        invalid("heartbeatTimeoutMs", p -> p.put("heartbeatTimeoutMs", 99)),
        invalid("heartbeatTimeoutMs", p -> p.put("heartbeatTimeoutMs", "5s")),
        invalid("hostGraceMs", p -> p.put("hostGraceMs", -1)),
        invalid("maxPayloadDepth", p -> p.put("maxPayloadDepth", 0)),
        invalid("maxPayloadDepth", p -> p.put("maxPayloadDepth", 501)),
        invalid("maxPayloadDepth", p -> p.put("maxPayloadDepth", "64")),
        invalid("maxPayloadDepth", p -> p.put("maxPayloadDepth", 6.4)),
        invalid("name", p -> p.put("name", "no spaces allowed")),
        invalid("name", p -> p.put("name", "")),
        invalid("address", p -> p.put("address", 7)),
        invalid("supervision", p -> p.put("supervision", "PERMANENT")),
        invalid("supervision.policy", p -> supervision(p).put("policy", "ALWAYS")),
        invalid("supervision.strategy", p -> supervision(p).put("strategy", "ALL_FOR_ONE")),
        invalid("supervision.maxRestarts", p -> supervision(p).put("maxRestarts", -1)),
        invalid("supervision.restartWindowMs", p -> supervision(p).put("restartWindowMs", 0)),
        invalid("supervision.onBudgetExceeded",
            p -> supervision(p).put("onBudgetExceeded", "PANIC")),
        invalid("supervision.restart", p -> supervision(p).put("restart", "always")),
        invalid("supervision.restartBackoff.multiplier", p -> supervision(p)
            .put("restartBackoff", new JsonObject().put("multiplier", 0.5))),
        invalid("supervision.restartBackoff.initialMs", p -> supervision(p)
            .put("restartBackoff", new JsonObject().put("initialMs", -10))),
        invalid("supervision.restartBackoff.jitter", p -> supervision(p)
            .put("restartBackoff", new JsonObject().put("jitter", 2))),
        invalid("supervision.restartBackoff.maxMs", p -> supervision(p).put("restartBackoff",
            new JsonObject().put("initialMs", 500).put("maxMs", 100))),
        invalid("supervision.restartBackoff.resetAfterMs", p -> supervision(p)
            .put("restartBackoff", new JsonObject().put("resetAfterMs", 0))),
        invalid("supervision.restartBackoff.delay", p -> supervision(p)
            .put("restartBackoff", new JsonObject().put("delay", 100))),
        invalid("supervision.restartBackoff", p -> supervision(p).put("restartBackoff", false)),
        invalid("supervision.reviveAfterMs", p -> supervision(p).put("reviveAfterMs", -1)),
        invalid("supervision.reviveAfterMs", p -> supervision(p).put("reviveAfterMs", "10s")),
        invalid("supervision.reviveMaxMs", p -> supervision(p).put("reviveAfterMs", 1000)
            .put("reviveMaxMs", 500)),
        invalid("supervision.reviveMaxMs", p -> supervision(p).put("reviveMaxMs", 1.5)),
        // section 10: jobs that fail, wait and come back
        invalid("poisonAfter", p -> p.put("poisonAfter", -1)),
        invalid("poisonAfter", p -> p.put("poisonAfter", "2")),
        invalid("poisonAfter", p -> p.put("poisonAfter", 1.5)),
        invalid("poisonAfter", p -> p.put("poisonAfter", 1_000_001)),
        invalid("retryBackoff", p -> p.put("retryBackoff", "1s")),
        invalid("retryBackoff.initialMs", p -> p.put("retryBackoff",
            new JsonObject().put("initialMs", -1))),
        invalid("retryBackoff.initialMs", p -> p.put("retryBackoff",
            new JsonObject().put("initialMs", "1000"))),
        invalid("retryBackoff.multiplier", p -> p.put("retryBackoff",
            new JsonObject().put("multiplier", 0.5))),
        invalid("retryBackoff.multiplier", p -> p.put("retryBackoff",
            new JsonObject().put("multiplier", "2"))),
        invalid("retryBackoff.maxMs", p -> p.put("retryBackoff",
            new JsonObject().put("initialMs", 5000).put("maxMs", 1000))),
        invalid("retryBackoff.jitter", p -> p.put("retryBackoff",
            new JsonObject().put("jitter", 1.5))),
        invalid("retryBackoff.seed", p -> p.put("retryBackoff", new JsonObject().put("seed", 1))),
        invalid("retryFailures", p -> p.put("retryFailures", 3)),
        invalid("retryFailures.maxAttempts", p -> p.put("retryFailures",
            new JsonObject().put("maxAttempts", 0))),
        invalid("retryFailures.maxAttempts", p -> p.put("retryFailures",
            new JsonObject().put("maxAttempts", "3"))),
        invalid("retryFailures.backoff", p -> p.put("retryFailures",
            new JsonObject().put("backoff", "none"))),
        invalid("retryFailures.backoff.multiplier", p -> p.put("retryFailures",
            new JsonObject().put("backoff", new JsonObject().put("multiplier", 0.5)))),
        invalid("retryFailures.backoff.maxMs", p -> p.put("retryFailures",
            new JsonObject().put("backoff", new JsonObject().put("maxMs", -1)))),
        invalid("retryFailures.delayMs", p -> p.put("retryFailures",
            new JsonObject().put("delayMs", 10))),
        invalid("maxDelayMs", p -> p.put("maxDelayMs", -1)),
        invalid("maxDelayMs", p -> p.put("maxDelayMs", "1d")),
        invalid("maxDelayMs", p -> p.put("maxDelayMs", 2.5)),
        invalid("deadLetter", p -> p.put("deadLetter", true)),
        invalid("deadLetter.capacity", p -> p.put("deadLetter", new JsonObject().put("capacity", -1))),
        invalid("deadLetter.capacity", p -> p.put("deadLetter", new JsonObject().put("capacity", 1.5))),
        invalid("deadLetter.maxBytes", p -> p.put("deadLetter", new JsonObject().put("maxBytes", 0))),
        invalid("deadLetter.failed", p -> p.put("deadLetter", new JsonObject().put("failed", "yes"))),
        invalid("deadLetter.ttlMs", p -> p.put("deadLetter", new JsonObject().put("ttlMs", 1000))),
        invalid("recentOutcomes", p -> p.put("recentOutcomes", 10_000)),
        invalid("recentOutcomes.capacity", p -> p.put("recentOutcomes",
            new JsonObject().put("capacity", -1))),
        invalid("recentOutcomes.maxBytes", p -> p.put("recentOutcomes",
            new JsonObject().put("maxBytes", "16MiB"))),
        invalid("recentOutcomes.failed", p -> p.put("recentOutcomes",
            new JsonObject().put("failed", true))),
        invalid("retrySeed", p -> p.put("retrySeed", "random")),
        invalid("retrySeed", p -> p.put("retrySeed", 4.2)),
        invalid("retryDelay", p -> p.put("retryDelay", 1000)),
        invalid("affinity.selector", p -> p.put("affinity", new JsonObject().put("selector", "RANDOM"))),
        invalid("affinity.selector", p -> p.put("affinity",
            new JsonObject().put("selector", "java.lang.Object"))),
        invalid("affinity.sticky", p -> p.put("affinity", new JsonObject().put("sticky", true))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidConfigurations")
  void P1_invalid_configuration_fails_the_deployment_naming_the_field_and_deploys_nothing(
      String field, Consumer<JsonObject> edit, Vertx vertx) {
    JsonObject config = demoPool("bad", 2);
    edit.accept(config);

    Throwable error = failure(vertx.deployVerticle(new PoolVerticle(),
        new DeploymentOptions().setConfig(config)));

    assertThat(error).isInstanceOfSatisfying(ConfigException.class,
        e -> assertThat(e.field()).isEqualTo(field));
    assertThat(error.getMessage()).startsWith(field + ": ").contains("(was ");
    assertNothingDeployed(vertx, "bad");
  }

  @Test
  void J1_worker_onException_is_FAIL_JOB_unless_the_pool_says_CRASH() {
    JsonObject crashing = demoPool("crashing", 1);
    worker(crashing).put("onException", "crash");

    assertThat(PoolConfig.parse(demoPool("plain", 1), "").onException())
        .isEqualTo(OnException.FAIL_JOB);
    assertThat(PoolConfig.parse(crashing, "").onException()).isEqualTo(OnException.CRASH);
    assertThat(PoolConfig.parse(crashing, "").withSettings(
        PoolConfig.parse(crashing, "").settings()).onException()).isEqualTo(OnException.CRASH);
  }

  @Test
  void P1_a_second_pool_with_the_same_name_is_refused_and_the_first_keeps_running(Vertx vertx) {
    PoolFixture.deployReady(vertx, demoPool("twin", 1));
    java.util.Set<String> before = java.util.Set.copyOf(vertx.deploymentIDs());

    Throwable error = failure(vertx.deployVerticle(new PoolVerticle(),
        new DeploymentOptions().setConfig(demoPool("twin", 3))));

    assertThat(error).hasMessageContaining("twin");
    assertThat(vertx.deploymentIDs()).isEqualTo(before);
    assertThat(run(vertx, "twin", echo(1))).isInstanceOf(Outcome.Completed.class);
  }

  /** The settings of {@code pool} as the launcher reads them, as the first pool entry. */
  private static PoolSettings parse(JsonObject pool) {
    return PoolConfig.parse(pool, "pools[0]").settings();
  }

  private static JsonObject minimal() {
    return new JsonObject().put("worker",
        new JsonObject().put("class", DemoWorker.class.getName()));
  }

  private static JsonObject shippedPool(String file) throws IOException {
    JsonObject conf = new JsonObject(Files.readString(Path.of("conf", file)));
    return conf.getJsonArray("pools").getJsonObject(0);
  }

  /** Section 10's pool fields read into {@link JobSettings}, each absent one a default. */
  @Nested
  class JobFields {

    @Test
    void J2_poisonAfter_is_read_and_0_turns_judging_jobs_off() {
      assertThat(parse(minimal().put("poisonAfter", 5)).jobs().poisonAfter()).isEqualTo(5);
      JobSettings off = parse(minimal().put("poisonAfter", 0)).jobs();
      assertThat(off.poisonAfter()).isZero();
      assertThat(off.judgesJobs()).isFalse();
    }

    @Test
    void J3_retryBackoff_takes_each_absent_field_from_the_default() {
      assertThat(parse(minimal().put("retryBackoff", new JsonObject().put("initialMs", 250)))
          .jobs().retryBackoff()).isEqualTo(new Backoff(250, 2.0, 60_000, 0.2));
      assertThat(parse(minimal().put("retryBackoff", new JsonObject().put("initialMs", 90_000)))
          .jobs().retryBackoff().maxMs()).as("maxMs is at least initialMs").isEqualTo(90_000);
      assertThat(parse(minimal().put("retryBackoff", new JsonObject().put("initialMs", 10)
          .put("multiplier", 3).put("maxMs", 500).put("jitter", 0))).jobs().retryBackoff())
          .isEqualTo(new Backoff(10, 3.0, 500, 0.0));
      assertThat(parse(minimal().put("retryBackoff", new JsonObject().put("initialMs", 0)))
          .jobs().retryBackoff().none()).isTrue();
    }

    @Test
    void J3_retryFailures_is_read_and_its_backoff_defaults_to_a_second_doubling() {
      FailureRetry retry = parse(minimal().put("retryFailures", new JsonObject()
          .put("maxAttempts", 4).put("backoff", new JsonObject().put("initialMs", 10)
              .put("maxMs", 100).put("multiplier", 1.5).put("jitter", 0.0))))
          .jobs().retryFailures();
      assertThat(retry).isEqualTo(new FailureRetry(4, new Backoff(10, 1.5, 100, 0.0)));
      assertThat(parse(minimal().put("retryFailures", new JsonObject().put("maxAttempts", 3)))
          .jobs().retryFailures())
          .isEqualTo(new FailureRetry(3, new Backoff(1_000, 2.0, 60_000, 0.2)));
    }

    @Test
    void J4_maxDelayMs_is_read_and_0_allows_no_delay() {
      assertThat(parse(minimal().put("maxDelayMs", 5_000)).jobs().maxDelayMs()).isEqualTo(5_000);
      assertThat(parse(minimal().put("maxDelayMs", 0)).jobs().maxDelayMs()).isZero();
    }

    @Test
    void J5_deadLetter_is_read_with_failed_as_deadLetterFailed() {
      JobSettings jobs = parse(minimal().put("deadLetter", new JsonObject().put("capacity", 0)
          .put("maxBytes", 1024).put("failed", false))).jobs();
      assertThat(jobs.deadLetter()).isEqualTo(new Retention(0, 1024));
      assertThat(jobs.deadLetterFailed()).isFalse();
      JobSettings partly = parse(minimal().put("deadLetter", new JsonObject().put("capacity", 7)))
          .jobs();
      assertThat(partly.deadLetter()).isEqualTo(new Retention(7, 16L << 20));
      assertThat(partly.deadLetterFailed()).isTrue();
    }

    @Test
    void J6_recentOutcomes_is_read() {
      assertThat(parse(minimal().put("recentOutcomes", new JsonObject().put("capacity", 5)
          .put("maxBytes", 100))).jobs().recentOutcomes()).isEqualTo(new Retention(5, 100));
    }

    @Test
    void J3_retrySeed_seeds_the_jitter() {
      assertThat(parse(minimal().put("retrySeed", -7)).jobs().seed()).isEqualTo(-7);
      assertThat(parse(minimal().put("retrySeed", Long.MAX_VALUE)).jobs().seed())
          .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void null_means_absent_for_every_new_field() {
      JsonObject nulls = minimal();
      for (String field : List.of("poisonAfter", "retryBackoff", "retryFailures", "maxDelayMs",
          "deadLetter", "recentOutcomes", "retrySeed")) {
        nulls.putNull(field);
      }
      nulls.put("supervision", new JsonObject().putNull("restartBackoff")
          .putNull("reviveAfterMs").putNull("reviveMaxMs"));
      assertThat(parse(nulls).jobs()).isEqualTo(parse(minimal()).jobs());
      assertThat(parse(nulls).supervision()).isEqualTo(parse(minimal()).supervision());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.shepherd.runtime.PoolConfigValidationTest#fullPaths")
    void a_bad_value_is_named_by_its_full_path_and_its_value(String field, JsonObject pool,
        String value) {
      assertThatThrownBy(() -> PoolConfig.parse(pool, "pools[0]"))
          .isInstanceOfSatisfying(ConfigException.class,
              e -> assertThat(e.field()).isEqualTo(field))
          .hasMessageStartingWith(field + ": ")
          .hasMessageEndingWith("(was " + value + ")");
    }
  }

  static Stream<Arguments> fullPaths() {
    return Stream.of(
        Arguments.of("pools[0].deadLetter.capacity",
            minimal().put("deadLetter", new JsonObject().put("capacity", -1)), "-1"),
        Arguments.of("pools[0].recentOutcomes.maxBytes",
            minimal().put("recentOutcomes", new JsonObject().put("maxBytes", 0)), "0"),
        Arguments.of("pools[0].retryBackoff.maxMs", minimal().put("retryBackoff",
            new JsonObject().put("initialMs", 5000).put("maxMs", 10)), "10"),
        Arguments.of("pools[0].retryFailures.backoff.multiplier", minimal().put("retryFailures",
            new JsonObject().put("backoff", new JsonObject().put("multiplier", 0.5))), "0.5"),
        Arguments.of("pools[0].retryFailures.maxAttempts", minimal().put("retryFailures",
            new JsonObject().put("maxAttempts", 0)), "0"),
        Arguments.of("pools[0].poisonAfter", minimal().put("poisonAfter", -2), "-2"),
        Arguments.of("pools[0].maxDelayMs", minimal().put("maxDelayMs", "1d"), "\"1d\""),
        Arguments.of("pools[0].supervision.restartBackoff.maxMs", minimal().put("supervision",
            new JsonObject().put("restartBackoff",
                new JsonObject().put("initialMs", 500).put("maxMs", 100))), "100"),
        Arguments.of("pools[0].supervision.reviveMaxMs", minimal().put("supervision",
            new JsonObject().put("reviveAfterMs", 1000).put("reviveMaxMs", 999)), "999"));
  }

  /** J7: with the shipped defaults, a pool heals from what its jobs do. */
  @Nested
  class DefaultsThatHeal {

    @Test
    void J7_a_pool_entry_without_the_new_fields_judges_jobs_backs_off_and_revives() {
      PoolSettings settings = parse(minimal());
      JobSettings jobs = settings.jobs();
      assertThat(jobs.poisonAfter()).isEqualTo(2);
      assertThat(jobs.retryBackoff()).isEqualTo(new Backoff(1_000, 2.0, 60_000, 0.2));
      assertThat(jobs.retryFailures().maxAttempts()).isEqualTo(1);
      assertThat(jobs.maxDelayMs()).isEqualTo(86_400_000L);
      assertThat(jobs.deadLetter()).isEqualTo(new Retention(1_000, 16L << 20));
      assertThat(jobs.deadLetterFailed()).isTrue();
      assertThat(jobs.recentOutcomes()).isEqualTo(new Retention(10_000, 16L << 20));
      assertThat(jobs.seed()).isEqualTo(JobSettings.DEFAULT.seed());
      SupervisionSettings supervision = settings.supervision();
      assertThat(supervision.backoff())
          .isEqualTo(new BackoffSettings(200, 30_000, 2.0, 0.2, 30_000, 42));
      assertThat(supervision.reviveAfterMs()).isEqualTo(10_000);
      assertThat(supervision.reviveMaxMs()).isEqualTo(300_000);
    }

    @Test
    void J7_the_shipped_config_parses_into_poison_after_2_backoff_on_and_revive_on()
        throws IOException {
      PoolSettings shipped = parse(shippedPool("config.json"));
      assertThat(shipped.jobs().poisonAfter()).isEqualTo(2);
      assertThat(shipped.jobs().retryBackoff().none()).isFalse();
      assertThat(shipped.supervision().backoff()).isNotNull();
      assertThat(shipped.supervision().backoff().initialMs()).isPositive();
      assertThat(shipped.supervision().reviveAfterMs()).isPositive();
      assertThat(shipped.supervision().reviveMaxMs())
          .isGreaterThan(shipped.supervision().reviveAfterMs());
    }

    @Test
    void J7_the_shipped_config_lists_exactly_the_defaults_it_would_get_without_them()
        throws IOException {
      PoolSettings shipped = parse(shippedPool("config.json"));
      PoolSettings defaults = parse(minimal().put("worker", shippedPool("config.json")
          .getJsonObject("worker")));
      assertThat(shipped.jobs()).isEqualTo(defaults.jobs());
      assertThat(shipped.supervision()).isEqualTo(defaults.supervision());
    }

    @Test
    void J7_the_small_demo_config_heals_too() throws IOException {
      PoolSettings small = parse(shippedPool("small.json"));
      assertThat(small.jobs().judgesJobs()).isTrue();
      assertThat(small.supervision().backoff()).isNotNull();
      assertThat(small.supervision().reviveAfterMs()).isPositive();
    }

    @Test
    void J7_each_rule_turns_off_on_its_own() {
      PoolSettings off = parse(minimal().put("poisonAfter", 0)
          .put("retryBackoff", new JsonObject().put("initialMs", 0))
          .put("supervision", new JsonObject()
              .put("restartBackoff", new JsonObject().put("initialMs", 0))
              .put("reviveAfterMs", 0)));
      assertThat(off.jobs().judgesJobs()).isFalse();
      assertThat(off.jobs().retryBackoff().none()).isTrue();
      assertThat(off.supervision().backoff()).as("replaced at once").isNull();
      assertThat(off.supervision().reviveAfterMs()).as("never revived by time").isZero();
      assertThat(parse(minimal().put("poisonAfter", 0)).supervision().backoff())
          .as("the others stay on").isNotNull();
    }

    @Test
    void J7_the_seeds_rules_of_the_tests_turn_every_healing_default_off() {
      PoolSettings seed = parse(PoolFixture.seedRules(demoPool("seed", 1)));
      assertThat(seed.jobs().poisonAfter()).isZero();
      assertThat(seed.jobs().retryBackoff().none()).isTrue();
      assertThat(seed.supervision().backoff()).isNull();
      assertThat(seed.supervision().reviveAfterMs()).isZero();
    }

    @Test
    void J7_the_core_keeps_the_seeds_supervision_defaults() {
      assertThat(SupervisionSettings.defaults().backoff()).isNull();
      assertThat(SupervisionSettings.defaults().reviveAfterMs()).isZero();
    }
  }

  static void assertNothingDeployed(Vertx vertx, String pool) {
    assertThat(vertx.deploymentIDs()).isEmpty();
    assertThat(LocalPools.find(vertx, pool)).isNull();
    Throwable noConsumer = failure(vertx.eventBus().request(Addresses.forPool(pool).status(),
        new JsonObject(), new DeliveryOptions().setSendTimeout(STEP.toMillis())));
    assertThat(noConsumer).isInstanceOfSatisfying(ReplyException.class,
        e -> assertThat(e.failureType()).isEqualTo(ReplyFailure.NO_HANDLERS));
  }
}
