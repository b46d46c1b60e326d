package dev.shepherd.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.lang.management.ManagementFactory;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * Keeps {@code inflight} requests outstanding until {@code total} have completed, recording each
 * request's latency. Runs on one Vert.x context; {@code request} is called there.
 */
final class Driver {
  private final Supplier<Future<?>> request;
  private final int total;
  private final Histogram latency;
  private final Promise<Void> done = Promise.promise();
  private int started;
  private int finished;
  private int failed;
  /** Requests due to start once the current {@link #next} call returns. */
  private int queued;
  private boolean starting;

  Driver(Supplier<Future<?>> request, int total, Histogram latency) {
    this.request = request;
    this.total = total;
    this.latency = latency;
  }

  /** What one measured run took: its wall time, the process's CPU time and each latency. */
  record Run(int count, long elapsedNanos, long cpuNanos, Histogram latency) {}

  /**
   * Runs {@code count} requests with {@code window} outstanding on {@code context} and measures
   * them; fails naming {@code what} if any request failed.
   */
  static Run measure(Context context, Supplier<Future<?>> request, int count, int window,
      String what) {
    Histogram latency = new Histogram(60_000_000L, 3);
    Promise<Driver> done = Promise.promise();
    long cpuBefore = processCpuNanos();
    long start = System.nanoTime();
    context.runOnContext(v -> {
      Driver driver = new Driver(request, count, latency);
      driver.run(window).onComplete(ar -> done.complete(driver));
    });
    Driver driver = done.future().await();
    long elapsed = System.nanoTime() - start;
    long cpu = processCpuNanos() - cpuBefore;
    if (driver.failed() > 0) {
      throw new IllegalStateException(what + ": " + driver.failed() + " of " + count + " failed");
    }
    return new Run(count, elapsed, cpu, latency);
  }

  /** The CPU time this process has used, in nanoseconds. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  Future<Void> run(int inflight) {
    for (int i = 0; i < Math.min(inflight, total); i++) {
      next();
    }
    return done.future();
  }

  int failed() {
    return failed;
  }

  /**
   * Starts one more request. A request whose future is already complete when it is made (a
   * refusal, an answer on this thread) would start the next from inside this call; they are
   * queued instead and started by the outermost call, so the stack stays flat.
   */
  private void next() {
    queued++;
    if (starting) {
      return;
    }
    starting = true;
    try {
      while (queued > 0) {
        queued--;
        start();
      }
    } finally {
      starting = false;
    }
  }

  private void start() {
    started++;
    long start = System.nanoTime();
    request.get().onComplete(ar -> {
      latency.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
      if (ar.failed()) {
        failed++;
      }
      finished++;
      if (started + queued < total) {
        next();
      } else if (finished == total) {
        done.complete();
      }
    });
  }
}
