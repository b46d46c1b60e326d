package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/**
 * A worker that crashes at random but reproducibly: attempt {@code a} of job {@code j} crashes when
 * a hash of {@code (j, a)} falls under {@code crashPercent} of the payload ({@link
 * WorkerContext#crash}). Otherwise it answers {@code {"job", "attempt", "worker"}} at once.
 */
public final class ChaosWorker implements JobHandler {
  private WorkerContext context;

  @Override
  public Future<Void> start(WorkerContext ctx) {
    this.context = ctx;
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    JsonObject payload = (JsonObject) job.payload();
    int percent = payload.getInteger("crashPercent", 0);
    int roll = Math.floorMod((job.id() + "#" + job.attempt()).hashCode() * 0x9E3779B1, 100);
    if (roll < percent) {
      context.crash(new IllegalStateException("chaos: " + job.id() + " attempt " + job.attempt()));
      return Promise.<Object>promise().future();
    }
    return Future.succeededFuture(new JsonObject().put("job", job.id())
        .put("attempt", job.attempt()).put("worker", job.worker()));
  }
}
