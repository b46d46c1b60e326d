package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.io.IOException;

/**
 * A worker that fails or crashes in each of the ways J1 tells apart. Payload {@code {"raise":
 * kind, "message": m}}: {@code runtime} throws an {@link IllegalArgumentException}, {@code
 * checked} an {@link IOException}, {@code error} an {@link AssertionError} (an {@link Error});
 * {@code failedError} returns a future failed with an {@code AssertionError}, {@code reply} one
 * failed with a {@link ReplyException} of code 418; {@code timer} never answers and throws from
 * a timer on its context meanwhile; {@code crashTwice} calls {@link WorkerContext#crash} twice.
 * Anything else answers {@code {"worker", "incarnation"}}. A message to {@link #pokeAddress}
 * makes the incarnation's consumer throw, between jobs.
 */
public final class ThrowingWorker implements JobHandler {
  private WorkerContext context;

  /** Where a message makes slot {@code worker}'s current incarnation throw, outside any job. */
  public static String pokeAddress(String worker) {
    return "throwing.poke." + worker;
  }

  @Override
  public Future<Void> start(WorkerContext ctx) {
    this.context = ctx;
    return ctx.vertx().eventBus().<Object>consumer(pokeAddress(ctx.worker()), m -> {
      throw new IllegalStateException("poked between jobs");
    }).completion();
  }

  @Override
  public Future<Object> handle(Job job) throws Exception {
    JsonObject payload = job.payload() instanceof JsonObject json ? json : new JsonObject();
    String message = payload.getString("message", "raised by " + job.id());
    switch (payload.getString("raise", "")) {
      case "runtime" -> throw new IllegalArgumentException(message);
      case "checked" -> throw new IOException(message);
      case "error" -> throw new AssertionError(message);
      case "failedError" -> {
        return Future.failedFuture(new AssertionError(message));
      }
      case "reply" -> {
        return Future.failedFuture(new ReplyException(ReplyFailure.RECIPIENT_FAILURE, 418,
            message));
      }
      case "timer" -> {
        context.vertx().setTimer(10, id -> {
          throw new IllegalStateException(message);
        });
        return Promise.<Object>promise().future();
      }
      case "crashTwice" -> {
        context.crash(new IllegalStateException(message));
        context.crash(new IllegalStateException("second " + message));
        return Future.succeededFuture("discarded");
      }
      default -> {
        return Future.succeededFuture(new JsonObject().put("worker", job.worker())
            .put("incarnation", job.incarnation()));
      }
    }
  }
}
