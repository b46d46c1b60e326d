package dev.shepherd.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.time.RuntimeClock;
import org.junit.jupiter.api.Test;

/** {@link TurnClock}: one reading a batch, a timer's fresh one shared after it, fresh outside. */
class TurnClockTest {
  /** A clock that moves only when told, and counts its reads. */
  private static final class Stepped implements RuntimeClock {
    long ms = 1_000;
    long wall = 1_700_000_000_000L;
    int reads;
    int wallReads;

    @Override
    public long monotonicMs() {
      reads++;
      return ms;
    }

    @Override
    public long wallMs() {
      wallReads++;
      return wall;
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

  @Test
  void a_batch_reads_the_wall_clock_once_when_first_asked_and_shares_it() {
    turn.start();
    assertThat(clock.wallReads).isZero();
    assertThat(turn.wallNow()).isEqualTo(1_700_000_000_000L);
    clock.wall += 40;
    assertThat(turn.wallNow()).isEqualTo(1_700_000_000_000L);
    assertThat(clock.wallReads).isEqualTo(1);

    turn.end();
    assertThat(turn.wallNow()).isEqualTo(1_700_000_000_040L);
    clock.wall += 5;
    assertThat(turn.wallNow()).isEqualTo(1_700_000_000_045L);
    assertThat(clock.wallReads).isEqualTo(3);
  }

  @Test
  void the_next_batch_or_a_fresh_reading_reads_the_wall_clock_again() {
    turn.start();
    assertThat(turn.wallNow()).isEqualTo(1_700_000_000_000L);
    turn.end();
    clock.wall += 7;
    turn.start();
    assertThat(turn.wallNow()).isEqualTo(1_700_000_000_007L);

    clock.wall += 3;
    turn.fresh();
    assertThat(turn.wallNow()).isEqualTo(1_700_000_000_010L);
    assertThat(clock.wallReads).isEqualTo(3);
  }
}
