package dev.shepherd.runtime;

import dev.shepherd.runtime.slot.JobErrors;
import io.vertx.core.Future;

/**
 * What users implement to be a worker. The pool creates one instance per incarnation (by the
 * public no-argument constructor of the class {@code worker.class} names, or with the factory
 * given to {@link PoolVerticle#PoolVerticle(java.util.function.Supplier)}), calls {@link #start}
 * on the incarnation's context, then {@link #handle} for each assignment, at most {@code
 * maxConcurrency} at a time. {@code handle} is its one abstract method, so a handler that needs
 * no start or stop can be a lambda: {@code new PoolVerticle(() -> job -> …)}.
 *
 * <p>The contract (J1 in docs/rules.md), the same in every threading model and on worker hosts:
 *
 * <ul>
 *   <li>A succeeded future: the job is answered {@code completed} with its value.
 *   <li>A failed future (with any throwable), or an {@link Exception} thrown by {@code handle}
 *       (checked or not): the job ran and failed. It is answered {@code failed} with {@code
 *       "error": {"code", "message", "type"}} ({@code type} the exception's class name, {@code
 *       code} 500 unless the failure chose one, see {@link JobErrors}); the incarnation keeps
 *       serving and nothing is charged to the restart budget. A pool whose {@code
 *       worker.onException} is {@code CRASH} reads a thrown exception as a crash instead.
 *   <li>A crash (exit {@code CRASH}): an {@link Error} thrown by {@code handle}, a null future,
 *       an exception that reaches the incarnation's context outside any job's future (a timer or
 *       a callback that throws), or {@link WorkerContext#crash}. The incarnation is stopped, its
 *       jobs are interrupted (P9) and the supervisor decides what follows.
 * </ul>
 */
@FunctionalInterface
public interface JobHandler {

  /** Called once when the incarnation deploys; a failed future or a throw rejects the creation. */
  default Future<Void> start(WorkerContext context) {
    return Future.succeededFuture();
  }

  /**
   * Runs one job. The future's value is the job's result: an in-JVM {@link PoolClient} gets it as
   * it is, and over the bus or HTTP a JSON value, map or list is sent as JSON and anything else
   * as its string form. Declare the future's type you return, such as {@code Future<JsonObject>}.
   *
   * @throws Exception to fail the job (J1 in docs/rules.md), as a failed future would
   */
  Future<?> handle(Job job) throws Exception;

  /** Called once when the incarnation is undeployed. */
  default Future<Void> stop() {
    return Future.succeededFuture();
  }
}
