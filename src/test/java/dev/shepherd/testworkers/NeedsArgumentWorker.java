package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import io.vertx.core.Future;

/** A JobHandler the pool cannot create: it has no public no-argument constructor. */
public final class NeedsArgumentWorker implements JobHandler {
  private final String greeting;

  public NeedsArgumentWorker(String greeting) {
    this.greeting = greeting;
  }

  @Override
  public Future<Object> handle(Job job) {
    return Future.succeededFuture(greeting);
  }
}
