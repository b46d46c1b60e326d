package dev.shepherd.core;

/**
 * A seeded SplitMix64 sequence for restart-backoff jitter: the randomness is an input (the seed)
 * held in state, so a run replays exactly.
 */
final class Jitter {
  private long state;

  Jitter(long seed) {
    this.state = seed;
  }

  /** The next draw, uniform in [0, 1). */
  double next() {
    state += 0x9e3779b97f4a7c15L;
    return (Hashing.mix64(state) >>> 11) * 0x1.0p-53;
  }

  long state() {
    return state;
  }
}
