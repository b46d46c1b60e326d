package dev.shepherd.runtime.access;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.JobView;
import dev.shepherd.core.PoolError;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.LookupsAndDeadLetters;
import dev.shepherd.runtime.observe.PoolHistory;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.BusResponder;
import dev.shepherd.runtime.wire.BusWire;
import dev.shepherd.runtime.wire.DeadLetterJson;
import dev.shepherd.runtime.wire.JobViewJson;
import dev.shepherd.runtime.wire.OutcomeJson;
import dev.shepherd.runtime.wire.Refusals;
import dev.shepherd.runtime.wire.RequestDecoder;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.runtime.wire.SnapshotJson;
import dev.shepherd.runtime.wire.TopLevelFields;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The pool's event-bus protocol v1 (section 6 in docs/rules.md): one consumer per address, each
 * decoding its body ({@code fail(400, …)} naming the field when malformed, state unchanged),
 * calling the coordinator, and replying (a state-machine refusal through {@link Refusals}).
 */
public final class BusEndpoints {
  private static final Set<String> BATCH_FIELDS = Set.of(BusWire.HOST, BusWire.ITEMS);
  private final Coordinator coordinator;
  private final PoolHistory history;
  /** The bus the routes are registered on; null in the failover simulation. */
  private final EventBus bus;
  private final List<MessageConsumer<Object>> consumers = new ArrayList<>();
  /** Consumers a standby registered while claiming the pool, serving it now; or null. */
  private ReadyConsumers ready;

  public BusEndpoints(Coordinator coordinator, PoolHistory history) {
    this.coordinator = coordinator;
    this.history = history;
    this.bus = coordinator.vertx() == null ? null : coordinator.vertx().eventBus();
  }

  /**
   * The pool's handler of each address, decoding and answering as the protocol says: what
   * {@link #register} puts on the bus, and what the failover simulation delivers its network's
   * messages to.
   */
  public Map<String, Consumer<Message<Object>>> routes() {
    Addresses a = coordinator.config().addresses();
    Map<String, Consumer<Message<Object>>> routes = new LinkedHashMap<>();
    route(routes, a.submit(), this::submit);
    route(routes, a.completed(), this::completed);
    route(routes, a.rebalance(), this::rebalance);
    route(routes, a.cancel(), this::cancel);
    route(routes, a.status(), this::status);
    route(routes, a.revive(), this::revive);
    route(routes, a.pause(), message -> reply(message,
        coordinator.flow().pause(RequestDecoder.pauseTarget(message.body()))));
    route(routes, a.resume(), message -> reply(message,
        coordinator.flow().resume(RequestDecoder.pauseTarget(message.body()))));
    route(routes, a.groupSet(), message -> {
      Requests.SetGroup request = RequestDecoder.setGroup(message.body());
      reply(message, coordinator.flow().setGroup(request.group(), request.change()));
    });
    route(routes, a.groupReset(), message -> reply(message,
        coordinator.flow().setGroup(RequestDecoder.groupLookup(message.body()).group(), null)));
    route(routes, a.group(), message -> message.reply(
        coordinator.flow().group(RequestDecoder.groupLookup(message.body()).group())));
    route(routes, a.size(), this::resize);
    route(routes, a.history(), this::history);
    route(routes, a.job(), this::job);
    route(routes, a.deadLetters(), this::deadLetters);
    route(routes, a.deadLetter(), this::deadLetter);
    route(routes, a.replayDead(), this::replayDead);
    route(routes, a.discardDead(), this::discardDead);
    return routes;
  }

  public Future<Void> register() {
    return register(null);
  }

