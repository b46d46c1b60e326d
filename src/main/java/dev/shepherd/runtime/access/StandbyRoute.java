package dev.shepherd.runtime.access;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;

/**
 * A node's route to a highly available pool's submit address for as long as it stands by for
 * the pool or leads it (A3 in docs/rules.md), on a cluster manager that routes to standbys
 * ({@link StandbyRoutes}): a listed marker consumer, which tells submitters that this node stands
 * by, and an unlisted consumer of the submit address, which takes what submitters send here once
 * no live member lists a consumer of it (the leader's member has just left). What it takes goes
 * to {@link #to its target}: the consumers made ready while this node claims the pool, the
 * coordinator's submit handler while it serves the pool, or nobody, when it is refused {@code
 * NO_HANDLERS} as a request that found no consumer is (a {@code PoolClient} sends it again).
 * One context registers and retargets it, and its handlers run on it.
 */
public final class StandbyRoute {
  private final String pool;
  private final MessageConsumer<Object> marker;
  private final MessageConsumer<Object> route;
  private Handler<Message<Object>> target;

  private StandbyRoute(String pool, EventBus bus, StandbyRoutes routes, String submit) {
    this.pool = pool;
    this.marker = bus.consumer(StandbyRoutes.markerOf(submit), this::refuse);
    this.route = routes.unlisted(() -> bus.consumer(submit, this::arrived));
  }

  /** Registers the route of {@code pool}'s {@code submit} address on {@code bus}. */
  public static StandbyRoute open(String pool, EventBus bus, StandbyRoutes routes,
      String submit) {
    return new StandbyRoute(pool, bus, routes, submit);
  }

  /** Where what arrives goes from now on; null: refused. */
  public void to(Handler<Message<Object>> target) {
    this.target = target;
  }

  /** Unregisters both consumers. */
  public Future<Void> close() {
    target = null;
    return Future.join(marker.unregister(), route.unregister()).mapEmpty();
  }

  private void arrived(Message<Object> message) {
    Handler<Message<Object>> to = target;
    if (to == null) {
      refuse(message);
    } else {
      to.handle(message);
    }
  }

  private void refuse(Message<Object> message) {
    if (message.replyAddress() != null) {
      message.reply(new ReplyException(ReplyFailure.NO_HANDLERS, -1,
          "no node leads pool " + pool + " here now"));
    }
  }
}
