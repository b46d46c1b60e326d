package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/**
 * A worker whose early incarnations crash on a job and later ones run it, as a fix deployed
 * between a job's poisoning and its replay would (J5): payload {@code {"crashBelow": n,
 * "delayMs"?: m}} crashes every incarnation numbered below {@code n} (an {@code Error}, a crash
 * whatever the pool's {@code onException}) and on the others answers {@code {"worker",
 * "incarnation", "attempt"}} after {@code m} ms (a timer).
 */
public final class EarlyIncarnationsCrashWorker implements JobHandler {
  private WorkerContext context;

  /** The crash of an early incarnation. */
  static final class Breakdown extends Error {
    private static final long serialVersionUID = 1L;

    Breakdown(String message) {
      super(message);
    }
  }

  @Override
  public Future<Void> start(WorkerContext ctx) {
    this.context = ctx;
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    JsonObject payload = (JsonObject) job.payload();
    if (context.incarnation() < payload.getInteger("crashBelow", 0)) {
      throw new Breakdown("incarnation " + context.incarnation() + " cannot run " + job.id());
    }
    JsonObject result = new JsonObject().put("worker", job.worker())
        .put("incarnation", context.incarnation()).put("attempt", job.attempt());
    long delayMs = payload.getLong("delayMs", 0L);
    if (delayMs <= 0) {
      return Future.succeededFuture(result);
    }
    Promise<Object> later = Promise.promise();
    context.vertx().setTimer(delayMs, id -> later.complete(result));
    return later.future();
  }
}
