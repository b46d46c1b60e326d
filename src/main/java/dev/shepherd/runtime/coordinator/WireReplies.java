package dev.shepherd.runtime.coordinator;

import dev.shepherd.runtime.wire.OwnedJsonCodec;
import dev.shepherd.runtime.wire.Replier;
import dev.shepherd.runtime.wire.Sender;
import io.vertx.core.Context;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.impl.clustered.ClusteredMessage;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * How a coordinator writes its answers to bus requests. Confined to the coordinator's context.
 *
 * <p>What answers a request from another node (its reply; with a {@code replyTo}, the admission,
 * then progress and the outcome sent there) goes out on the clustered event bus's TCP connection
 * to that node, which lives on the event loop of whoever sent to the node first: very often the
 * coordinator's own. A message written on its connection's own event loop is written and flushed
 * alone, a system call per reply (over a third of a busy coordinator's loop, in {@code
 * docs/benchmarks.md}); written from another thread, messages queue for the connection's loop,
 * which writes what has queued and flushes once. So the answers to requests from the wire wait
 * for the end of the turn: a turn's only one is written then, on the coordinator's loop, where a
 * crossing would cost more latency than its flush; two or more are written together from a worker
 * thread (Vert.x's internal pool, on an ordered context of the pool's own), which also encodes
 * them. Written in the order given either way: a turn's only answer goes to the writer too while
 * earlier turns' are still being written there. Answers to requests from this JVM are written at
 * once: no connection is involved; a JSON one goes with {@link OwnedJsonCodec}, which hands the
 * answer built for it over instead of copying it whole again.
 */
public final class WireReplies implements Replier {
  private final Executor later;
  private final Predicate<Message<?>> fromWire;
  private final Supplier<Context> writerFactory;
  private final Runnable flushTask = this::flush;
  private ArrayList<Runnable> pending = new ArrayList<>();
  /** Batches handed to the writer and not yet written. */
  private final AtomicInteger writing = new AtomicInteger();
  private boolean scheduled;
  private Context writer;
  private final DeliveryOptions owned;

  /**
   * Replies of a coordinator on {@code vertx}; {@code later} runs a task on the coordinator's
   * context after its current turn (the turn's end also calls {@link #flush}).
   */
  static WireReplies of(Vertx vertx, Executor later) {
    if (vertx == null) {
      return new WireReplies(later, message -> false, () -> null, null);
    }
    DeliveryOptions owned = OwnedJsonCodec.registerOn(vertx.eventBus());
    if (!vertx.isClustered()) {
      return new WireReplies(later, message -> false, () -> null, owned);
    }
    return new WireReplies(later, WireReplies::fromWire, () -> writerContext(vertx), owned);
  }

  /**
   * {@code owned} (null: none) sends a JSON reply in this JVM with {@link OwnedJsonCodec}: every
   * answer's JSON is built for that answer alone.
   */
  WireReplies(Executor later, Predicate<Message<?>> fromWire, Supplier<Context> writerFactory,
      DeliveryOptions owned) {
    this.later = later;
    this.fromWire = fromWire;
    this.writerFactory = writerFactory;
    this.owned = owned;
  }

  /** Replies {@code body} to {@code request}: now, or at the turn's end if it came from the wire. */
  @Override
  public void reply(Message<?> request, Object body) {
    if (!fromWire.test(request)) {
      if (owned != null && body instanceof JsonObject) {
        request.reply(body, owned);
      } else {
        request.reply(body);
      }
      return;
    }
    queue(() -> request.reply(body));
  }

  /** Sends {@code body} to {@code address}: now, or at the turn's end for a request from the wire. */
  @Override
  public void send(Message<?> request, Sender bus, String address, Object body) {
    if (!fromWire.test(request)) {
      bus.send(address, body);
      return;
    }
    queue(() -> bus.send(address, body));
  }

  /**
   * Sends {@code body} to {@code address} like {@link #send(Message, Sender, String, Object)};
   * {@code written} runs once the bus wrote it.
   */
  @Override
  public void send(Message<?> request, Sender bus, String address, Object body,
      Runnable written) {
    if (!fromWire.test(request)) {
      bus.send(address, body, written);
      return;
    }
    queue(() -> bus.send(address, body, written));
  }

  private void queue(Runnable write) {
    pending.add(write);
    if (!scheduled) {
      scheduled = true;
      later.execute(flushTask);
    }
  }

  /**
   * Writes the turn's answers to requests from the wire: a turn's only one here, unless earlier
   * turns' are still being written (it would overtake them); more from the writer, in order.
   */
  void flush() {
    scheduled = false;
    if (pending.isEmpty()) {
      return;
    }
    if (pending.size() == 1 && writing.get() == 0) {
      Runnable only = pending.get(0);
      pending.clear();
      Outbox.run(only);
      return;
    }
    ArrayList<Runnable> writes = pending;
    pending = new ArrayList<>();
    if (writer == null) {
      writer = writerFactory.get();
    }
    writing.incrementAndGet();
    writer.runOnContext(v -> {
      try {
        Outbox.runAll(writes);
      } finally {
        writing.decrementAndGet();
      }
    });
  }

  private static boolean fromWire(Message<?> message) {
    return message instanceof ClusteredMessage<?, ?> clustered && clustered.isFromWire();
  }

  /** An ordered worker context on Vert.x's internal pool, which Vert.x itself manages. */
  private static Context writerContext(Vertx vertx) {
    VertxInternal internal = (VertxInternal) vertx;
    return internal.contextBuilder().withThreadingModel(ThreadingModel.WORKER)
        .withWorkerPool(internal.internalWorkerPool()).build();
  }
}
