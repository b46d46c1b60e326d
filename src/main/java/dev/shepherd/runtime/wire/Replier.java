package dev.shepherd.runtime.wire;

import io.vertx.core.eventbus.Message;

/** Writes a reply to a bus request: at once ({@link #DIRECT}), or as the coordinator batches them. */
@FunctionalInterface
public interface Replier {
  /** The bus's own {@code reply}, at once. */
  Replier DIRECT = Message::reply;

  /** Replies {@code body} to {@code message}. */
  void reply(Message<?> message, Object body);
}
