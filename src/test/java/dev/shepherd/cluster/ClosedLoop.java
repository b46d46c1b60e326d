package dev.shepherd.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** The benchmarks' closed loop: a number of submits always in flight, each answered one replaced. */
final class ClosedLoop {
  private ClosedLoop() {}

  /**
   * Jobs per second answered with {@code inFlight} of {@code submit} always outstanding for
   * {@code ms}, submitted from {@code vertx}'s context; a failed submit is not counted.
   */
  static double jobsPerSecond(Vertx vertx, int inFlight, long ms, Supplier<Future<?>> submit)
      throws Exception {
    AtomicLong done = new AtomicLong();
    long end = System.currentTimeMillis() + ms;
    CompletableFuture<Void> finished = new CompletableFuture<>();
    AtomicLong outstanding = new AtomicLong(inFlight);
    Runnable[] one = new Runnable[1];
    one[0] = () -> {
      if (System.currentTimeMillis() >= end) {
        if (outstanding.decrementAndGet() == 0) {
          finished.complete(null);
        }
        return;
      }
      submit.get().onComplete(ar -> {
        if (ar.succeeded()) {
          done.incrementAndGet();
        }
        one[0].run();
      });
    };
    long start = System.currentTimeMillis();
    vertx.runOnContext(v -> {
      for (int i = 0; i < inFlight; i++) {
        one[0].run();
      }
    });
    finished.get(ms + 60_000, TimeUnit.MILLISECONDS);
    return done.get() * 1000.0 / (System.currentTimeMillis() - start);
  }
}
