package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/** A worker whose start() never completes, like one waiting forever on a dependency. */
public final class NeverStartsWorker implements JobHandler {

  @Override
  public Future<Void> start(WorkerContext context) {
    return Promise.<Void>promise().future();
  }

  @Override
  public Future<Object> handle(Job job) {
    return Future.succeededFuture(job.payload());
  }
}
