package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;

/**
 * A worker that breaks the JobHandler contract on purpose. Worker config {@code {"throwOnStart":
 * true}} throws from start() instead of returning a failed future, {@code {"crashOnStart": true}}
 * calls {@link WorkerContext#crash} there and returns a succeeded one; payload {@code "null"}
 * makes handle() return null instead of a future. Anything else is echoed.
 */
public final class ContractBreakingWorker implements JobHandler {

  @Override
  public Future<Void> start(WorkerContext context) {
    if (context.config().getBoolean("throwOnStart", false)) {
      throw new IllegalStateException("start() threw");
    }
    if (context.config().getBoolean("crashOnStart", false)) {
      context.crash(new IllegalStateException("start() crashed"));
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    if ("null".equals(job.payload())) {
      return null;
    }
    return Future.succeededFuture(job.payload());
  }
}
