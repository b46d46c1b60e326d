package dev.shepherd.runtime.wire;

import io.vertx.core.eventbus.Message;

/**
 * Writes what answers a bus request: its reply, and what goes to its {@code replyTo} address (the
 * outcome, progress). At once ({@link #DIRECT}), or as the coordinator groups them; either way in
 * the order given.
 */
public interface Replier {
  /** The bus's own {@code reply} and {@code send}, at once. */
  Replier DIRECT = new Replier() {
    @Override
    public void reply(Message<?> request, Object body) {
      request.reply(body);
    }

    @Override
    public void send(Message<?> request, Sender bus, String address, Object body) {
      bus.send(address, body);
    }

    @Override
    public void send(Message<?> request, Sender bus, String address, Object body,
        Runnable written) {
      bus.send(address, body, written);
    }
  };

  /** Replies {@code body} to {@code request}. */
  void reply(Message<?> request, Object body);

  /** Sends {@code body} to {@code address} on {@code bus}, for {@code request}'s submitter. */
  void send(Message<?> request, Sender bus, String address, Object body);

  /**
   * {@link #send(Message, Sender, String, Object)}; {@code written} runs, on any thread, once the
   * bus wrote it ({@link Sender#send(String, Object, Runnable)}).
   */
  void send(Message<?> request, Sender bus, String address, Object body, Runnable written);
}
