package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/**
 * A worker whose crashes depend on the attempt, to show what happens to a retried job: payload
 * {@code {"crashAttempts": n, "delayMs": m}} waits {@code m} ms (a timer, in any threading model),
 * then crashes its incarnation ({@link WorkerContext#crash}) on attempts 1..n and answers {@code
 * {"worker", "incarnation", "attempt"}} after.
 */
public final class FlakyWorker implements JobHandler {
  private WorkerContext context;

  @Override
  public Future<Void> start(WorkerContext ctx) {
    this.context = ctx;
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    JsonObject payload = (JsonObject) job.payload();
    int crashAttempts = payload.getInteger("crashAttempts", 0);
    long delayMs = payload.getLong("delayMs", 0L);
    if (delayMs <= 0) {
      return answer(job, crashAttempts);
    }
    Promise<Object> later = Promise.promise();
    context.vertx().setTimer(delayMs, id -> answer(job, crashAttempts).onComplete(later));
    return later.future();
  }

  private Future<Object> answer(Job job, int crashAttempts) {
    if (job.attempt() <= crashAttempts) {
      context.crash(new IllegalStateException("attempt " + job.attempt() + " of " + job.id()
          + " crashes"));
      return Promise.<Object>promise().future();
    }
    return Future.succeededFuture(new JsonObject()
        .put("worker", job.worker())
        .put("incarnation", job.incarnation())
        .put("attempt", job.attempt()));
  }
}
