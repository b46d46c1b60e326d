package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Reports which thread and context it runs on: {@code {"startThread", "thread", "ownContext",
 * "deployment"}}, where {@code ownContext} says a job runs on the context its start ran on.
 */
public final class LoopReportWorker implements JobHandler {
  private WorkerContext context;
  private String startThread;

  @Override
  public Future<Void> start(WorkerContext ctx) {
    this.context = ctx;
    this.startThread = Thread.currentThread().getName();
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    return Future.succeededFuture(new JsonObject().put("startThread", startThread)
        .put("thread", Thread.currentThread().getName())
        .put("ownContext", Vertx.currentContext() == context.context())
        .put("deployment", context.context().deploymentID()));
  }
}
