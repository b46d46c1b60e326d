package dev.shepherd.runtime.access;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.runtime.DeadLetterPage;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.coordinator.Awaited;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.core.PoolSize;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/**
 * One pool as its users inside a JVM reach it, wherever its coordinator runs: straight to the
 * coordinator's context when it runs in this Vert.x instance (no event bus, no JSON copy, batched
 * with the coordinator's other work), otherwise protocol v1 over the (clustered) event bus. The
 * web layer and {@link PoolClient} use nothing else of a pool.
 *
 * <p>Answers and futures complete on the caller's context. Refusals arrive as exceptions: {@link
 * BadRequest} for malformed input (the pool's {@code 400}), {@link PoolErrorException} for a
 * state-machine refusal (its {@code 409}, or the {@link PoolErrorException#code()} of {@code
 * UNKNOWN_JOB} and {@code TOO_MANY_WAITERS}); over the bus, an unreachable pool fails with the
 * bus's {@link io.vertx.core.eventbus.ReplyException} ({@code NO_HANDLERS}: the pool is gone;
 * {@code TIMEOUT}: no answer in time).
 */
public interface PoolHandle {

  String name();

  Addresses addresses();

  /** Whether the pool's coordinator runs in this Vert.x instance. */
  boolean local();

  /**
   * Whether the pool is highly available and reached over the bus: a request that finds no
   * coordinator waits for a new leader for a while, and {@code NO_HANDLERS} after that means
   * that no node leads the pool now (a failover, or no majority), not that the pool is gone.
   */
  default boolean awaitsLeader() {
    return false;
  }

  /**
   * The cluster node that coordinates the pool (its Vert.x node id), or null when unknown or not
   * clustered.
   */
  String node();

  /**
   * How deep a payload this side lets through: the pool's own limit when local; the largest any
   * pool accepts when remote (the pool then checks its own and answers {@code 400}).
   */
  int maxPayloadDepth();

  /**
   * Submits {@code request} (already decoded and checked). {@code onAnswer} is called once, on
   * the caller's context, with the terminal outcome, or with the admission ({@code accepted} or
   * {@code rejected}) when {@code admission} is true; {@code onFailure} hears bad input the pool
   * refused and failures of the bus, and then {@code onAnswer} is never called.
   */
  void submit(Requests.Submit request, boolean admission, Handler<Outcome> onAnswer,
      Handler<Throwable> onFailure);

  /**
   * {@link #submit(Requests.Submit, boolean, Handler, Handler)}, with {@code onProgress} hearing
   * the job's progress reports (T2 in docs/rules.md) on the caller's context where this handle can
   * carry them (in the JVM of the coordinator); elsewhere they are not heard.
   */
  default void submit(Requests.Submit request, boolean admission, Handler<Outcome> onAnswer,
      Handler<Throwable> onFailure, Handler<io.vertx.core.json.JsonObject> onProgress) {
    submit(request, admission, onAnswer, onFailure);
  }

  /** {@link #submit(Requests.Submit, boolean, Handler, Handler)} as a future. */
  default Future<Outcome> submit(Requests.Submit request, boolean admission) {
    Promise<Outcome> promise = Promise.promise();
    submit(request, admission, promise::complete, promise::fail);
    return promise.future();
  }

  /** Cancels {@code job}: true when it was queued or running and is now answered cancelled. */
  Future<Boolean> cancel(String job);

  /** Binds {@code key} to {@code worker}; fails with {@link PoolErrorException} when refused. */
  Future<Void> rebalance(String key, String worker);

  /**
   * Puts the retired slot {@code worker} back in service with a new incarnation (a revive, which
   * the restart budget does not count) and succeeds with that incarnation's number; fails with
   * {@link PoolErrorException} {@code REVIVE_REFUSED} or {@code UNKNOWN_WORKER}, changing nothing.
   * The id is checked by the caller.
   */
  Future<Integer> revive(String worker);

  /**
   * Pauses dispatch from {@code group}, or from the whole pool when it is null (F5 in
   * docs/rules.md): running jobs finish, submits are still accepted (or refused {@code PAUSED}
   * where the pool says so). Succeeds with what is paused now: the group's JSON ({@link
   * #group}), or the pool's {@code {"name", "paused", "pausedSince"}}. The name is checked by the
   * caller.
   */
  Future<JsonObject> pause(String group);

