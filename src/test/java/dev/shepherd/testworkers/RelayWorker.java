package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * A worker that passes its job on over the event bus: it submits the payload to the address in
 * its config's {@code target} (default {@code shepherd.jobs.submit}) and answers with the reply
 * (the other pool's outcome). On a clustered Vert.x that pool may be on another node; with no
 * such pool in reach the job fails with the bus's error (no handlers, or a timeout).
 */
public final class RelayWorker implements JobHandler {
  private EventBus bus;
  private String target;

  @Override
  public Future<Void> start(WorkerContext context) {
    bus = context.vertx().eventBus();
    target = context.config().getString("target", "shepherd.jobs.submit");
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    return bus.request(target, new JsonObject().put("payload", job.payload()),
            new DeliveryOptions().setSendTimeout(5_000))
        .map(reply -> reply.body());
  }
}
