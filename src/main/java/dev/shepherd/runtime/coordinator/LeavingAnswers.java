package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.Effect;
import dev.shepherd.core.ha.DurableGate;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A durable pool's answers between their release and their leaving this JVM (A3 in
 * docs/rules.md). The gate reports an answer delivered in its next batch, and a successor sends
 * again only the answers not reported: one reported while its bytes were still inside this JVM
 * (written at the turn's end, from a worker thread, or queued for a connection's event loop) would
 * be lost with it in a {@code kill -9}. So an answer to another node counts as left when the bus
 * says it was written; its report comes back to the coordinator's context, those of a while
 * together, and the gate hears them there. An answer that left before its release returned (no
 * connection involved) is reported at once.
 */
final class LeavingAnswers {
  private final Coordinator coordinator;
  private final DurableGate gate;
  private final ConcurrentLinkedQueue<Effect.Respond> written = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean draining = new AtomicBoolean();
  private final Runnable drain = this::drain;
  /** While {@link #release} runs: its answer and thread, to tell a report made meanwhile. */
  private Effect.Respond releasing;
  private Thread releasingOn;
  private boolean leftAtOnce;

  LeavingAnswers(Coordinator coordinator, DurableGate gate) {
    this.coordinator = coordinator;
    this.gate = gate;
  }

  /** Answers {@code respond}; whether it left already ({@link DurableGate.Output#release}). */
  boolean release(Effect.Respond respond) {
    releasing = respond;
    releasingOn = Thread.currentThread();
    leftAtOnce = false;
    try {
      coordinator.release(respond, () -> left(respond));
      return leftAtOnce;
    } finally {
      releasing = null;
      releasingOn = null;
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

  /** On the coordinator's context: the gate hears the answers written since the last time. */
  private void drain() {
    draining.set(false);
    boolean any = false;
    for (Effect.Respond respond; (respond = written.poll()) != null; ) {
      gate.left(respond);
      any = true;
    }
    if (any) {
      gate.pump(coordinator.now());
    }
  }
}
