package dev.shepherd.bench;

/** Burns CPU for a while (the "CPU job" of the load generator). */
final class Spin {
  private static volatile long sink;

  private Spin() {}

  static void nanos(long nanos) {
    long end = System.nanoTime() + nanos;
    long x = 0;
    while (System.nanoTime() < end) {
      x += x * 31 + 7;
    }
    sink = x;
  }
}
