package dev.shepherd.runtime.access;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolError;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.runtime.DeadLetterPage;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.coordinator.Awaited;
import dev.shepherd.runtime.coordinator.CallbackResponder;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.Inbox;
import dev.shepherd.runtime.coordinator.LookupsAndDeadLetters;
import dev.shepherd.runtime.coordinator.Outbox;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.trace.JobTrace;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.NodeId;
import dev.shepherd.runtime.wire.RequestDecoder;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.runtime.wire.SnapshotJson;
import io.vertx.core.Context;
import dev.shepherd.core.PoolSize;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * The in-JVM fast path to a pool of this Vert.x instance: each call is a task handed to the
 * coordinator's {@link Inbox} (run in a batch with whatever else queued up), and answers come back
 * through its {@link Outbox}, one hand-over per caller context and coordinator turn. One per
 * coordinator, made with it.
 */
public final class LocalPoolHandle implements PoolHandle {
  private final Coordinator coordinator;

  public LocalPoolHandle(Coordinator coordinator) {
    this.coordinator = coordinator;
  }

  @Override
  public String name() {
    return coordinator.name();
  }

  @Override
  public Addresses addresses() {
    return coordinator.config().addresses();
  }

  @Override
  public boolean local() {
    return true;
  }

  @Override
  public String node() {
    return NodeId.of(coordinator.vertx());
  }

  @Override
  public int maxPayloadDepth() {
    return coordinator.config().maxPayloadDepth();
  }

  @Override
  public void submit(Requests.Submit request, boolean admission, Handler<Outcome> onAnswer,
      Handler<Throwable> onFailure) {
    submit(request, admission, onAnswer, onFailure, null);
  }

  @Override
  public void submit(Requests.Submit request, boolean admission, Handler<Outcome> onAnswer,
      Handler<Throwable> onFailure, Handler<io.vertx.core.json.JsonObject> onProgress) {
    try {
      RequestDecoder.checkForPool(request, coordinator.config());
    } catch (BadRequest e) {
      onFailure.handle(e);
      return;
    }
    CallbackResponder responder = new CallbackResponder(onAnswer, admission,
        Vertx.currentContext(), coordinator.outbox(), onProgress);
    // T1 (docs/rules.md): the caller's trace, captured here on the caller's context.
    JobTrace trace = coordinator.traces() == null ? null : coordinator.traces().capture();
    coordinator.execute(() -> coordinator.submit(request, responder, trace));
  }

  @Override
  public Future<Boolean> cancel(String job) {
    Promise<Boolean> promise = onCaller();
    coordinator.execute(() -> promise.complete(coordinator.cancel(new Requests.Cancel(job))));
    return promise.future();
  }

  @Override
  public Future<Void> rebalance(String key, String worker) {
    Promise<Void> promise = onCaller();
    coordinator.execute(() -> {
      PoolError error = coordinator.rebalance(new Requests.Rebalance(key, worker));
      if (error == null) {
        promise.complete();
      } else {
        promise.fail(new PoolErrorException(error));
      }
    });
    return promise.future();
  }

  @Override
  public Future<Integer> revive(String worker) {
    Promise<Integer> promise = onCaller();
    coordinator.execute(() ->
        coordinator.revive(new Requests.Revive(worker)).onComplete(promise));
    return promise.future();
  }

  @Override
  public Future<JsonObject> pause(String group) {
    return onPool(() -> coordinator.flow().pause(group));
  }

  @Override
  public Future<JsonObject> resume(String group) {
    return onPool(() -> coordinator.flow().resume(group));
  }

  @Override
  public Future<JsonObject> setGroup(String group, dev.shepherd.core.GroupSettings change) {
    return onPool(() -> coordinator.flow().setGroup(group, change));
  }

  @Override
  public Future<JsonObject> group(String group) {
    return onPool(() -> Future.succeededFuture(coordinator.flow().group(group)));
  }

