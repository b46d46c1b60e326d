package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Affinity hashing and the jitter source are fixed functions (P4 and S5 in docs/rules.md): a key
 * lands on the same slot and a run replays the same waits on every node and every release, so
 * their values are pinned here.
 */
class HashingTest {

  @Test
  void P4_key_hashing_is_fnv1a_finished_by_splitmix64_with_pinned_values() {
    assertThat(Hashing.mix64(0)).isZero();
    assertThat(Hashing.mix64(1)).isEqualTo(mix(1));
    assertThat(Hashing.hash64("")).isEqualTo(mix(0xcbf29ce484222325L));
    long fnv = (0xcbf29ce484222325L ^ 'a') * 0x100000001b3L;
    fnv = (fnv ^ 'b') * 0x100000001b3L;
    assertThat(Hashing.hash64("ab")).isEqualTo(mix(fnv));
    assertThat(Hashing.hash64("ab")).isNotEqualTo(Hashing.hash64("ba"));
  }

  @Test
  void S5_the_jitter_source_is_splitmix64_in_0_1_and_replays_from_its_seed() {
    Jitter jitter = new Jitter(7);
    double first = jitter.next();
    assertThat(jitter.state()).isEqualTo(7 + 0x9e3779b97f4a7c15L);
    assertThat(first).isEqualTo((mix(7 + 0x9e3779b97f4a7c15L) >>> 11) * 0x1.0p-53);
    assertThat(first).isBetween(0.0, 1.0).isNotEqualTo(1.0);
    double second = jitter.next();
    assertThat(jitter.state()).isEqualTo(7 + 2 * 0x9e3779b97f4a7c15L);
    Jitter again = new Jitter(7);
    assertThat(again.next()).isEqualTo(first);
    assertThat(again.next()).isEqualTo(second);
  }

  /** The SplitMix64 finaliser as published (Steele, Lea, Flood 2014), written out once more. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
