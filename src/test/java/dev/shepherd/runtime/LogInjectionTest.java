package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.idleAt;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.shepherd.LogCapture;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.slot.IncarnationRunner;
import dev.shepherd.testworkers.UnencodableResultWorker;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * Text from outside (job ids, worker messages, crash causes, result keys) reaches the log only
 * quoted and escaped: a newline or a Unicode line separator in it cannot start a log line of its
 * own. Here the log line is the feature, so the test reads the log as written.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LogInjectionTest {
  private static final String FORGED = "ERROR dev.shepherd.pool - pool jobs: FORGED";

  private static void assertNoForgedLine(List<String> lines) {
    assertThat(lines).isNotEmpty();
    assertThat(lines).noneMatch(line -> line.startsWith("ERROR") || line.startsWith("FORGED")
        || line.contains("\u2028") || line.contains("\r"));
  }

  @Test
  void a_newline_in_a_job_id_and_crash_message_cannot_forge_a_log_line(Vertx vertx) {
    deployReady(vertx, demoPool("jobs", 1));
    Logger slot = (Logger) LoggerFactory.getLogger(IncarnationRunner.class);
    Level before = slot.getLevel();
    slot.setLevel(Level.DEBUG);
    try (LogCapture log = LogCapture.start()) {
      for (String separator : List.of("\n", "\r\n", "\r", "\u2028", "\u0085")) {
        Outcome outcome = run(vertx, "jobs", JobRequest.of(crash())
            .withJob("j" + separator + FORGED + separator));
        assertThat(outcome).isInstanceOf(Outcome.Interrupted.class);
      }
      awaitStatus(vertx, "jobs", idleAt("w-0", 6));

      List<String> crashed = log.lines().stream().filter(l -> l.contains("crashed:")).toList();
      assertThat(crashed).hasSize(5)
          .allMatch(l -> l.startsWith("WARN ") && l.contains("crash requested by job j\\"));
      assertNoForgedLine(log.lines());
    } finally {
      slot.setLevel(before);
    }
  }

  @Test
  void a_newline_in_a_result_key_cannot_forge_a_log_line(Vertx vertx) {
    JsonObject pool = demoPool("odd", 1);
    worker(pool).put("class", UnencodableResultWorker.class.getName());
    deployReady(vertx, pool);
    try (LogCapture log = LogCapture.start()) {
      Outcome failed = run(vertx, "odd", JobRequest.of(new JsonObject()
          .put("threadUnder", "k\n" + FORGED)).withJob("j\n" + FORGED));
      assertThat(failed).isInstanceOf(Outcome.Failed.class);

      List<String> warned = log.lines().stream()
          .filter(l -> l.contains("RESULT_NOT_ENCODABLE")).toList();
      assertThat(warned).hasSize(1);
      assertNoForgedLine(log.lines());
    }
  }
}