  /** Runs {@code step} on the coordinator's context; its future completes on the caller's. */
  private <T> Future<T> onPool(java.util.function.Supplier<Future<T>> step) {
    Promise<T> promise = onCaller();
    coordinator.execute(() -> step.get().onComplete(promise));
    return promise.future();
  }

  @Override
  public Future<PoolSize> resize(Integer instances, Integer maxConcurrency) {
    Promise<PoolSize> promise = onCaller();
    coordinator.execute(() -> coordinator.resize(new Requests.Resize(instances, maxConcurrency))
        .onComplete(promise));
    return promise.future();
  }

  @Override
  public Future<JobView> lookup(String job) {
    return found(() -> coordinator.jobs().lookup(job),
        () -> LookupsAndDeadLetters.unknownJob(job));
  }

  @Override
  public Future<Awaited> await(String job, long timeoutMs) {
    Promise<Awaited> promise = onCaller();
    coordinator.execute(() -> coordinator.jobs().await(job, timeoutMs).onComplete(promise));
    return promise.future();
  }

  @Override
  public Future<DeadLetterPage> deadLetters(int offset, int limit) {
    Promise<DeadLetterPage> promise = onCaller();
    coordinator.execute(() -> promise.complete(coordinator.jobs().deadLetters(offset, limit)));
    return promise.future();
  }

  @Override
  public Future<DeadLetter> deadLetter(String job) {
    return found(() -> coordinator.jobs().deadLetter(job),
        () -> LookupsAndDeadLetters.notDead(job));
  }

  @Override
  public Future<Outcome> replay(String job) {
    Promise<Outcome> promise = onCaller();
    coordinator.execute(() -> coordinator.jobs().replay(job).onComplete(promise));
    return promise.future();
  }

  @Override
  public Future<Void> discard(String job) {
    Promise<Void> promise = onCaller();
    coordinator.execute(() -> {
      PoolError error = coordinator.jobs().discard(job);
      if (error == null) {
        promise.complete();
      } else {
        promise.fail(new PoolErrorException(error));
      }
    });
    return promise.future();
  }

  @Override
  public Future<JsonObject> history() {
    // The history lives beside the coordinator (PoolVerticle's), answering on its address.
    return PoolHistoryRequest.fetch(coordinator.vertx(), addresses());
  }

  @Override
  public Future<JsonObject> status() {
    return snapshot().map(SnapshotJson::encode);
  }

  @Override
  public Future<PoolSnapshot> snapshot() {
    Promise<PoolSnapshot> promise = onCaller();
    coordinator.execute(() -> promise.complete(coordinator.snapshot()));
    return promise.future();
  }

  @Override
  public MessageConsumer<?> events(Handler<JsonObject> handler) {
    return coordinator.vertx().eventBus().<Object>localConsumer(addresses().events(), message -> {
      if (message.body() instanceof JsonObject event) {
        handler.handle(event);
      }
    });
  }

  @Override
  public boolean observe(PoolObserver observer) {
    coordinator.observe(observer);
    return true;
  }

  @Override
  public void unobserve(PoolObserver observer) {
    coordinator.unobserve(observer);
  }

  /** A promise whose future's callbacks run on the caller's context (if it has one). */
  private static <T> Promise<T> onCaller() {
    Context caller = Vertx.currentContext();
    return caller instanceof ContextInternal internal ? internal.promise() : Promise.promise();
  }

  @Override
  public String toString() {
    return "local pool " + name();
  }

  /**
   * What {@code read} finds on the pool's context, answered on the caller's; {@code missing}'s
   * failure when it finds nothing.
   */
  private <T> Future<T> found(Supplier<T> read, Supplier<? extends Throwable> missing) {
    Promise<T> promise = onCaller();
    coordinator.execute(() -> {
      T value = read.get();
      if (value == null) {
        promise.fail(missing.get());
      } else {
        promise.complete(value);
      }
    });
    return promise.future();
  }
}
