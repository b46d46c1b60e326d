package dev.shepherd.runtime;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.SystemClock;
import org.junit.jupiter.api.Test;

/**
 * One clock at the edge (issue 16): {@link SystemClock} is the only reader of the wall clock in
 * the runtime, the cluster package and the web layer, so no deadline can be measured on it; and
 * the system clock's conversions are steady: a time shown twice, or journaled and read back,
 * comes out the same while nobody steps the wall clock.
 */
class OneClockTest {

  private static final JavaClasses SHEPHERD = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.shepherd");

  static final ArchRule ONE_WALL_CLOCK_READER = noClasses()
      .that().resideInAnyPackage("dev.shepherd.runtime..", "dev.shepherd.cluster..",
          "dev.shepherd.web..")
      .and().doNotBelongToAnyOf(SystemClock.class)
      .should().callMethod(System.class, "currentTimeMillis")
      .because("deadlines, leases and heartbeats run on RuntimeClock's monotonic time; the wall"
          + " clock only labels what people read, through RuntimeClock");

  @Test
  void only_SystemClock_reads_the_wall_clock() {
    ONE_WALL_CLOCK_READER.check(SHEPHERD);
  }

  @Test
  void the_system_clocks_wall_offset_stays_put_between_reads() {
    RuntimeClock clock = RuntimeClock.system();
    long first = clock.wallOffsetMs();

    for (int i = 0; i < 100_000; i++) {
      assertThat(clock.wallOffsetMs()).isEqualTo(first);
    }
  }

  @Test
  void a_time_converted_to_wall_time_and_back_is_the_same() {
    RuntimeClock clock = RuntimeClock.system();
    long deadline = clock.monotonicMs() + 60_000;

    assertThat(clock.monotonicAt(clock.wallAt(deadline))).isEqualTo(deadline);
  }

  @Test
  void monotonic_time_never_goes_back() {
    RuntimeClock clock = RuntimeClock.system();
    long last = clock.monotonicMs();
    for (int i = 0; i < 100_000; i++) {
      long now = clock.monotonicMs();
      assertThat(now).isGreaterThanOrEqualTo(last);
      last = now;
    }
  }
}
