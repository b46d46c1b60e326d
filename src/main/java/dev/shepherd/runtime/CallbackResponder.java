package dev.shepherd.runtime;

import dev.shepherd.core.Outcome;
import io.vertx.core.Context;
import io.vertx.core.Handler;

/**
 * Answers an in-JVM submitter by calling its handler on the submitter's own context (so its
 * callbacks run there), batched with the other answers of the coordinator's turn: once, with the
 * terminal outcome, or, in admission mode, with the admission.
 */
final class CallbackResponder implements Responder {
  private final Handler<Outcome> handler;
  private final boolean admissionOnly;
  private final Context caller;
  private final Outbox outbox;
  private boolean answered;

  CallbackResponder(Handler<Outcome> handler, boolean admissionOnly, Context caller,
      Outbox outbox) {
    this.handler = handler;
    this.admissionOnly = admissionOnly;
    this.caller = caller;
    this.outbox = outbox;
  }

  @Override
  public void respond(Outcome outcome) {
    if (answered || (outcome instanceof Outcome.Accepted && !admissionOnly)) {
      return;
    }
    answered = true;
    if (caller == null) {
      handler.handle(outcome);
    } else {
      outbox.send(caller, () -> handler.handle(outcome));
    }
  }
}
