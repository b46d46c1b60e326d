package dev.shepherd.runtime;

import io.vertx.core.Future;

/**
 * What users implement to be a worker. The pool creates one instance per incarnation (public
 * no-argument constructor), calls {@link #start} on the incarnation's context, then {@link
 * #handle} for each assignment, at most {@code maxConcurrency} at a time.
 *
 * <p>Return a succeeded future with the result, or a failed one when the job ran and failed (the
 * worker stays healthy, the job is answered {@code failed} and not retried). Throwing instead, or
 * letting an exception reach the incarnation's context, is a crash: the incarnation is stopped
 * and the supervisor decides what follows.
 */
public interface JobHandler {

  /** Called once when the incarnation deploys; a failed future or a throw rejects the creation. */
  default Future<Void> start(WorkerContext context) {
    return Future.succeededFuture();
  }

  /**
   * Runs one job. The future's value is the job's result: an in-JVM {@link PoolClient} gets it as
   * it is, and over the bus or HTTP a JSON value, map or list is sent as JSON and anything else
   * as its string form. Declare the future's type you return, such as {@code Future<JsonObject>}.
   */
  Future<?> handle(Job job);

  /** Called once when the incarnation is undeployed. */
  default Future<Void> stop() {
    return Future.succeededFuture();
  }
}
