package dev.shepherd.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.shepherd.LogCapture;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.Retention;
import dev.shepherd.runtime.OnException;
import dev.shepherd.runtime.PoolConfig;
import io.vertx.core.ThreadingModel;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * A takeover rehearsed while a node stands by (A3 in docs/rules.md: a takeover runs warm code):
 * the real coordinator leads, recovers and answers every made-up job on its local slots (its
 * invariants checked, as everywhere under {@code -ea}), without ever making the pool's handler,
 * and logs nothing.
 */
class TakeoverRehearsalTest {
  /** A durable pool of two local slots whose handler must never be made. */
  private static PoolConfig config() {
    PoolSettings settings = PoolSettings.defaults("rehearsed", 2).withDurable(true);
    return new PoolConfig(settings, null, ThreadingModel.EVENT_LOOP, new JsonObject(), "shepherd",
        PoolConfig.DEFAULT_MAX_PAYLOAD_DEPTH, PoolConfig.DEFAULT_HEARTBEAT_TIMEOUT_MS, true,
        OnException.FAIL_JOB, () -> {
          throw new AssertionError("a rehearsal made the pool's handler");
        });
  }

  @Test
  void A3_a_rehearsed_takeover_answers_every_made_up_job_and_logs_nothing() {
    try (LogCapture log = LogCapture.start("dev.shepherd")) {
      assertThat(TakeoverRehearsal.run(config(), 2_000)).isEqualTo(2_000);

      assertThat(log.events()).noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.INFO)
          && e.getLoggerName().startsWith("dev.shepherd"));
    }
  }

  @Test
  void A3_a_rehearsal_of_no_jobs_ends_at_once() {
    assertThat(TakeoverRehearsal.run(config(), 0)).isZero();
  }

  @Test
  void A3_a_rehearsal_keeps_within_the_outcomes_a_pool_remembers() {
    PoolSettings settings = config().settings();
    PoolConfig remembering = config().withSettings(settings.withJobs(settings.jobs()
        .withRecentOutcomes(new Retention(100, Long.MAX_VALUE))));

    assertThat(TakeoverRehearsal.run(remembering, 500)).isEqualTo(500);
  }
}
