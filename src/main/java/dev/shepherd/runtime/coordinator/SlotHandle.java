package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Exit;

/**
 * The runtime side of one stable slot: it deploys and stops incarnations and delivers
 * assignments, and reports facts (created, creation failed, stopped, completed) to the
 * coordinator. A {@link LocalSlot} runs its incarnations in this JVM; a worker host's slot sends
 * them to another node as commands. Called on the coordinator's context.
 */
public interface SlotHandle {

  String id();

  void deploy(int incarnation);

  void stop(int incarnation, Exit reason);

  void assign(Effect.Assign assignment);

  /** The job of {@code assignment} was cancelled while running: tell the incarnation running it. */
  void cancel(long assignment);

  /** Completes when every incarnation this slot started is undeployed. */
  io.vertx.core.Future<Void> undeployed();
}
