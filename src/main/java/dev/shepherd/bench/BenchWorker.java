package dev.shepherd.bench;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** The load generator's worker: echoes the payload, after burning {@code spinNanos} of CPU. */
public final class BenchWorker implements JobHandler {

  @Override
  public Future<Object> handle(Job job) {
    Object payload = job.payload();
    if (payload instanceof JsonObject json) {
      long spin = json.getLong("spinNanos", 0L);
      if (spin > 0) {
        Spin.nanos(spin);
      }
    }
    return Future.succeededFuture(payload);
  }
}
