package dev.shepherd.runtime;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.function.Consumer;

/**
 * A message of the simulation's network, as the event bus hands it to a consumer: its address,
 * body and, when its sender waits for one, the way back for the reply (or the failure), which
 * crosses the network as any message does.
 */
final class SimMessage implements Message<Object> {
  private final SimWorld world;
  private final SimNode from;
  private final SimNode to;
  private final String address;
  private final Object body;
  private final Consumer<Message<Object>> replies;

  SimMessage(SimWorld world, SimNode from, SimNode to, String address, Object body,
      Consumer<Message<Object>> replies) {
    this.world = world;
    this.from = from;
    this.to = to;
    this.address = address;
    this.body = body;
    this.replies = replies;
  }

  @Override
  public String address() {
    return address;
  }

  @Override
  public MultiMap headers() {
    return MultiMap.caseInsensitiveMultiMap();
  }

  @Override
  public Object body() {
    return body;
  }

  @Override
  public String replyAddress() {
    return replies == null ? null : "__reply." + from;
  }

  @Override
  public boolean isSend() {
    return true;
  }

  @Override
  public void reply(Object reply, DeliveryOptions options) {
    if (replies == null) {
      return;
    }
    if (SimWorld.cut(to, from)) {
      return;
    }
    SimMessage message = new SimMessage(world, to, from, "__reply." + from, reply, null);
    world.send(from, () -> {
      if (!SimWorld.cut(to, from)) {
        replies.accept(message);
      }
    });
  }

  @Override
  public void fail(int code, String message) {
    reply(new ReplyException(ReplyFailure.RECIPIENT_FAILURE, code, message), null);
  }

  @Override
  public <R> Future<Message<R>> replyAndRequest(Object reply, DeliveryOptions options) {
    throw new UnsupportedOperationException("the pool never asks back");
  }
}
