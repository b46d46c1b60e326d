package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.shepherd.core.ConfigException;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The VIRTUAL_THREAD threading model (section 6): refused on Java 17 with a message naming {@code
 * worker.threading}; working end to end on Java 21+, proven in a child JVM of that version
 * ({@code JAVA21_HOME}, or the Temurin 25 of these machines) running {@link VirtualThreadMain}.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VirtualThreadTest {

  @Test
  void virtual_threads_run_jobs_sleeps_throws_and_crashes_on_java_21_or_newer() {
    Optional<Path> java = ChildJvm.java21OrNewer();
    assumeTrue(java.isPresent(),
        "no JDK 21+ found (set JAVA21_HOME, or install /usr/lib/jvm/temurin-25-jdk-amd64)");

    try (ChildJvm child = ChildJvm.start(java.get(), VirtualThreadMain.class)) {
      int status = child.waitFor(Duration.ofSeconds(45));

      String report = child.stdout();
      assertThat(report).as("stderr:%n%s", child.stderr()).contains("VERDICT OK")
          .doesNotContain("FAIL");
      assertThat(report.lines().filter(l -> l.startsWith("CHECK ")).count()).isEqualTo(7);
      assertThat(status).isZero();
    }
  }

  @Test
  void virtual_thread_configuration_is_refused_on_java_17_naming_worker_threading(Vertx vertx) {
    assumeTrue(Runtime.version().feature() < 21, "this JVM has virtual threads");
    JsonObject config = demoPool("vt", 1);
    worker(config).put("threading", "VIRTUAL_THREAD");

    Throwable error = failure(vertx.deployVerticle(new PoolVerticle(),
        new DeploymentOptions().setConfig(config)));

    assertThat(error).isInstanceOfSatisfying(ConfigException.class,
        e -> assertThat(e.field()).isEqualTo("worker.threading"));
    assertThat(error.getMessage()).startsWith("worker.threading: ").contains("21")
        .contains("VIRTUAL_THREAD");
    PoolConfigValidationTest.assertNothingDeployed(vertx, "vt");
  }
}
