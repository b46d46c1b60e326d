package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.Effect;
import dev.shepherd.core.ha.DurableGate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A durable pool's answers between their release and their leaving this JVM (A3 in
 * docs/rules.md). The gate reports an answer delivered in its next batch, and a successor sends
 * again only the answers not reported: one reported while its bytes were still inside this JVM
 * (written at the turn's end, from a worker thread, or queued for a connection's event loop) would
 * be lost with it in a {@code kill -9}. So an answer to another node counts as left when the bus
 * says it was written; its report comes back to the coordinator's context, those of a while
 * together, and the leader tells its gate there. An answer that left before its release returned
 * (no connection involved) is reported at once.
 */
final class LeavingAnswers {
  private final Coordinator coordinator;
  private final Consumer<List<Effect.Respond>> heard;
  private final ConcurrentLinkedQueue<Effect.Respond> written = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean draining = new AtomicBoolean();
  private final Runnable drain = this::drain;
  /** While {@link #release} runs: its answer and thread, to tell a report made meanwhile. */
  private Effect.Respond releasing;
  private Thread releasingOn;
  private boolean leftAtOnce;

  /** {@code heard} gets, on the coordinator's context, the answers written since last time. */
  LeavingAnswers(Coordinator coordinator, Consumer<List<Effect.Respond>> heard) {
    this.coordinator = coordinator;
    this.heard = heard;
  }

  /** Answers {@code respond}; whether it left already ({@link DurableGate.Output#release}). */
  boolean release(Effect.Respond respond) {
    // Saved and put back: an answer's callback may lead to another release before it returns.
    Effect.Respond outer = releasing;
    Thread outerOn = releasingOn;
    boolean outerLeft = leftAtOnce;
    releasing = respond;
    releasingOn = Thread.currentThread();
    leftAtOnce = false;
    try {
      coordinator.release(respond, () -> left(respond));
      return leftAtOnce;
    } finally {
      releasing = outer;
      releasingOn = outerOn;
      leftAtOnce = outerLeft;
    }
  }

  /** Any thread: {@code respond} was written. */
  private void left(Effect.Respond respond) {
    if (releasingOn == Thread.currentThread() && releasing == respond) {
      leftAtOnce = true;
      return;
    }
    written.add(respond);
    if (draining.compareAndSet(false, true)) {
      coordinator.execute(drain);
    }
  }

  private void drain() {
    draining.set(false);
    List<Effect.Respond> left = new ArrayList<>();
    for (Effect.Respond respond; (respond = written.poll()) != null; ) {
      left.add(respond);
    }
    if (!left.isEmpty()) {
      heard.accept(left);
    }
  }
}
