package dev.shepherd.runtime.slot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.slot.IncarnationVerticle.Life;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An incarnation's life ({@link IncarnationVerticle.Life}): the moves it may make, written down
 * once, and which of its states still run jobs.
 */
class IncarnationLifeTest {

  private static Set<Life> next(Life from) {
    Set<Life> legal = EnumSet.noneOf(Life.class);
    for (Life to : Life.values()) {
      if (from.mayMoveTo(to)) {
        legal.add(to);
      }
    }
    return legal;
  }

  @Test
  void legal_moves() {
    assertThat(next(Life.RUNNING)).containsExactlyInAnyOrder(Life.EXITING, Life.RELEASED,
        Life.CRASHED, Life.STOPPED);
    assertThat(next(Life.EXITING)).containsExactlyInAnyOrder(Life.EXITED, Life.CRASHED,
        Life.STOPPED);
    assertThat(next(Life.RELEASED)).containsExactlyInAnyOrder(Life.CRASHED, Life.STOPPED);
    assertThat(next(Life.CRASHED)).containsExactly(Life.STOPPED);
    assertThat(next(Life.EXITED)).containsExactly(Life.STOPPED);
    assertThat(next(Life.STOPPED)).as("a stop by its slot is final").isEmpty();
  }

  @Test
  void a_crash_or_an_exit_is_reported_at_most_once_because_no_state_moves_back() {
    for (Life from : Life.values()) {
      assertThat(next(from)).doesNotContain(Life.RUNNING);
      if (from == Life.CRASHED || from == Life.EXITED || from == Life.STOPPED) {
        assertThat(next(from)).doesNotContain(Life.CRASHED, Life.EXITED);
      }
    }
  }

  @Test
  void only_a_running_exiting_or_released_incarnation_runs_jobs() {
    assertThat(EnumSet.allOf(Life.class).stream().filter(Life::runsJobs))
        .containsExactlyInAnyOrder(Life.RUNNING, Life.EXITING, Life.RELEASED);
  }
}
