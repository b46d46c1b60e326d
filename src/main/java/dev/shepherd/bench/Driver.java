package dev.shepherd.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
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

  Driver(Supplier<Future<?>> request, int total, Histogram latency) {
    this.request = request;
    this.total = total;
    this.latency = latency;
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

  private void next() {
    started++;
    long start = System.nanoTime();
    request.get().onComplete(ar -> {
      latency.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
      if (ar.failed()) {
        failed++;
      }
      finished++;
      if (started < total) {
        next();
      } else if (finished == total) {
        done.complete();
      }
    });
  }
}
