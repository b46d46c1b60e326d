package dev.shepherd.runtime;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * What a {@link JobHandler} knows about where it runs (its incarnation), and the two ways it may
 * end that incarnation on purpose: {@link #exit()} (a normal exit) and {@link #crash} (a crash).
 */
public interface WorkerContext {

  Vertx vertx();

  /** The incarnation's own context (its thread or event loop). */
  Context context();

  /** The {@code worker.config} object of the pool's configuration. */
  JsonObject config();

  /** The stable slot id, e.g. {@code w-2}. */
  String worker();

  /** 1 for the slot's first deployment, then +1 per replacement. */
  int incarnation();

  /** Undeploys this incarnation on purpose: the pool sees a NORMAL exit. */
  void exit();

  /**
   * Crashes this incarnation on purpose (J1 in docs/rules.md), for a worker that finds its own
   * state broken: the pool sees exit {@code CRASH} with {@code cause} (reported and logged once),
   * the jobs it runs are interrupted as the pool's interruption policy says (P9), and the
   * supervisor decides what follows (section 4). The incarnation runs nothing more, and what its
   * jobs return after the crash is discarded. This is the one explicit crash: an exception thrown
   * by {@link JobHandler#handle} only fails its job, unless the pool's {@code worker.onException}
   * is {@code CRASH}. Call it from any thread, during a job or between jobs (keep the context
   * {@link JobHandler#start} was given). Called before {@code start}'s future completes, it fails
   * the start instead, with {@code cause}: the creation is rejected (P2), as a failed future from
   * {@code start} would be. A null {@code cause} is reported as a crash requested without one.
   */
  void crash(Throwable cause);
}
