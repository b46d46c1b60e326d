package dev.shepherd.runtime;

import dev.shepherd.core.Outcome;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;

/**
 * The Java API to a pool. In the JVM that runs the pool it hands submissions straight to the
 * coordinator's context (no event bus, no JSON copy); elsewhere it speaks protocol v1 over the bus.
 * Futures complete on the caller's context.
 *
 * <pre>{@code
 * PoolClient jobs = PoolClient.create(vertx, "jobs");
 * jobs.submit(new JsonObject().put("echo", 42))
 *     .onSuccess(result -> …)
 *     .onFailure(JobRejectedException.class::isInstance, …);
 * }</pre>
 */
public final class PoolClient {
  /** The bus request timeout when none is given: it must cover queueing and running. */
  public static final long DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

  private final Vertx vertx;
  private final String pool;
  private final Addresses addresses;
  private final long requestTimeoutMs;

  private PoolClient(Vertx vertx, String pool, Addresses addresses, long requestTimeoutMs) {
    this.vertx = vertx;
    this.pool = pool;
    this.addresses = addresses;
    this.requestTimeoutMs = requestTimeoutMs;
  }

  public static PoolClient create(Vertx vertx, String pool) {
    return new PoolClient(vertx, pool, Addresses.forPool(pool), DEFAULT_REQUEST_TIMEOUT_MS);
  }

  /** A client for a pool with a custom address prefix or bus request timeout. */
  public static PoolClient create(Vertx vertx, String pool, String addressPrefix,
      long requestTimeoutMs) {
    return new PoolClient(vertx, pool, new Addresses(addressPrefix), requestTimeoutMs);
  }

  /** Runs {@code payload}; succeeds with the worker's result, fails with a {@link JobException}. */
  public Future<Object> submit(Object payload) {
    return submit(JobRequest.of(payload));
  }

  public Future<Object> submit(JobRequest request) {
    Promise<Object> result = Promise.promise();
    send(request, false, outcome -> {
      if (outcome instanceof Outcome.Completed completed) {
        result.complete(completed.result());
      } else {
        result.fail(JobException.of(outcome));
      }
    }, result::fail);
    return result.future();
  }

  /** The job's terminal outcome as a value (a rejection is one too); fails only on bad input. */
  public Future<Outcome> outcome(JobRequest request) {
    Promise<Outcome> promise = Promise.promise();
    send(request, false, promise::complete, promise::fail);
    return promise.future();
  }

  /** Only the admission: {@code accepted} or {@code rejected}; the job runs on regardless. */
  public Future<Outcome> admit(JobRequest request) {
    Promise<Outcome> promise = Promise.promise();
    send(request, true, promise::complete, promise::fail);
    return promise.future();
  }

  /**
   * Submits once: in this JVM straight to the coordinator, which calls {@code onAnswer} on the
   * caller's context; elsewhere over the bus. Bad input and bus failures go to {@code onFailure}.
   */
  private void send(JobRequest request, boolean admission, Handler<Outcome> onAnswer,
      Handler<Throwable> onFailure) {
    Coordinator local = LocalPools.find(vertx, pool);
    Requests.Submit submit;
    try {
      // A remote pool checks depth against its own limit; here only what could not be sent.
      submit = validate(request, local != null ? local.config().maxPayloadDepth()
          : PoolConfig.MAX_PAYLOAD_DEPTH);
    } catch (BadRequest e) {
      onFailure.handle(e);
      return;
    }
    if (local != null) {
      local.submitLocal(submit, onAnswer, admission);
      return;
    }
    JsonObject body = new JsonObject().put("payload", JsonValues.toJson(request.payload()));
    if (request.job() != null) {
      body.put("job", request.job());
    }
    if (request.key() != null) {
      body.put("key", request.key());
    }
    if (request.timeoutMs() > 0) {
      body.put("timeoutMs", request.timeoutMs());
    }
    if (admission) {
      body.put("replyTo", addresses.prefix() + ".discard");
    }
    vertx.eventBus().<JsonObject>request(addresses.submit(), body,
            new DeliveryOptions().setSendTimeout(requestTimeoutMs))
        .recover(PoolClient::mapFailure)
        .onSuccess(reply -> onAnswer.handle(OutcomeJson.decode(reply.body())))
        .onFailure(onFailure);
  }