  /** Resumes what {@link #pause} paused; dispatch runs at once (F5 in docs/rules.md). */
  Future<JsonObject> resume(String group);

  /**
   * Sets the fields {@code change} gives of {@code group}'s limits (F1, F2, F4, F5 in
   * docs/rules.md), the others staying as they are; with {@code change} null drops the group's
   * run-time settings. Succeeds with the group's JSON ({@link #group}).
   */
  Future<JsonObject> setGroup(String group, dev.shepherd.core.GroupSettings change);

  /**
   * One group's limits and load (F1 in docs/rules.md): {@code {"name", "running", "queued",
   * "concurrency", "queueCapacity", "weight", "rateLimit", "paused", "pausedSince",
   * "heldUntil"}}, the pool's defaults for a group it holds nothing of.
   */
  Future<JsonObject> group(String group);

  /**
   * F6 (docs/rules.md): resizes the pool's own slots ({@code null} keeps what it has) and succeeds
   * with the size now; fails with {@link dev.shepherd.runtime.payload.BadRequest} naming {@code
   * instances} or {@code maxConcurrency}, or {@link PoolErrorException} {@code RESIZE_REFUSED}
   * while the pool stops, changing nothing. The values' ranges are checked by the caller.
   */
  Future<PoolSize> resize(Integer instances, Integer maxConcurrency);

  /**
   * Where {@code job} is (J6 in docs/rules.md): queued, waiting, running, answered or
   * dead-lettered. Fails with {@link PoolErrorException} {@code UNKNOWN_JOB} for a job the pool
   * never accepted or has forgotten. The id is checked by the caller.
   */
  Future<JobView> lookup(String job);

  /**
   * The terminal outcome of {@code job} (J6 in docs/rules.md): at once when it is answered and
   * remembered, else once it is answered; when {@code timeoutMs} (checked by the caller) pass
   * first, or the coordinator stops acting, the job's view then. Fails with {@link
   * PoolErrorException} {@code UNKNOWN_JOB}, or {@code TOO_MANY_WAITERS} when the pool holds as
   * many waiters as it allows.
   */
  Future<Awaited> await(String job, long timeoutMs);

  /**
   * A page of the dead-letter set (J5 in docs/rules.md), newest first; bounds checked by the
   * caller.
   */
  Future<DeadLetterPage> deadLetters(int offset, int limit);

  /**
   * The dead letter of {@code job} (J5 in docs/rules.md); fails with {@code UNKNOWN_JOB} when there
   * is none.
   */
  Future<DeadLetter> deadLetter(String job);

  /**
   * Submits the dead-lettered {@code job} again under its id, admitted like any submit (J5 in
   * docs/rules.md): the admission, {@code accepted} (it has left the set) or {@code rejected} (it
   * stays). Its terminal outcome is not waited for ({@link #await} finds it). Fails with {@code
   * UNKNOWN_JOB}.
   */
  Future<Outcome> replay(String job);

  /**
   * Removes {@code job} from the dead-letter set (J5 in docs/rules.md); fails with {@code
   * UNKNOWN_JOB}.
   */
  Future<Void> discard(String job);

  /**
   * The pool's {@code history} frame (its recent events, per-second outcomes and last exits, from
   * {@code <prefix>.history}), or null when it gives none within 5 s; never a failed future.
   */
  Future<JsonObject> history();

  /** The status snapshot as the pool encodes it (the {@code .status} reply). */
  Future<JsonObject> status();

  /** The status snapshot as a value. */
  Future<PoolSnapshot> snapshot();

  /**
   * Calls {@code handler} with every event the pool publishes on {@code <prefix>.events}, from
   * when the returned consumer's {@code completion()} succeeds until it is unregistered. A local
   * pool's events are heard through a local consumer, a remote pool's through a clustered one.
   * A body that is not a JSON object (not something a pool publishes) is skipped.
   */
  MessageConsumer<?> events(Handler<JsonObject> handler);

  /**
   * Adds an observer that runs on the coordinator's context (histograms of queue wait and run
   * time need it). Only a local pool has one: answers false, and does nothing, for a remote pool.
   */
  boolean observe(PoolObserver observer);

  /** Removes an observer added by {@link #observe}. */
  void unobserve(PoolObserver observer);
}