  /**
   * Consumes the pool's addresses. Those {@code ready} consumes too (a standby's, registered
   * while it claimed the pool; null: none) serve the pool from now on as well, the messages
   * they held first; the term still registers its own consumers of them and waits only for
   * those: a ready consumer registered while the cluster moved partitions can fail to register
   * after Hazelcast's 5 s (seen for the submit address, `HaBench`), which must not fail the term.
   */
  public Future<Void> register(ReadyConsumers ready) {
    Map<String, Handler<Message<Object>>> adopted = new LinkedHashMap<>();
    routes().forEach((address, handler) -> {
      Handler<Message<Object>> turn = coordinator.asTurn(handler::accept);
      if (ready != null && ready.holds(address)) {
        adopted.put(address, turn);
      }
      consumers.add(bus.consumer(address, turn));
    });
    List<Future<Void>> registered = new ArrayList<>();
    consumers.forEach(c -> registered.add(c.completion()));
    if (ready != null) {
      this.ready = ready;
      ready.serve(adopted);
    }
    return Future.all(registered).mapEmpty();
  }

  public Future<Void> unregister() {
    List<Future<Void>> done = new ArrayList<>();
    consumers.forEach(c -> done.add(c.unregister()));
    if (ready != null) {
      done.add(ready.withdraw());
    }
    return Future.join(done).mapEmpty();
  }

  private static void route(Map<String, Consumer<Message<Object>>> routes, String address,
      Consumer<Message<Object>> handler) {
    routes.put(address, message -> {
      try {
        handler.accept(message);
      } catch (BadRequest e) {
        message.fail(400, e.getMessage());
      }
    });
  }

  private void submit(Message<Object> message) {
    Requests.Submit request = RequestDecoder.submit(message.body(),
        coordinator.config().maxPayloadDepth());
    RequestDecoder.checkForPool(request, coordinator.config());
    coordinator.submit(request, new BusResponder(message, request.replyTo(), coordinator.sender(),
        coordinator.replies()));
  }

  private void completed(Message<Object> message) {
    if (coordinator.completionBatches() != null && isBatch(message.body())) {
      coordinator.completionBatches().handle(message);
      return;
    }
    PoolError error = RequestDecoder.isRateLimited(message.body())
        ? coordinator.rateLimited(RequestDecoder.rateLimited(message.body()))
        : coordinator.completed(RequestDecoder.completed(message.body()));
    if (error == null) {
      message.reply(new JsonObject());
    } else {
      Refusals.fail(message, error);
    }
  }

  /**
   * The batch form of a worker host names its host and carries items; the single form neither.
   * Hosts send batches as buffers of JSON text, told apart without decoding them here.
   */
  private static boolean isBatch(Object body) {
    if (body instanceof Buffer text) {
      Boolean batch = TopLevelFields.namesAny(text, BATCH_FIELDS);
      if (batch != null) {
        return batch;
      }
    }
    JsonObject json = RequestDecoder.object(body);
    return json.containsKey(BusWire.HOST) || json.containsKey(BusWire.ITEMS);
  }

  private void rebalance(Message<Object> message) {
    Requests.Rebalance request = RequestDecoder.rebalance(message.body());
    PoolError error = coordinator.rebalance(request);
    if (error == null) {
      message.reply(new JsonObject().put(BusWire.KEY, request.key())
          .put(BusWire.WORKER, request.worker()));
    } else {
      Refusals.fail(message, error);
    }
  }

  private void cancel(Message<Object> message) {
    Requests.Cancel request = RequestDecoder.cancel(message.body());
    boolean cancelled = coordinator.cancel(request);
    message.reply(new JsonObject().put(BusWire.JOB, request.job())
        .put(BusWire.CANCELLED, cancelled));
  }

  private void revive(Message<Object> message) {
    Requests.Revive request = RequestDecoder.revive(message.body());
    coordinator.revive(request).onComplete(ar -> {
      if (ar.succeeded()) {
        message.reply(new JsonObject().put(BusWire.WORKER, request.worker())
            .put(BusWire.INCARNATION, ar.result()));
      } else {
        Refusals.fail(message, (PoolErrorException) ar.cause());
      }
    });
  }