  public Future<Boolean> cancel(String job) {
    Coordinator local = LocalPools.find(vertx, pool);
    if (local != null) {
      return local.cancelLocal(job);
    }
    return vertx.eventBus().<JsonObject>request(addresses.cancel(), new JsonObject().put("job", job))
        .recover(PoolClient::mapFailure)
        .map(reply -> reply.body().getBoolean("cancelled", false));
  }

  /** Binds {@code key} to {@code worker}; fails with {@link PoolErrorException} when refused. */
  public Future<Void> rebalance(String key, String worker) {
    Coordinator local = LocalPools.find(vertx, pool);
    if (local != null) {
      return local.rebalanceLocal(key, worker);
    }
    return vertx.eventBus().request(addresses.rebalance(),
            new JsonObject().put("key", key).put("worker", worker))
        .recover(PoolClient::mapFailure)
        .mapEmpty();
  }

  /**
   * Puts the retired slot {@code worker} back in service with a new incarnation, and succeeds
   * with that incarnation's number. A revive is not a restart: the restart budget is neither
   * needed nor charged. Fails with {@link PoolErrorException} {@code REVIVE_REFUSED} (the slot is
   * not retired, its host is lost, or the pool is not running) or {@code UNKNOWN_WORKER}, and with
   * {@link BadRequest} for an id that is null, empty or over 256 characters; a refusal changes
   * nothing. Completes on the caller's context.
   */
  public Future<Integer> revive(String worker) {
    if (worker == null) {
      return Future.failedFuture(new BadRequest("worker: is required, a non-empty string"));
    }
    try {
      checkId("worker", worker);
    } catch (BadRequest e) {
      return Future.failedFuture(e);
    }
    Coordinator local = LocalPools.find(vertx, pool);
    if (local == null) {
      return vertx.eventBus().<JsonObject>request(addresses.revive(),
              new JsonObject().put("worker", worker))
          .recover(PoolClient::mapFailure)
          .map(reply -> reply.body().getInteger("incarnation"));
    }
    io.vertx.core.Context caller = Vertx.currentContext();
    Promise<Integer> promise = caller instanceof io.vertx.core.internal.ContextInternal internal
        ? internal.promise() : Promise.promise();
    local.reviveLocal(worker).onComplete(promise);
    return promise.future();
  }

  /** The status snapshot as JSON. */
  public Future<JsonObject> status() {
    Coordinator local = LocalPools.find(vertx, pool);
    if (local != null) {
      return local.snapshotLocal().map(SnapshotJson::encode);
    }
    return vertx.eventBus().<JsonObject>request(addresses.status(), new JsonObject())
        .recover(PoolClient::mapFailure)
        .map(reply -> reply.body());
  }

  /**
   * Checks ids, timeout and the payload's depth (on the caller's thread, so the coordinator does
   * not pay for the walk) and measures the payload for the byte budget.
   */
  private static Requests.Submit validate(JobRequest request, int maxPayloadDepth) {
    checkId("job", request.job());
    checkId("key", request.key());
    if (request.timeoutMs() < 0 || request.timeoutMs() > RequestDecoder.MAX_TIMEOUT_MS) {
      throw new BadRequest("timeoutMs: must be between 1 and " + RequestDecoder.MAX_TIMEOUT_MS
          + ", or 0 for the pool's default (was " + request.timeoutMs() + ")");
    }
    long bytes = JsonCheck.payload(request.payload(), maxPayloadDepth);
    return new Requests.Submit(request.job(), request.payload(), request.key(), null,
        request.timeoutMs(), bytes);
  }

  private static void checkId(String field, String value) {
    if (value != null && (value.isEmpty() || value.length() > RequestDecoder.MAX_ID_LENGTH)) {
      throw new BadRequest(field + ": must be 1 to " + RequestDecoder.MAX_ID_LENGTH
          + " characters (was " + value.length() + ")");
    }
  }

  private static <T> Future<T> mapFailure(Throwable failure) {
    if (failure instanceof ReplyException reply) {
      String message = String.valueOf(reply.getMessage());
      if (reply.failureCode() == 400) {
        return Future.failedFuture(new BadRequest(message));
      }
      if (reply.failureCode() == 409) {
        int colon = message.indexOf(':');
        return Future.failedFuture(colon < 0 ? new PoolErrorException(message, "")
            : new PoolErrorException(message.substring(0, colon),
                message.substring(colon + 1).trim()));
      }
    }
    return Future.failedFuture(failure);
  }
}
