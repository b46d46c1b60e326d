package dev.shepherd.runtime.coordinator;

import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Items collected during one turn of a context and handed on together once the turn is over (or
 * as soon as {@code cap} of them are waiting): "collect this turn, flush once". The flush is a
 * task queued behind the tasks already waiting on the context, so a burst that arrives as many
 * tasks (bus messages, hand-ins) leaves as one flush. Every layer that batches per turn uses it:
 * the {@link Outbox}, a worker host's reports, a pool's commands to a host, a durable leader's
 * effects. Confined to its context.
 */
public final class TurnBuffer<T> {
  /** No cap: the turn's end is the only flush. */
  public static final int UNCAPPED = Integer.MAX_VALUE;

  private final Executor later;
  private final Consumer<ArrayList<T>> flush;
  private final int cap;
  private ArrayList<T> pending = new ArrayList<>(8);
  private boolean scheduled;
  private final Runnable flushTask = this::flush;

  /**
   * A buffer whose end-of-turn flush is queued with {@code later} (on the buffer's context) and
   * hands the items, in the order they were added, to {@code flush}; the list is the consumer's
   * to keep.
   */
  public TurnBuffer(Executor later, int cap, Consumer<ArrayList<T>> flush) {
    if (cap < 1) {
      throw new IllegalArgumentException("cap must be at least 1: " + cap);
    }
    this.later = later;
    this.cap = cap;
    this.flush = flush;
  }

  /** An uncapped buffer flushed at the end of each turn of {@code context}. */
  public static <T> TurnBuffer<T> on(Context context, Consumer<ArrayList<T>> flush) {
    return new TurnBuffer<>(task -> context.runOnContext(v -> task.run()), UNCAPPED, flush);
  }

  /** Queues {@code item}; it leaves with the rest of this turn's items. */
  public void add(T item) {
    pending.add(item);
    if (pending.size() >= cap) {
      flush();
    } else if (!scheduled) {
      scheduled = true;
      later.execute(flushTask);
    }
  }

  /**
   * Hands everything queued on now (nothing when empty). The end-of-turn task calls it; so may an
   * owner that must not let a later step overtake what is queued.
   */
  public void flush() {
    scheduled = false;
    if (pending.isEmpty()) {
      return;
    }
    ArrayList<T> items = pending;
    pending = new ArrayList<>(Math.max(8, items.size()));
    flush.accept(items);
  }

  /** Forgets what is queued (its receiver is gone, or would take it as stale). */
  public void drop() {
    pending.clear();
  }

  /** How many items wait for the flush. */
  public int size() {
    return pending.size();
  }
}
