package dev.shepherd.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.time.RuntimeClock;
import org.junit.jupiter.api.Test;

/** {@link TurnClock}: one reading a batch, a timer's fresh one shared after it, fresh outside. */
class TurnClockTest {
  /** A clock that moves only when told, and counts its reads. */
  private static final class Stepped implements RuntimeClock {
    long ms = 1_000;
    int reads;

    @Override
    public long monotonicMs() {
      reads++;
      return ms;
    }

    @Override
    public long wallMs() {
      return ms;
    }

    @Override
    public long wallOffsetMs() {
      return 0;
    }
  }

  private final Stepped clock = new Stepped();
  private final TurnClock turn = new TurnClock(clock);

  @Test
  void outside_a_batch_every_reading_is_fresh() {
    assertThat(turn.now()).isEqualTo(1_000);
    clock.ms = 1_005;
    assertThat(turn.now()).isEqualTo(1_005);
    assertThat(clock.reads).isEqualTo(2);
  }

  @Test
  void a_batch_shares_its_start_reading_until_it_ends() {
    turn.start();
    clock.ms = 1_050;
    assertThat(turn.now()).isEqualTo(1_000);
    assertThat(turn.now()).isEqualTo(1_000);
    assertThat(clock.reads).isEqualTo(1);

    turn.end();
    assertThat(turn.now()).isEqualTo(1_050);
  }

  @Test
  void a_fresh_reading_inside_a_batch_is_what_the_rest_of_it_shares() {
    turn.start();
    clock.ms = 1_020;

    assertThat(turn.fresh()).isEqualTo(1_020);
    clock.ms = 1_030;
    assertThat(turn.now()).isEqualTo(1_020);
  }

  @Test
  void a_fresh_reading_outside_a_batch_starts_none() {
    assertThat(turn.fresh()).isEqualTo(1_000);
    clock.ms = 1_010;
    assertThat(turn.now()).isEqualTo(1_010);
  }
}
