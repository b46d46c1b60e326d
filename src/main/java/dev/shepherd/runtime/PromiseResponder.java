package dev.shepherd.runtime;

import dev.shepherd.core.Outcome;
import io.vertx.core.Promise;

/**
 * Answers an in-JVM submitter by completing its promise (bound to the submitter's context, so its
 * callbacks run there): with the terminal outcome, or, in admission mode, with the admission.
 */
final class PromiseResponder implements Responder {
  private final Promise<Outcome> promise;
  private final boolean admissionOnly;
  private boolean answered;

  PromiseResponder(Promise<Outcome> promise, boolean admissionOnly) {
    this.promise = promise;
    this.admissionOnly = admissionOnly;
  }

  @Override
  public void respond(Outcome outcome) {
    if (answered) {
      return;
    }
    if (outcome instanceof Outcome.Accepted && !admissionOnly) {
      return;
    }
    answered = true;
    promise.complete(outcome);
  }
}
