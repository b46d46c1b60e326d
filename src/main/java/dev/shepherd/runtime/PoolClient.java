package dev.shepherd.runtime;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.PoolSize;
import dev.shepherd.runtime.access.BusPoolHandle;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.access.ReplyAddress;
import dev.shepherd.runtime.coordinator.CallbackResponder;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.JsonCheck;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.FlowJson;
import dev.shepherd.runtime.wire.JobRequestCheck;
import dev.shepherd.runtime.wire.RequestDecoder;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.runtime.wire.RetryJson;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * The Java API to a pool. In the Vert.x instance that runs the pool it hands submissions straight
 * to the coordinator's context (no event bus, no JSON copy); anywhere else, another node of the
 * cluster included, it speaks protocol v1 over the bus. Which one is decided at each call, so a
 * client made before its pool was deployed takes the fast path once it is. Futures complete on
 * the caller's context.
 *
 * <p>Over the bus of a clustered Vert.x (or always, with {@link
 * PoolClientOptions.Replies#REPLY_ADDRESS}) a submit carries a {@code replyTo} address of the
 * client's own: the pool's reply is the admission and the terminal outcome is sent to that
 * address, so a future survives a failover of the pool's coordinator (rule A4 in docs/rules.md). A
 * job given no id then gets one from the client. Such a client holds a consumer: {@link #close()}
 * it when done. While no coordinator consumes the pool's address (a highly available pool between
 * leaders) a call over the bus of a clustered Vert.x is sent again for up to {@link
 * PoolClientOptions#leaderWaitMs()}, a submit without admission is sent again with the same job
 * id, and one whose outcome has not arrived by its timeout is looked up once (J6) before it fails,
 * so an outcome lost on its way still answers it ({@link ReplyAddress}).
 *
 * <pre>{@code
 * PoolClient jobs = PoolClient.create(vertx, "jobs");
 * jobs.submit(new JsonObject().put("echo", 42), JsonObject.class)
 *     .onSuccess(result -> …)                 // a JsonObject, no cast
 *     .onFailure(JobRejectedException.class::isInstance, …);
 * }</pre>
 *
 * <p>A job that did not complete fails the future with a {@link JobException}: {@link
 * JobRejectedException}, {@link JobInterruptedException}, {@link JobCancelledException}, or
 * {@link JobFailedException}, whose {@link Throwable#getCause() cause} is the worker's own
 * exception when the job failed in this JVM (see there).
 */
public final class PoolClient {
  /** The bus request timeout when none is given: it must cover queueing and running. */
  public static final long DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
  /**
   * How long a call on a clustered Vert.x waits for a coordinator when none consumes the pool's
   * address, unless the options say otherwise: longer than a failover after a hung leader.
   */
  public static final long DEFAULT_LEADER_WAIT_MS = 10_000;

  private final Vertx vertx;
  private final String pool;
  private final PoolHandle overBus;
  /** What {@link #handle()} found last (any thread may call it). */
  private volatile Found found;
  private final PoolClientOptions options;
  /** The client's own reply address, or null when submits are request/reply. */
  private final ReplyAddress replies;
  /** How long a call over the bus waits for a coordinator (0: not clustered). */
  private final long leaderWaitMs;
  private volatile boolean closed;

  private PoolClient(Vertx vertx, String pool, PoolClientOptions options) {
    this.vertx = vertx;
    this.pool = pool;
    this.options = options;
    Addresses addresses = options.addressPrefix() == null ? Addresses.forPool(pool)
        : new Addresses(options.addressPrefix());
    this.leaderWaitMs = vertx.isClustered() ? options.leaderWaitMs() : 0;
    this.overBus = new BusPoolHandle(vertx, pool, addresses, null, options.timeoutMs(),
        BusPoolHandle.DEFAULT_CONTROL_TIMEOUT_MS).awaitingLeader(leaderWaitMs);
    boolean replyAddress = switch (options.replies()) {
      case AUTO -> vertx.isClustered();
      case REQUEST_REPLY -> false;
      case REPLY_ADDRESS -> true;
    };
    this.replies = replyAddress ? new ReplyAddress(vertx, pool, options.timeoutMs()) : null;
  }

  public static PoolClient create(Vertx vertx, String pool) {
    return new PoolClient(vertx, pool, PoolClientOptions.defaults());
  }

  /** A client for a pool with a custom address prefix or bus request timeout. */
  public static PoolClient create(Vertx vertx, String pool, String addressPrefix,
      long requestTimeoutMs) {
    return new PoolClient(vertx, pool, PoolClientOptions.defaults()
        .withAddressPrefix(addressPrefix).withTimeoutMs(requestTimeoutMs));
  }

  /** A client with the given address prefix, submit timeout and reply mode. */
  public static PoolClient create(Vertx vertx, String pool, PoolClientOptions options) {
    return new PoolClient(vertx, pool, options);
  }

  /**
   * Runs {@code payload}; succeeds with the worker's result as a {@code resultType}, fails with a
   * {@link JobException} (see {@link #submit(JobRequest, Class)}).
   */
  public <T> Future<T> submit(Object payload, Class<T> resultType) {
    return submit(JobRequest.of(payload), resultType);
  }

  /**
   * Runs {@code request}; succeeds with the worker's result as a {@code resultType}: the result
   * itself when it is one (in this JVM, the very object the worker returned), else what JSON's
   * round trip over the bus changed back (a number to the number type asked for, a map to a
   * {@link JsonObject}, a {@link JsonObject} to a class of yours through Jackson Databind; see
   * {@link ResultTypes}). A result that is no {@code resultType} fails the future with a {@link
   * ClassCastException} naming both types (the job did complete). A job that did not complete
   * fails it with a {@link JobException}; a {@link JobFailedException} keeps the worker's
   * exception as its cause when the job failed in this JVM.
   */
  public <T> Future<T> submit(JobRequest request, Class<T> resultType) {
    return submit(request, resultType, null);
  }

  /**
   * {@link #submit(JobRequest, Class)}, with {@code onProgress} called on the caller's context
   * with each progress report of the job (T2 in docs/rules.md: what its handler passed to {@link
   * Job#progress}), before the future completes, and never after it. Reports reach a client in the
   * JVM of the pool's coordinator and, through the client's reply address, one on another node
   * (a client whose replies are request/reply hears none). Reports that come fast may be coalesced; the last one before
   * the answer always comes.
   */
  public <T> Future<T> submit(JobRequest request, Class<T> resultType,
      Handler<JsonObject> onProgress) {
    java.util.Objects.requireNonNull(resultType, "resultType");
    Promise<T> result = Promise.promise();
    send(request, false, onProgress, (CallbackResponder.WithCause) (outcome, cause) -> {
      if (outcome instanceof Outcome.Completed completed) {
        try {
          result.complete(ResultTypes.as(completed.result(), resultType, completed.job()));
        } catch (ClassCastException e) {
          result.fail(e);
        }
      } else {
        result.fail(JobException.of(outcome, cause));
      }
    }, result::fail);
    return result.future();
  }

  /**
   * Runs {@code payload}; succeeds with the worker's result as it is, fails with a {@link
   * JobException}. {@link #submit(Object, Class)} gives the result the type you expect.
   */
  public Future<Object> submit(Object payload) {
    return submit(JobRequest.of(payload), Object.class);
  }

  /** {@link #submit(JobRequest, Class)} with the result as it is (an {@code Object}). */
  public Future<Object> submit(JobRequest request) {
    return submit(request, Object.class);
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
   * Submits once: through the client's reply address when it has one and the pool is not handed
   * jobs straight (see {@link PoolClientOptions.Replies}), else through {@link #handle()}. Bad
   * input (checked here, on the caller's thread, so the coordinator does not pay for the walk)
   * and bus failures go to {@code onFailure}.
   */
  private void send(JobRequest request, boolean admission, Handler<Outcome> onAnswer,
      Handler<Throwable> onFailure) {
    send(request, admission, null, onAnswer, onFailure);
  }

  private void send(JobRequest request, boolean admission, Handler<JsonObject> onProgress,
      Handler<Outcome> onAnswer, Handler<Throwable> onFailure) {
    if (closed) {
      onFailure.handle(new IllegalStateException("the client of pool " + pool + " is closed"));
      return;
    }
    PoolHandle handle = handle();
    boolean viaReplies = replies != null && !admission
        && (!handle.local() || options.replies() == PoolClientOptions.Replies.REPLY_ADDRESS);
    Requests.Submit submit;
    try {
      submit = JobRequestCheck.check(request, handle.maxPayloadDepth());
    } catch (BadRequest e) {
      onFailure.handle(e);
      return;
    }
    if (viaReplies) {
      replies.submit(overBus.addresses(), submit, leaderWaitMs, onAnswer, onFailure, onProgress);
    } else {
      handle.submit(submit, admission, onAnswer, onFailure, onProgress);
    }
  }

  /**
   * Stops the client: unregisters its reply address, if it has one, and fails the submits still
   * waiting there with an {@link IllegalStateException}; later submits fail the same way. Jobs
   * already admitted run on regardless. Other calls (status, cancel…) still work.
   */
  public Future<Void> close() {
    closed = true;
    return replies == null ? Future.succeededFuture() : replies.close();
  }

  /** The client's reply address, or null when its submits are request/reply. */
  String replyAddress() {
    return replies == null ? null : replies.address();
  }

  /** Outcomes at the reply address for a job id the client was not waiting for. */
  long unknownOutcomes() {
    return replies == null ? 0 : replies.unknownOutcomes();
  }

  /** Messages at the reply address that were not a terminal outcome. */
  long malformedOutcomes() {
    return replies == null ? 0 : replies.malformedOutcomes();
  }

  /** Submits waiting at the reply address for their outcome. */
  int waitingOutcomes() {
    return replies == null ? 0 : replies.waiting();
  }

  public Future<Boolean> cancel(String job) {
    return handle().cancel(job);
  }

  /** Binds {@code key} to {@code worker}; fails with {@link PoolErrorException} when refused. */
  public Future<Void> rebalance(String key, String worker) {
    return handle().rebalance(key, worker);
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
      JobRequestCheck.checkId("worker", worker);
    } catch (BadRequest e) {
      return Future.failedFuture(e);
    }
    return handle().revive(worker);
  }

  /**
   * Resizes the pool's own slots at run time (F6 in docs/rules.md) and succeeds with the size now:
   * {@code instances} local slots, each running up to {@code maxConcurrency} jobs at once; a null
   * argument keeps the pool's. Growing adds slots, which install and then serve; shrinking drains
   * the highest ones (nothing new goes to them, their running jobs finish, then they leave the
   * status; not a retirement, not charged to the restart budget), and keys bound to them move to
   * the selector's choice. A worker host's slots are not touched. Fails with {@link BadRequest}
   * naming {@code instances} or {@code maxConcurrency} for a value out of range (0 to 10,000 slots,
   * 0 only for a pool that runs on worker hosts alone; 1 to 1,000,000 each) or when both are null,
   * and with {@link PoolErrorException} {@code RESIZE_REFUSED} while the pool stops; a refusal
   * changes nothing. Completes on the caller's context.
   */
  public Future<PoolSize> resize(Integer instances, Integer maxConcurrency) {
    try {
      JsonObject body = new JsonObject();
      if (instances != null) {
        body.put("instances", instances);
      }
      if (maxConcurrency != null) {
        body.put("maxConcurrency", maxConcurrency);
      }
      RequestDecoder.resize(body);
    } catch (BadRequest e) {
      return Future.failedFuture(e);
    }
    return handle().resize(instances, maxConcurrency);
  }

  /**
   * Where {@code job} is (J6 in docs/rules.md): {@code QUEUED} (with its position), {@code WAITING}
   * (its due time), {@code RUNNING} (its slot and attempt), {@code ANSWERED} or {@code DEAD} (its
   * outcome; a dead one with its dead letter). Fails with {@link PoolErrorException} {@code
   * UNKNOWN_JOB} for a job the pool never accepted or has forgotten, and with {@link BadRequest}
   * for an id that is null, empty or over 256 characters. Completes on the caller's context.
   */
  public Future<JobView> lookup(String job) {
    BadRequest bad = badId("job", job);
    return bad != null ? Future.failedFuture(bad) : handle().lookup(job);
  }

  /**
   * {@link #await(String, long)} waiting as long as a submit does ({@link
   * PoolClientOptions#timeoutMs()}, at most an hour).
   */
  public Future<Outcome> await(String job) {
    return await(job, Math.min(options.timeoutMs(), RequestDecoder.MAX_WAIT_MS));
  }

  /**
   * The terminal outcome of {@code job}, a job admitted earlier (with {@link #admit}, or by
   * anyone): at once when it is answered and the pool remembers it, else once it is answered
   * (J6 in docs/rules.md). Fails with {@link JobWaitTimeoutException}, carrying where the job is,
   * when {@code timeoutMs} (1 ms to an hour) pass first; with {@link PoolErrorException} {@code
   * UNKNOWN_JOB} for a job the pool does not know, or {@code TOO_MANY_WAITERS} when it already
   * holds as many waiters as it allows; with {@link BadRequest} for a bad id or timeout.
   */
  public Future<Outcome> await(String job, long timeoutMs) {
    BadRequest bad = badId("job", job);
    if (bad == null) {
      try {
        RequestDecoder.waitMs(timeoutMs);
      } catch (BadRequest e) {
        bad = e;
      }
    }
    if (bad != null) {
      return Future.failedFuture(bad);
    }
    return handle().await(job, timeoutMs).compose(awaited -> awaited.answered()
        ? Future.succeededFuture(awaited.outcome())
        : Future.failedFuture(new JobWaitTimeoutException(awaited.view())));
  }

  /**
   * Up to {@code limit} (1 to 500) entries of the dead-letter set after skipping {@code offset}
   * (0 or more), newest first, with the set's size and how many it evicted (J5 in docs/rules.md).
   * Fails with {@link BadRequest} for bounds out of range.
   */
  public Future<DeadLetterPage> deadLetters(int offset, int limit) {
    try {
      RequestDecoder.page(offset, limit);
    } catch (BadRequest e) {
      return Future.failedFuture(e);
    }
    return handle().deadLetters(offset, limit);
  }

  /**
   * The dead letter of {@code job} (J5 in docs/rules.md); fails with {@code UNKNOWN_JOB} when there
   * is none.
   */
  public Future<DeadLetter> deadLetter(String job) {
    BadRequest bad = badId("job", job);
    return bad != null ? Future.failedFuture(bad) : handle().deadLetter(job);
  }

  /**
   * Submits the dead-lettered {@code job} again, with its payload, key and timeout under its id,
   * admitted like any submit (J5 in docs/rules.md): succeeds with the admission, {@code accepted}
   * (the job has left the set; {@link #await} gives its outcome) or {@code rejected} (for example
   * {@code BACKLOG_FULL}; it stays in the set). Fails with {@link PoolErrorException} {@code
   * UNKNOWN_JOB} when the set has no such job.
   */
  public Future<Outcome> replay(String job) {
    BadRequest bad = badId("job", job);
    return bad != null ? Future.failedFuture(bad) : handle().replay(job);
  }

  /**
   * Removes {@code job} from the dead-letter set (J5 in docs/rules.md); fails with {@code
   * UNKNOWN_JOB}.
   */
  public Future<Void> discard(String job) {
    BadRequest bad = badId("job", job);
    return bad != null ? Future.failedFuture(bad) : handle().discard(job);
  }

  /**
   * Pauses the pool (F5 in docs/rules.md): nothing new is dispatched, running jobs finish, and
   * submits are still accepted into the bound (or rejected {@code PAUSED} when the pool's {@code
   * rejectWhenPaused} says so) until {@link #resume()}. Pausing a paused pool changes nothing;
   * it costs no restart budget and moves no binding. Completes on the caller's context.
   */
  public Future<Void> pause() {
    return handle().pause(null).mapEmpty();
  }

  /** Resumes a paused pool (F5 in docs/rules.md): dispatch runs at once. */
  public Future<Void> resume() {
    return handle().resume(null).mapEmpty();
  }

  /**
   * Pauses one group (F5 in docs/rules.md): its jobs wait, every other group runs on. Succeeds
   * with the group's status; fails with {@link BadRequest} for a name that is null, empty or over
   * 256 characters.
   */
  public Future<PoolSnapshot.GroupStatus> pause(String group) {
    return groupCall(group, () -> handle().pause(group));
  }

  /** Resumes one group (F5 in docs/rules.md); succeeds with its status. */
  public Future<PoolSnapshot.GroupStatus> resume(String group) {
    return groupCall(group, () -> handle().resume(group));
  }

  /**
   * Sets the fields {@code change} gives of one group's limits at run time (F1, F2, F4, F5 in
   * docs/rules.md), the others staying as they are: {@code new GroupSettings(2, null, null, null,
   * null)} caps the group at two running jobs. Succeeds with the group's status.
   */
  public Future<PoolSnapshot.GroupStatus> setGroup(String group, GroupSettings change) {
    if (change == null) {
      return Future.failedFuture(new BadRequest("change: is required (resetGroup drops the"
          + " group's run-time settings)"));
    }
    return groupCall(group, () -> handle().setGroup(group, change));
  }

  /**
   * Drops one group's run-time settings (F1 in docs/rules.md): its configured ones, or the pool's
   * defaults, apply again. Succeeds with the group's status.
   */
  public Future<PoolSnapshot.GroupStatus> resetGroup(String group) {
    return groupCall(group, () -> handle().setGroup(group, null));
  }

  /**
   * One group's limits and load (F1 in docs/rules.md): running and held jobs, its effective
   * concurrency, queue capacity, weight and rate limit, whether and since when it is paused.
   */
  public Future<PoolSnapshot.GroupStatus> group(String group) {
    return groupCall(group, () -> handle().group(group));
  }

  private static Future<PoolSnapshot.GroupStatus> groupCall(String group,
      java.util.function.Supplier<Future<JsonObject>> call) {
    try {
      FlowJson.group(group, "group", true);
    } catch (BadRequest e) {
      return Future.failedFuture(e);
    }
    return call.get().map(FlowJson::decodeStatus);
  }

  /** Null when {@code value} is a valid required id, else why not. */
  private static BadRequest badId(String field, String value) {
    if (value == null) {
      return new BadRequest(field + ": is required, a non-empty string");
    }
    try {
      JobRequestCheck.checkId(field, value);
      return null;
    } catch (BadRequest e) {
      return e;
    }
  }

  /** The status snapshot as JSON. */
  public Future<JsonObject> status() {
    return handle().status();
  }

  /**
   * The handle this client uses now: the in-JVM one while the pool runs in this Vert.x instance,
   * otherwise the bus.
   */
  PoolHandle handle() {
    long generation = LocalPools.generation();
    Found found = this.found;
    if (found != null && found.generation == generation) {
      return found.handle;
    }
    PoolHandle local = LocalPools.handle(vertx, pool);
    PoolHandle handle = local != null ? local : overBus;
    this.found = new Found(generation, handle);
    return handle;
  }

  /**
   * The handle last found, with the registry's generation read before looking: kept until a pool
   * of this JVM is deployed or undeployed (two map lookups a submit were up to 2.6% of an
   * in-JVM benchmark's CPU, docs/benchmarks.md).
   */
  private record Found(long generation, PoolHandle handle) {}
}
