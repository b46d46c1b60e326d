package dev.shepherd.runtime;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;

/**
 * A request to a highly available pool that waits out a failover: while nobody consumes the
 * address ({@code NO_HANDLERS}: the old leader is gone and no new one has claimed the pool yet),
 * the request is sent again every {@link #RETRY_MS} until {@code waitMs} have passed, like a
 * cluster-singleton proxy buffering while its singleton moves. Sending again is safe: a request
 * that met no handler reached no coordinator. Any other failure, and {@code NO_HANDLERS} after
 * the wait, ends the request as the bus ended it.
 */
final class LeaderWait {
  /** How often a request is sent again while no coordinator consumes the address. */
  static final long RETRY_MS = 100;

  private LeaderWait() {}

  /** {@code request(address, body)}, sent again on {@code NO_HANDLERS} for up to {@code waitMs}. */
  static Future<Message<Object>> request(Vertx vertx, String address, Object body,
      DeliveryOptions options, long waitMs) {
    Promise<Message<Object>> answered = Promise.promise();
    attempt(vertx, address, body, options, System.nanoTime() + waitMs * 1_000_000, answered);
    return answered.future();
  }

  private static void attempt(Vertx vertx, String address, Object body, DeliveryOptions options,
      long until, Promise<Message<Object>> answered) {
    vertx.eventBus().<Object>request(address, body, options).onComplete(ar -> {
      if (ar.succeeded()) {
        answered.complete(ar.result());
      } else if (ar.cause() instanceof ReplyException e
          && e.failureType() == ReplyFailure.NO_HANDLERS
          && until - System.nanoTime() > RETRY_MS * 1_000_000) {
        vertx.setTimer(RETRY_MS, id -> attempt(vertx, address, body, options, until, answered));
      } else {
        answered.fail(ar.cause());
      }
    });
  }
}
