package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * A worker that resumes from its checkpoint (T2 in docs/rules.md): without one it reports {@code
 * {"done": "first half"}} and crashes its incarnation; with one it answers {@code {"resumedFrom":
 * <the checkpoint>, "attempt": n}}.
 */
public final class CheckpointWorker implements JobHandler {
  private WorkerContext context;

  @Override
  public Future<Void> start(WorkerContext ctx) {
    this.context = ctx;
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    if (job.checkpoint() == null) {
      job.progress(new JsonObject().put("done", "first half"));
      // The report reaches the pool before the crash does (both go through its inbox, in order).
      context.vertx().setTimer(50, id -> context.crash(new IllegalStateException("half way")));
      return Future.future(p -> { });
    }
    return Future.succeededFuture(new JsonObject().put("resumedFrom", job.checkpoint())
        .put("attempt", job.attempt()));
  }
}
