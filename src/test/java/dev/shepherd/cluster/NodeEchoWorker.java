package dev.shepherd.cluster;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/**
 * A worker of the HA tests that says where it ran: after {@code sleepMs} of its payload it
 * answers {@code {"node", "worker", "key", "echo"}}, {@code node} being the test's name of the
 * JVM ({@code -Dshepherd.node}), so a submitter can tell which coordinator's worker answered.
 */
public final class NodeEchoWorker implements JobHandler {
  private WorkerContext context;

  @Override
  public Future<Void> start(WorkerContext ctx) {
    this.context = ctx;
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    JsonObject payload = job.payload() instanceof JsonObject json ? json : new JsonObject();
    Promise<Object> done = Promise.promise();
    long sleepMs = Math.max(1, payload.getLong("sleepMs", 1L));
    context.vertx().setTimer(sleepMs, id -> done.complete(new JsonObject()
        .put("node", System.getProperty("shepherd.node", "?"))
        .put("worker", job.worker()).put("key", job.key())
        .put("echo", payload.getValue("echo"))));
    return done.future();
  }
}
