package dev.shepherd.runtime;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Exit;

/**
 * The runtime side of one stable slot: it deploys and stops incarnations and delivers
 * assignments, and reports facts (created, creation failed, stopped, completed) to the
 * coordinator. Called on the coordinator's context.
 */
interface SlotHandle {

  String id();

  void deploy(int incarnation);

  void stop(int incarnation, Exit reason);

  void assign(Effect.Assign assignment);

  /** The job of {@code assignment} was cancelled while running: tell the incarnation running it. */
  void cancel(long assignment);

  /** Completes when every incarnation this slot started is undeployed. */
  io.vertx.core.Future<Void> undeployed();
}
