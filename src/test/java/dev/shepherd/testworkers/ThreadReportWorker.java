package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Reports where it runs: {@code {"threadingModel", "virtual"}}; {@code virtual} is read through
 * the public {@code Thread.isVirtual()} of Java 21+ (false on older JVMs, which lack it).
 */
public final class ThreadReportWorker implements JobHandler {
  private WorkerContext context;

  @Override
  public Future<Void> start(WorkerContext ctx) {
    this.context = ctx;
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    return Future.succeededFuture(new JsonObject()
        .put("threadingModel", context.context().threadingModel().name())
        .put("virtual", isVirtual(Thread.currentThread())));
  }

  private static boolean isVirtual(Thread thread) {
    try {
      return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }
}
