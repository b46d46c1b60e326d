package dev.shepherd.bench;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * What the rounds of one benchmark mode add up to: jobs, wall time, the CPU time of each of two
 * JVMs, the cluster messages each way, and every job's latency (µs). Rates and costs are totals
 * over totals, so a short round weighs no more than its jobs.
 */
final class Tally {
  final Histogram latency = new Histogram(60_000_000L, 3);
  private long jobs;
  private long elapsedNanos;
  private long cpuNanosA;
  private long cpuNanosB;
  private long messagesOut;
  private long messagesIn;
  private int rounds;

  void add(long jobs, long elapsedNanos, long cpuNanosA, long cpuNanosB, long messagesOut,
      long messagesIn, Histogram latency) {
    this.jobs += jobs;
    this.elapsedNanos += elapsedNanos;
    this.cpuNanosA += cpuNanosA;
    this.cpuNanosB += cpuNanosB;
    this.messagesOut += messagesOut;
    this.messagesIn += messagesIn;
    this.latency.add(latency);
    rounds++;
  }

  double rate() {
    return jobs * 1e9 / elapsedNanos;
  }

  long p50() {
    return latency.getValueAtPercentile(50);
  }

  /** One line: rate, latency percentiles, CPU per job on each side, messages per job. */
  String line(String kind, String mode, int window) {
    return String.format(Locale.ROOT,
        "%-5s %-5s inflight=%-4d %8.0f jobs/s  p50=%6d us  p99=%6d us  p99.9=%6d us"
            + "  cpu/job A+B=%5.1f+%5.1f=%5.1f us  msgs/job A->B %.3f B->A %.3f  (%d jobs, %d rounds)",
        kind, mode, window, rate(), p50(), latency.getValueAtPercentile(99),
        latency.getValueAtPercentile(99.9), cpuNanosA / 1000.0 / jobs,
        cpuNanosB / 1000.0 / jobs, (cpuNanosA + cpuNanosB) / 1000.0 / jobs,
        (double) messagesOut / jobs, (double) messagesIn / jobs, jobs, rounds);
  }
}
