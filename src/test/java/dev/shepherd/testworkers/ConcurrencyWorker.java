package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A worker that measures its own concurrency: each job waits {@code sleepMs} of its payload (a
 * timer, so jobs overlap on any threading model) and answers {@code {"worker", "incarnation",
 * "concurrent"}}, where {@code concurrent} is how many of this incarnation's jobs were running
 * when it started, itself included.
 */
public final class ConcurrencyWorker implements JobHandler {
  private final AtomicInteger running = new AtomicInteger();
  private Vertx vertx;

  @Override
  public Future<Void> start(WorkerContext context) {
    vertx = context.vertx();
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    int concurrent = running.incrementAndGet();
    long sleepMs = job.payload() instanceof JsonObject payload ? payload.getLong("sleepMs", 20L)
        : 20L;
    Promise<Object> done = Promise.promise();
    vertx.setTimer(Math.max(1, sleepMs), id -> {
      running.decrementAndGet();
      done.complete(new JsonObject().put("worker", job.worker())
          .put("incarnation", job.incarnation()).put("concurrent", concurrent));
    });
    return done.future();
  }
}
