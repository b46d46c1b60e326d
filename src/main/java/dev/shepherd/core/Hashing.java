package dev.shepherd.core;

/** Stable 64-bit hashing for affinity (not String.hashCode: 32 bits, and weak in the low bits). */
final class Hashing {
  private Hashing() {}

  /** FNV-1a over the UTF-16 code units, finished with {@link #mix64}. */
  static long hash64(String text) {
    long hash = 0xcbf29ce484222325L;
    for (int i = 0; i < text.length(); i++) {
      hash ^= text.charAt(i);
      hash *= 0x100000001b3L;
    }
    return mix64(hash);
  }

  /** The SplitMix64 finaliser: every input bit affects every output bit. */
  static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
