package dev.shepherd.runtime.wire;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Outcome;

/**
 * Where one submitter's answers go: the runtime's meaning of the core's opaque {@code replyTo}.
 * Called on the coordinator's context, once with the admission and once with the terminal outcome
 * (a rejection is both).
 */
public interface Responder {
  void respond(Outcome outcome);

  /**
   * {@link #respond(Outcome)}, with the throwable the job failed with in this JVM when {@code
   * outcome} is that failure (else null): only a submitter in this JVM can be handed it.
   */
  default void respond(Outcome outcome, Throwable cause) {
    respond(outcome);
  }

  /**
   * {@link #respond(Outcome, Throwable)} for a durable pool, which reports an answer delivered
   * only once it left this JVM (A3 in docs/rules.md): {@code left} runs, on any thread, once the
   * connection it went to wrote it (or gave up on it); at once when none is involved.
   */
  default void respond(Outcome outcome, Throwable cause, Runnable left) {
    respond(outcome, cause);
    left.run();
  }

  /**
   * T2 (docs/rules.md): the job's running attempt reported {@code progress}, a message that is not
   * an answer: it comes before the terminal outcome and may be dropped. Nothing by default (a
   * plain request/reply submitter has only the one reply).
   */
  default void progress(Effect.Progress progress) {}

  /**
   * The event-bus address the terminal outcome goes to, which outlives this node (A4 in
   * docs/rules.md), or null when only this request's own reply can carry it: what a durable pool
   * records as the job's {@code replyTo}.
   */
  default String address() {
    return null;
  }
}
