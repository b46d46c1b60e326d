package dev.shepherd.runtime.access;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.runtime.DeadLetterPage;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.coordinator.Awaited;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.BusWire;
import dev.shepherd.runtime.wire.FlowJson;
import dev.shepherd.runtime.wire.DeadLetterJson;
import dev.shepherd.runtime.wire.JobViewJson;
import dev.shepherd.runtime.wire.OutcomeJson;
import dev.shepherd.runtime.wire.Refusals;
import dev.shepherd.runtime.wire.RequestDecoder;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.runtime.wire.SnapshotJson;
import dev.shepherd.runtime.wire.SubmitBody;
import dev.shepherd.core.PoolSize;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * A pool reached over the event bus with protocol v1 (section 6 in docs/rules.md), for a pool
 * coordinated by another Vert.x instance or another node of the cluster. Replies are checked before
 * they are believed: one that is not what the protocol says fails the call instead of throwing on
 * the caller's context.
 */
public final class BusPoolHandle implements PoolHandle {
  /** How long a cancel, rebalance or status waits for the pool when nothing else is said. */
  public static final long DEFAULT_CONTROL_TIMEOUT_MS = 30_000;
  /**
   * How long a read waits through a handle of a pool known to have no leader ({@link
   * #leaderless}) before it is answered that none leads: a coordinator that has just taken over
   * answers a status in milliseconds, and a request the bus still hands to a dead node's
   * consumers would otherwise wait out its whole timeout.
   */
  static final long LEADERLESS_READ_MS = 1_000;

  private final Vertx vertx;
  private final String name;
  private final Addresses addresses;
  private final String node;
  private final long submitTimeoutMs;
  private final long controlTimeoutMs;
  private final ReplyAddress replies;
  /** How long a request waits for a coordinator while none consumes the pool's address (HA). */
  private final long leaderWaitMs;
  /** The reads still waiting for the pool's node: they end at once if it leaves the cluster. */
  private final PendingRequests reads = new PendingRequests();
  /** Whether the directory knows that no node leads the pool now ({@link #leaderless}). */
  private final boolean leaderless;

  /**
   * A handle on the pool {@code name} at {@code addresses}, coordinated on {@code node} (null if
   * unknown). A submit waits up to {@code submitTimeoutMs} for its answer (it must cover queueing
   * and running when the answer is the terminal outcome); the other requests up to {@code
   * controlTimeoutMs}.
   */
  public BusPoolHandle(Vertx vertx, String name, Addresses addresses, String node,
      long submitTimeoutMs, long controlTimeoutMs) {
    this(vertx, name, addresses, node, submitTimeoutMs, controlTimeoutMs, null);
  }

  /**
   * As above, but a submit that waits for its outcome carries {@code replies} as its {@code
   * replyTo} (null: plain request/reply). The outcome then reaches the caller from whichever
   * coordinator holds the job by then, so it outlives a failover of the one that admitted it
   * (A4 in docs/rules.md); {@code replies}' own timeout bounds the wait.
   */
  public BusPoolHandle(Vertx vertx, String name, Addresses addresses, String node,
      long submitTimeoutMs, long controlTimeoutMs, ReplyAddress replies) {
    this(vertx, name, addresses, node, submitTimeoutMs, controlTimeoutMs, replies, 0, false);
  }

  private BusPoolHandle(Vertx vertx, String name, Addresses addresses, String node,
      long submitTimeoutMs, long controlTimeoutMs, ReplyAddress replies, long leaderWaitMs,
      boolean leaderless) {
    this.vertx = vertx;
    this.name = name;
    this.addresses = addresses;
    this.node = node;
    this.submitTimeoutMs = submitTimeoutMs;
    this.controlTimeoutMs = controlTimeoutMs;
    this.replies = replies;
    this.leaderWaitMs = leaderWaitMs;
    this.leaderless = leaderless;
  }

  /**
   * This handle for a highly available pool (A1 in docs/rules.md): a submit, cancel, rebalance or
   * revive that finds no coordinator at the pool's address (a failover under way) is sent again for
   * up to {@code waitMs} ({@link LeaderWait}); a status is not (it answers at once that no node
   * leads).
   */
  public BusPoolHandle awaitingLeader(long waitMs) {
    return new BusPoolHandle(vertx, name, addresses, node, submitTimeoutMs, controlTimeoutMs,
        replies, waitMs, leaderless);
  }

