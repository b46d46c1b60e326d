package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The delays of a {@link Backoff}, exactly (J3 and S5 in docs/rules.md). */
class BackoffDelayTest {

  @Test
  void J3_the_nth_wait_is_initial_times_multiplier_to_the_n_minus_one_capped_at_max() {
    Backoff backoff = new Backoff(100, 2.0, 1_000, 0.0);
    assertThat(backoff.delay(1, 0.5)).isEqualTo(100);
    assertThat(backoff.delay(2, 0.5)).isEqualTo(200);
    assertThat(backoff.delay(3, 0.5)).isEqualTo(400);
    assertThat(backoff.delay(5, 0.5)).isEqualTo(1_000);
    assertThat(backoff.delay(0, 0.5)).as("n below 1 waits as the first").isEqualTo(100);
  }

  @Test
  void S5_the_jitter_spreads_a_wait_by_plus_or_minus_its_fraction_and_never_past_max() {
    Backoff backoff = new Backoff(1_000, 1.0, 1_200, 0.5);
    assertThat(backoff.delay(1, 0.0)).isEqualTo(500);
    assertThat(backoff.delay(1, 0.5)).isEqualTo(1_000);
    assertThat(backoff.delay(1, 0.75)).isEqualTo(1_200);
    assertThat(new Backoff(1, 1.0, 10, 1.0).delay(1, 0.0)).as("at least 1 ms").isEqualTo(1);
  }

  @Test
  void J3_an_initial_wait_of_zero_never_waits() {
    assertThat(Backoff.NONE.none()).isTrue();
    assertThat(Backoff.NONE.delay(3, 0.9)).isZero();
    assertThat(new Backoff(1, 1.0, 1, 0.0).none()).isFalse();
  }

  @Test
  void P1_a_backoff_accepts_its_bounds_and_refuses_what_lies_past_them_naming_the_field() {
    new Backoff(0, 1.0, 0, 0.0);
    new Backoff(5, 1.0, 5, 1.0);
    assertThatThrownBy(() -> Backoff.of("retryBackoff", -1, 1.0, 5, 0.0))
        .hasMessageContaining("retryBackoff.initialMs");
    assertThatThrownBy(() -> Backoff.of("retryBackoff", 6, 1.0, 5, 0.0))
        .hasMessageContaining("retryBackoff.maxMs");
    assertThatThrownBy(() -> Backoff.of("retryBackoff", 1, 0.99, 5, 0.0))
        .hasMessageContaining("retryBackoff.multiplier");
    assertThatThrownBy(() -> Backoff.of("retryBackoff", 1, Double.POSITIVE_INFINITY, 5, 0.0))
        .hasMessageContaining("retryBackoff.multiplier");
    assertThatThrownBy(() -> Backoff.of("retryBackoff", 1, 1.0, 5, -0.01))
        .hasMessageContaining("retryBackoff.jitter");
    assertThatThrownBy(() -> Backoff.of("retryBackoff", 1, 1.0, 5, 1.01))
        .hasMessageContaining("retryBackoff.jitter");
    assertThat(Backoff.of("retryBackoff", 1, 1.0, 5, 1.0)).isEqualTo(new Backoff(1, 1.0, 5, 1.0));
    assertThatThrownBy(() -> new Backoff(-1, 1.0, 5, 0.0)).hasMessageContaining("backoff.initialMs");
  }

  @Test
  void P1_a_retention_keeps_zero_or_more_entries_in_at_least_one_byte_naming_the_field() {
    assertThat(Retention.of("deadLetter", 0, 1)).isEqualTo(new Retention(0, 1));
    assertThatThrownBy(() -> Retention.of("deadLetter", -1, 1))
        .hasMessageContaining("deadLetter.capacity");
    assertThatThrownBy(() -> Retention.of("deadLetter", 1, 0))
        .hasMessageContaining("deadLetter.maxBytes");
    assertThatThrownBy(() -> new Retention(-1, 1)).hasMessageContaining("capacity");
    assertThatThrownBy(() -> new Retention(1, 0)).hasMessageContaining("maxBytes");
  }
}
