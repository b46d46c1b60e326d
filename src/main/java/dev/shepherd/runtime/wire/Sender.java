package dev.shepherd.runtime.wire;

import io.vertx.core.eventbus.EventBus;

/**
 * The one thing a pool's coordinator does with the event bus on its own: send a message to an
 * address, expecting no reply (an answer to a durable reply address, a batch of commands to a
 * worker host). In production it is the bus's {@code send} ({@link #of}); the failover
 * simulation gives a network that delays, drops and partitions.
 */
@FunctionalInterface
public interface Sender {
  /** Sends {@code body} to {@code address}; nothing waits for it. */
  void send(String address, Object body);

  /** The event bus's {@code send}. */
  static Sender of(EventBus bus) {
    return bus::send;
  }
}
