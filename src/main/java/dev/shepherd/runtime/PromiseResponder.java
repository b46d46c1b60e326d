package dev.shepherd.runtime;

import dev.shepherd.core.Outcome;
import io.vertx.core.Context;
import io.vertx.core.Promise;

/**
 * Answers an in-JVM submitter by completing its promise on the submitter's own context (so its
 * callbacks run there), batched with the other answers of the coordinator's turn: with the
 * terminal outcome, or, in admission mode, with the admission.
 */
final class PromiseResponder implements Responder {
  private final Promise<Outcome> promise;
  private final boolean admissionOnly;
  private final Context caller;
  private final Outbox outbox;
  private boolean answered;

  PromiseResponder(Promise<Outcome> promise, boolean admissionOnly, Context caller,
      Outbox outbox) {
    this.promise = promise;
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
      promise.complete(outcome);
    } else {
      outbox.send(caller, () -> promise.complete(outcome));
    }
  }
}
