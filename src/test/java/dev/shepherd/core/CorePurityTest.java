package dev.shepherd.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The core is pure (section 2): no Vert.x, no I/O, no threads or concurrency, no clock, no
 * randomness of its own. Time and randomness arrive as inputs.
 */
class CorePurityTest {

  private static final JavaClasses CORE = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.shepherd.core");

  static final ArchRule NO_VERTX_NOR_IO = noClasses()
      .that().resideInAPackage("dev.shepherd.core..")
      .should().dependOnClassesThat()
      .resideInAnyPackage("io.vertx..", "java.io..", "java.nio..", "java.net..")
      .because("the core is a pure state machine; the runtime does the I/O");

  static final ArchRule NO_THREADS = noClasses()
      .that().resideInAPackage("dev.shepherd.core..")
      .should().dependOnClassesThat().resideInAPackage("java.util.concurrent..")
      .orShould().dependOnClassesThat().belongToAnyOf(Thread.class)
      .because("the core is single-threaded; the coordinator's context serialises events");

  static final ArchRule NO_CLOCK = noClasses()
      .that().resideInAPackage("dev.shepherd.core..")
      .should().dependOnClassesThat().resideInAPackage("java.time..")
      .orShould().callMethod(System.class, "currentTimeMillis")
      .orShould().callMethod(System.class, "nanoTime")
      .because("time rides on events");

  static final ArchRule NO_RANDOMNESS = noClasses()
      .that().resideInAPackage("dev.shepherd.core..")
      .should().dependOnClassesThat().belongToAnyOf(Random.class, SplittableRandom.class)
      .because("jitter comes from a seeded source held in state");

  @Nested
  class Core {

    @Test
    void core_depends_on_no_vertx_and_no_io() {
      NO_VERTX_NOR_IO.check(CORE);
    }

    @Test
    void core_uses_no_threads_nor_concurrency_utilities() {
      NO_THREADS.check(CORE);
    }

    @Test
    void core_reads_no_clock() {
      NO_CLOCK.check(CORE);
    }

    @Test
    void core_draws_no_randomness_of_its_own() {
      NO_RANDOMNESS.check(CORE);
    }
  }

  /** The rules are not vacuous: each catches a class that breaks it. */
  @Nested
  class Guards {

    private static final JavaClasses OFFENDERS =
        new ClassFileImporter().importClasses(ClockReader.class, Sleeper.class, Dice.class);

    @Test
    void the_clock_rule_catches_a_clock_read() {
      assertThatThrownBy(() -> NO_CLOCK.check(OFFENDERS))
          .isInstanceOf(AssertionError.class).hasMessageContaining("currentTimeMillis");
    }

    @Test
    void the_thread_rule_catches_a_sleep() {
      assertThatThrownBy(() -> NO_THREADS.check(OFFENDERS))
          .isInstanceOf(AssertionError.class).hasMessageContaining("Thread");
    }

    @Test
    void the_randomness_rule_catches_a_random() {
      assertThatThrownBy(() -> NO_RANDOMNESS.check(OFFENDERS))
          .isInstanceOf(AssertionError.class).hasMessageContaining("Random");
    }
  }

  static final class ClockReader {
    long now() {
      return System.currentTimeMillis();
    }
  }

  static final class Sleeper {
    void nap() throws InterruptedException {
      Thread.sleep(1);
    }
  }

  static final class Dice {
    int roll() {
      return new Random().nextInt(6);
    }
  }
}
