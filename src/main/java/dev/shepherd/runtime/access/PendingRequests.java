package dev.shepherd.runtime.access;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The requests a {@link BusPoolHandle} sent to the node coordinating its pool and that are still
 * waiting, so that they end at once when that node leaves the cluster. A request to a dead node
 * does not fail by itself: the bus keeps the node's consumers until the cluster removes it, and a
 * request sent there ends only at its timeout (seconds later, with the bus's own reply address in
 * its message). Once the node has left, every tracked request, and every one tracked after, fails
 * with {@code NO_HANDLERS}: what the bus says of a pool nobody coordinates, which a highly
 * available pool's callers answer {@code 503 NO_LEADER} (A1 in docs/rules.md) and the others
 * {@code 404 UNKNOWN_POOL}. Any thread.
 */
final class PendingRequests {
  /** Each waiting request, with the context its caller is to be answered on (or null). */
  private final Map<Promise<?>, Caller> pending = new ConcurrentHashMap<>();
  private volatile ReplyException left;

  /** Where a request's caller is answered: its context, or null (a map's values cannot be). */
  private record Caller(Context context) {}

  /**
   * The request {@code send} makes, ended early (on the caller's context) should the node leave
   * first; not sent at all once it has left.
   */
  <T> Future<T> track(Supplier<Future<T>> send) {
    ReplyException gone = left;
    if (gone != null) {
      return Future.failedFuture(gone);
    }
    Promise<T> answered = Promise.promise();
    pending.put(answered, new Caller(Vertx.currentContext()));
    send.get().onComplete(ar -> {
      pending.remove(answered);
      if (ar.succeeded()) {
        answered.tryComplete(ar.result());
      } else {
        answered.tryFail(ar.cause());
      }
    });
    gone = left;
    if (gone != null && pending.remove(answered) != null) {
      answered.tryFail(gone);
    }
    return answered.future();
  }

  /** The node left the cluster, as {@code why} says: every waiting request fails now. */
  void nodeLeft(String why) {
    ReplyException gone = new ReplyException(ReplyFailure.NO_HANDLERS, -1, why);
    left = gone;
    for (Map.Entry<Promise<?>, Caller> entry : pending.entrySet()) {
      if (pending.remove(entry.getKey()) == null) {
        continue;
      }
      Promise<?> promise = entry.getKey();
      Context context = entry.getValue().context();
      if (context == null) {
        promise.tryFail(gone);
      } else {
        context.runOnContext(v -> promise.tryFail(gone));
      }
    }
  }

  /** How many requests wait now. */
  int size() {
    return pending.size();
  }
}
