package dev.shepherd.runtime.access;

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
public final class LeaderWait {
  /** How often a request is sent again while no coordinator consumes the address. */
  static final long RETRY_MS = 100;

  /**
   * What a wait needs of the world: the bus's request, a timer and monotonic time. Vert.x's in
   * production ({@link #of}); the failover simulation's network and clock in its test.
   */
  public interface Bus {
    Future<Message<Object>> request(String address, Object body, DeliveryOptions options);

    void after(long delayMs, Runnable task);

    long monotonicMs();
  }

  private LeaderWait() {}

  /** {@code vertx}'s event bus and timers, on {@link System#nanoTime()}. */
  static Bus of(Vertx vertx) {
    return new Bus() {
      @Override
      public Future<Message<Object>> request(String address, Object body,
          DeliveryOptions options) {
        return vertx.eventBus().request(address, body, options);
      }

      @Override
      public void after(long delayMs, Runnable task) {
        vertx.setTimer(delayMs, id -> task.run());
      }

      @Override
      public long monotonicMs() {
        return System.nanoTime() / 1_000_000;
      }
    };
  }

  /** {@code request(address, body)}, sent again on {@code NO_HANDLERS} for up to {@code waitMs}. */
  static Future<Message<Object>> request(Vertx vertx, String address, Object body,
      DeliveryOptions options, long waitMs) {
    return request(of(vertx), address, body, options, waitMs);
  }

  /** {@link #request(Vertx, String, Object, DeliveryOptions, long)} over {@code bus}. */
  public static Future<Message<Object>> request(Bus bus, String address, Object body,
      DeliveryOptions options, long waitMs) {
    Promise<Message<Object>> answered = Promise.promise();
    attempt(bus, address, body, options, bus.monotonicMs() + waitMs, answered);
    return answered.future();
  }

  private static void attempt(Bus bus, String address, Object body, DeliveryOptions options,
      long until, Promise<Message<Object>> answered) {
    bus.request(address, body, options).onComplete(ar -> {
      if (ar.succeeded()) {
        answered.complete(ar.result());
      } else if (ar.cause() instanceof ReplyException e
          && e.failureType() == ReplyFailure.NO_HANDLERS
          && until - bus.monotonicMs() > RETRY_MS) {
        bus.after(RETRY_MS, () -> attempt(bus, address, body, options, until, answered));
      } else {
        answered.fail(ar.cause());
      }
    });
  }
}