  /** F6 (docs/rules.md): {@code .size}; the reply is the size now. */
  private void resize(Message<Object> message) {
    Requests.Resize request = RequestDecoder.resize(message.body());
    coordinator.resize(request).onComplete(ar -> {
      if (ar.succeeded()) {
        message.reply(new JsonObject().put(BusWire.INSTANCES, ar.result().instances())
            .put(BusWire.MAX_CONCURRENCY, ar.result().maxConcurrency()));
      } else if (ar.cause() instanceof BadRequest bad) {
        message.fail(400, bad.getMessage());
      } else {
        Refusals.fail(message, (PoolErrorException) ar.cause());
      }
    });
  }

  private void status(Message<Object> message) {
    RequestDecoder.status(message.body());
    message.reply(SnapshotJson.encode(coordinator.snapshot()));
  }

  private void history(Message<Object> message) {
    RequestDecoder.history(message.body());
    message.reply(history.frame(coordinator.name(), coordinator.clock().wallMs()));
  }

  /**
   * {@code .job}: the job's view; with {@code wait}, its terminal outcome (the body a submit's
   * reply has) or, when the wait ends first, its view with {@code "waited": true}.
   */
  private void job(Message<Object> message) {
    Requests.Lookup request = RequestDecoder.lookup(message.body());
    if (!request.waits()) {
      JobView view = coordinator.jobs().lookup(request.job());
      if (view == null) {
        fail(message, LookupsAndDeadLetters.unknownJob(request.job()));
      } else {
        message.reply(JobViewJson.encode(view));
      }
      return;
    }
    coordinator.jobs().await(request.job(), request.timeoutMs()).onComplete(ar -> {
      if (ar.failed()) {
        fail(message, ar.cause());
      } else if (ar.result().answered()) {
        message.reply(OutcomeJson.encodeSafely(ar.result().outcome()));
      } else {
        message.reply(JobViewJson.encodeWaited(ar.result().view()));
      }
    });
  }

  private void deadLetters(Message<Object> message) {
    Requests.DeadLetters request = RequestDecoder.deadLetters(message.body());
    message.reply(DeadLetterJson.encode(
        coordinator.jobs().deadLetters(request.offset(), request.limit())));
  }

  private void deadLetter(Message<Object> message) {
    Requests.DeadJob request = RequestDecoder.deadJob(message.body());
    DeadLetter entry = coordinator.jobs().deadLetter(request.job());
    if (entry == null) {
      fail(message, LookupsAndDeadLetters.notDead(request.job()));
    } else {
      message.reply(DeadLetterJson.encode(entry));
    }
  }

  /** {@code .dead.replay}: the admission, as a submit's reply with {@code replyTo} is. */
  private void replayDead(Message<Object> message) {
    Requests.DeadJob request = RequestDecoder.deadJob(message.body());
    coordinator.jobs().replay(request.job()).onComplete(ar -> {
      if (ar.failed()) {
        fail(message, ar.cause());
      } else {
        message.reply(OutcomeJson.encodeSafely(ar.result()));
      }
    });
  }

  private void discardDead(Message<Object> message) {
    Requests.DeadJob request = RequestDecoder.deadJob(message.body());
    PoolError error = coordinator.jobs().discard(request.job());
    if (error == null) {
      message.reply(new JsonObject().put(BusWire.JOB, request.job()).put(BusWire.DISCARDED, true));
    } else {
      Refusals.fail(message, error);
    }
  }

  /** Replies with {@code answer}'s JSON, or its refusal. */
  private static void reply(Message<Object> message, Future<JsonObject> answer) {
    answer.onComplete(ar -> {
      if (ar.succeeded()) {
        message.reply(ar.result());
      } else {
        fail(message, ar.cause());
      }
    });
  }

  /** A refusal ({@link Refusals}), or the pool's own failure as a 500. */
  private static void fail(Message<Object> message, Throwable failure) {
    if (failure instanceof PoolErrorException e) {
      Refusals.fail(message, e);
    } else {
      message.fail(500, String.valueOf(failure.getMessage()));
    }
  }
}