  /**
   * This handle for a highly available pool that the directory knows no node leads now (its
   * leader went, and no standby has announced it yet): a status, a lookup without a wait or a
   * dead-letter read that gets no answer within {@link #LEADERLESS_READ_MS} fails with {@code
   * NO_HANDLERS}, so its caller answers at once that no node leads (A1 in docs/rules.md); the
   * other calls are as {@link #awaitingLeader}'s.
   */
  public BusPoolHandle leaderless() {
    return new BusPoolHandle(vertx, name, addresses, node, submitTimeoutMs, controlTimeoutMs,
        replies, leaderWaitMs, true);
  }

  /**
   * The node coordinating the pool left the cluster: the status requests, lookups, waits and
   * dead-letter reads still waiting for it fail now, and those asked of this handle from now on at
   * once, with {@code NO_HANDLERS} ({@link PendingRequests}): a highly available pool's caller
   * answers that no node leads it (A1 in docs/rules.md) instead of waiting out the request's
   * timeout on a dead node. Any thread.
   */
  public void nodeLeft() {
    reads.nodeLeft("node " + node + ", which coordinated pool " + name + ", left the cluster");
  }

  @Override
  public boolean awaitsLeader() {
    return leaderWaitMs > 0;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Addresses addresses() {
    return addresses;
  }

  @Override
  public boolean local() {
    return false;
  }

  @Override
  public String node() {
    return node;
  }

  @Override
  public int maxPayloadDepth() {
    return PoolConfig.MAX_PAYLOAD_DEPTH;
  }

  @Override
  public void submit(Requests.Submit request, boolean admission, Handler<Outcome> onAnswer,
      Handler<Throwable> onFailure) {
    submit(request, admission, onAnswer, onFailure, null);
  }

  /**
   * As above; a submit that waits at this handle's reply address hears the job's progress
   * reports there (T2 in docs/rules.md); a request/reply submit has nowhere to hear them.
   */
  @Override
  public void submit(Requests.Submit request, boolean admission, Handler<Outcome> onAnswer,
      Handler<Throwable> onFailure, Handler<JsonObject> onProgress) {
    if (replies != null && !admission) {
      replies.submit(addresses, request, leaderWaitMs, onAnswer, onFailure, onProgress);
      return;
    }
    // With a replyTo the pool's reply is the admission, and the terminal outcome goes to an
    // address nobody consumes.
    Object body = SubmitBody.encode(request, admission ? addresses.prefix() + ".discard" : null);
    LeaderWait.request(vertx, addresses.submit(), body,
            new DeliveryOptions().setSendTimeout(submitTimeoutMs), leaderWaitMs)
        .onComplete(ar -> {
          if (ar.failed()) {
            onFailure.handle(mapFailure(ar.cause()));
            return;
          }
          Outcome outcome;
          try {
            outcome = OutcomeJson.decode(RequestDecoder.object(ar.result().body()));
          } catch (RuntimeException e) {
            onFailure.handle(new IllegalStateException("pool " + name
                + " answered a submit with something that is not an outcome: " + e.getMessage(),
                e));
            return;
          }
          onAnswer.handle(outcome);
        });
  }

  @Override
  public Future<Boolean> cancel(String job) {
    return control(addresses.cancel(), new JsonObject().put(BusWire.JOB, job),
        leaderWaitMs)
        .map(reply -> reply.getBoolean(BusWire.CANCELLED, false));
  }

  @Override
  public Future<Void> rebalance(String key, String worker) {
    return control(addresses.rebalance(),
        new JsonObject().put(BusWire.KEY, key).put(BusWire.WORKER, worker), leaderWaitMs)
        .mapEmpty();
  }

  @Override
  public Future<Integer> revive(String worker) {
    return control(addresses.revive(), new JsonObject().put(BusWire.WORKER, worker),
        leaderWaitMs)
        .compose(reply -> reply.getValue(BusWire.INCARNATION) instanceof Integer incarnation
            ? Future.succeededFuture(incarnation)
            : Future.failedFuture(new IllegalStateException("pool " + name
                + " answered a revive without its incarnation")));
  }

  @Override
  public Future<JsonObject> pause(String group) {
    return control(addresses.pause(), groupBody(group), leaderWaitMs);
  }

  @Override
  public Future<JsonObject> resume(String group) {
    return control(addresses.resume(), groupBody(group), leaderWaitMs);
  }

  @Override
  public Future<JsonObject> setGroup(String group, dev.shepherd.core.GroupSettings change) {
    if (change == null) {
      return control(addresses.groupReset(), groupBody(group), leaderWaitMs);
    }
    return control(addresses.groupSet(), FlowJson.encode(change).put(BusWire.GROUP, group),
        leaderWaitMs);
  }

  @Override
  public Future<JsonObject> group(String group) {
    return control(addresses.group(), groupBody(group), 0);
  }

  private static JsonObject groupBody(String group) {
    return group == null ? new JsonObject() : new JsonObject().put(BusWire.GROUP, group);
  }

  @Override
  public Future<PoolSize> resize(Integer instances, Integer maxConcurrency) {
    JsonObject body = new JsonObject();
    if (instances != null) {
      body.put(BusWire.INSTANCES, instances);
    }
    if (maxConcurrency != null) {
      body.put(BusWire.MAX_CONCURRENCY, maxConcurrency);
    }
    return control(addresses.size(), body, leaderWaitMs)
        .compose(reply -> reply.getValue(BusWire.INSTANCES) instanceof Integer count
            && reply.getValue(BusWire.MAX_CONCURRENCY) instanceof Integer each
            ? Future.succeededFuture(new PoolSize(count, each))
            : Future.failedFuture(new IllegalStateException("pool " + name
                + " answered a resize without its size")));
  }

  @Override
  public Future<JobView> lookup(String job) {
    return read(addresses.job(), new JsonObject().put(BusWire.JOB, job), 0, readTimeoutMs())
        .compose(reply -> decoded("a lookup", () -> JobViewJson.decode(reply)));
  }

  @Override
  public Future<Awaited> await(String job, long timeoutMs) {
    JsonObject body = new JsonObject().put(BusWire.JOB, job).put(BusWire.WAIT, true)
        .put(BusWire.TIMEOUT_MS, timeoutMs);
    // The pool answers by the end of the wait; the request allows a control call's time more.
    return read(addresses.job(), body, leaderWaitMs, timeoutMs + controlTimeoutMs)
        .compose(reply -> decoded("a wait", () -> reply.containsKey(OutcomeJson.TYPE)
            ? Awaited.answered(terminal(OutcomeJson.decode(reply)))
            : Awaited.pending(JobViewJson.decode(reply))));
  }

  @Override
  public Future<DeadLetterPage> deadLetters(int offset, int limit) {
    return read(addresses.deadLetters(),
        new JsonObject().put(BusWire.OFFSET, offset).put(BusWire.LIMIT, limit), 0,
        readTimeoutMs())
        .compose(reply -> decoded("a dead-letter page",
            () -> DeadLetterJson.decodePage(reply)));
  }

  @Override
  public Future<DeadLetter> deadLetter(String job) {
    return read(addresses.deadLetter(), new JsonObject().put(BusWire.JOB, job), 0,
        readTimeoutMs())
        .compose(reply -> decoded("a dead letter", () -> DeadLetterJson.decode(reply)));
  }

  @Override
  public Future<Outcome> replay(String job) {
    return control(addresses.replayDead(), new JsonObject().put(BusWire.JOB, job), leaderWaitMs)
        .compose(reply -> decoded("a replay", () -> admission(OutcomeJson.decode(reply))));
  }

  @Override
  public Future<Void> discard(String job) {
    return control(addresses.discardDead(), new JsonObject().put(BusWire.JOB, job), leaderWaitMs)
        .mapEmpty();
  }

  private static Outcome terminal(Outcome outcome) {
    if (!outcome.terminal() || outcome instanceof Outcome.Rejected) {
      throw new IllegalArgumentException("type: " + OutcomeJson.type(outcome)
          + " is not a terminal outcome");
    }
    return outcome;
  }

  private static Outcome admission(Outcome outcome) {
    if (!(outcome instanceof Outcome.Accepted || outcome instanceof Outcome.Rejected)) {
      throw new IllegalArgumentException("type: " + OutcomeJson.type(outcome)
          + " is not an admission");
    }
    return outcome;
  }

  /** A reply decoded, or a failed future saying the pool answered something else. */
  private <T> Future<T> decoded(String what, Supplier<T> decode) {
    try {
      return Future.succeededFuture(decode.get());
    } catch (RuntimeException e) {
      return Future.failedFuture(new IllegalStateException("pool " + name + " answered " + what
          + " with something that is not protocol v1: " + e.getMessage(), e));
    }
  }

  @Override
  public Future<JsonObject> history() {
    return PoolHistoryRequest.fetch(vertx, addresses);
  }

  @Override
  public Future<JsonObject> status() {
    return read(addresses.status(), new JsonObject(), 0, readTimeoutMs());
  }

  @Override
  public Future<PoolSnapshot> snapshot() {
    return status().compose(json -> {
      try {
        return Future.succeededFuture(SnapshotJson.decode(json));
      } catch (RuntimeException e) {
        return Future.failedFuture(new IllegalStateException("pool " + name
            + " answered its status with something that is not a snapshot: " + e.getMessage(),
            e));
      }
    });
  }

  @Override
  public MessageConsumer<?> events(Handler<JsonObject> handler) {
    return vertx.eventBus().<Object>consumer(addresses.events(), message -> {
      if (message.body() instanceof JsonObject event) {
        handler.handle(event);
      }
    });
  }

  @Override
  public boolean observe(PoolObserver observer) {
    return false;
  }

  @Override
  public void unobserve(PoolObserver observer) {}

  /** A request whose reply must be a JSON object; refusals mapped as for a submit. */
  private Future<JsonObject> control(String address, JsonObject body, long waitMs) {
    return control(address, body, waitMs, controlTimeoutMs);
  }

  private Future<JsonObject> control(String address, JsonObject body, long waitMs,
      long sendTimeoutMs) {
    return request(address, body, waitMs, sendTimeoutMs)
        .recover(failure -> Future.failedFuture(mapFailure(failure)))
        .compose(BusPoolHandle::object);
  }

  /**
   * A request that changes nothing (a status, a lookup or wait, a dead-letter read): as {@link
   * #control}, but ended at once should the pool's node leave the cluster ({@link #nodeLeft}).
   * A change is not: whether a dead node applied it cannot be known, and its timeout says so.
   */
  private Future<JsonObject> read(String address, JsonObject body, long waitMs,
      long sendTimeoutMs) {
    return reads.track(() -> request(address, body, waitMs, sendTimeoutMs))
        .recover(failure -> Future.failedFuture(leaderless && timedOut(failure)
            ? new ReplyException(ReplyFailure.NO_HANDLERS, -1, "no node leads pool " + name
                + " now: nothing answered within " + sendTimeoutMs + " ms")
            : mapFailure(failure)))
        .compose(BusPoolHandle::object);
  }

  /** How long a read that does not wait for anything may take: bounded while leaderless. */
  private long readTimeoutMs() {
    return leaderless ? Math.min(LEADERLESS_READ_MS, controlTimeoutMs) : controlTimeoutMs;
  }

  private Future<Message<Object>> request(String address, JsonObject body, long waitMs,
      long sendTimeoutMs) {
    return LeaderWait.request(vertx, address, body,
        new DeliveryOptions().setSendTimeout(sendTimeoutMs), Math.min(waitMs, controlTimeoutMs));
  }

  private static boolean timedOut(Throwable failure) {
    return failure instanceof ReplyException e && e.failureType() == ReplyFailure.TIMEOUT;
  }

  private static Future<JsonObject> object(Message<Object> reply) {
    return reply.body() instanceof JsonObject json ? Future.succeededFuture(json)
        : Future.failedFuture(new IllegalStateException("the pool answered with "
            + (reply.body() == null ? "nothing" : reply.body().getClass().getSimpleName())
            + " where a JSON object was expected"));
  }

  /**
   * A pool's {@code 400} as {@link BadRequest}; its {@code 409}, {@code 404} ({@code
   * UNKNOWN_JOB}) and {@code 429} ({@code TOO_MANY_WAITERS}) as {@link PoolErrorException}.
   */
  static Throwable mapFailure(Throwable failure) {
    if (failure instanceof ReplyException reply) {
      String message = String.valueOf(reply.getMessage());
      if (reply.failureCode() == 400) {
        return new BadRequest(message);
      }
      int code = reply.failureCode();
      if (code == 409 || code == 404 || code == 429) {
        return Refusals.parse(reply);
      }
    }
    return failure;
  }

  @Override
  public String toString() {
    return "pool " + name + " over the bus at " + addresses.prefix()
        + (node == null ? "" : " (node " + node + ")");
  }
}
