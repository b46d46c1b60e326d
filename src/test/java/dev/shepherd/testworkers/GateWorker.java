package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A worker a test in another process can hold and release: payload {@code {"gate": "<file>"}}
 * keeps the job running until that file exists (checked every 50 ms on a timer, so any threading
 * model works); any other payload completes at once with a small result naming its kind, so a
 * large payload is never echoed back.
 */
public final class GateWorker implements JobHandler {
  private WorkerContext context;

  @Override
  public Future<Void> start(WorkerContext context) {
    this.context = context;
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    Object payload = job.payload();
    if (payload instanceof JsonObject json && json.getValue("gate") instanceof String gate) {
      Promise<Object> opened = Promise.promise();
      Path file = Path.of(gate);
      context.vertx().setPeriodic(50, timer -> {
        if (Files.exists(file)) {
          context.vertx().cancelTimer(timer);
          opened.tryComplete(new JsonObject().put("released", gate));
        }
      });
      return opened.future();
    }
    String kind = payload == null ? "null"
        : payload instanceof JsonArray array ? "array of " + array.size()
        : payload instanceof String text ? "string of " + text.length()
        : payload.getClass().getSimpleName();
    return Future.succeededFuture(new JsonObject().put("received", kind));
  }
}
