package dev.shepherd.runtime.wire;

import io.vertx.core.eventbus.DeliveryOptions;
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

  /**
   * Sends {@code body} with {@code options} (headers: a worker host's MAC). A network that
   * carries no headers (the failover simulation's) sends the body alone.
   */
  default void send(String address, Object body, DeliveryOptions options) {
    send(address, body);
  }

  /**
   * Sends {@code body} to {@code address}; {@code written} runs, on any thread, once the message
   * is written (to its connection when the consumer is on another node) or could not be. A
   * network that cannot tell runs it at once.
   */
  default void send(String address, Object body, Runnable written) {
    send(address, body);
    written.run();
  }

  /** The event bus's {@code send}. */
  static Sender of(EventBus bus) {
    return new Sender() {
      @Override
      public void send(String address, Object body) {
        bus.send(address, body);
      }

      @Override
      public void send(String address, Object body, DeliveryOptions options) {
        bus.send(address, body, options);
      }

      /**
       * A producer's write tells when the message was written (or failed); a send that throws
       * (a body no codec encodes) was given up on at once, and tells so before it throws.
       */
      @Override
      public void send(String address, Object body, Runnable written) {
        try {
          bus.sender(address).write(body).onComplete(ar -> written.run());
        } catch (RuntimeException e) {
          written.run();
          throw e;
        }
      }
    };
  }
}
