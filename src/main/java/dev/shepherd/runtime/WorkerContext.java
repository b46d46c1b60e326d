package dev.shepherd.runtime;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/** What a {@link JobHandler} knows about where it runs. */
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
}
