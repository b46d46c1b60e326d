package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.wire.Responder;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;

/**
 * Answers an in-JVM submitter by calling its handler on the submitter's own context (so its
 * callbacks run there), batched with the other answers of the coordinator's turn: once, with the
 * terminal outcome, or, in admission mode, with the admission. A handler that is a {@link
 * WithCause} also gets the throwable a failed job failed with in this JVM.
 */
public final class CallbackResponder implements Responder {

  /**
   * An answer handler that takes, beside the outcome, the worker's own throwable behind a
   * {@code failed} one (null when there is none, or it failed elsewhere); handed as a plain
   * {@code Handler<Outcome>} it hears the outcome alone.
   */
  @FunctionalInterface
  public interface WithCause extends Handler<Outcome> {
    void answer(Outcome outcome, Throwable cause);

    @Override
    default void handle(Outcome outcome) {
      answer(outcome, null);
    }
  }

  private final Handler<Outcome> handler;
  private final boolean admissionOnly;
  private final Context caller;
  private final Outbox outbox;
  private final Handler<JsonObject> onProgress;
  private boolean answered;

  public CallbackResponder(Handler<Outcome> handler, boolean admissionOnly, Context caller,
      Outbox outbox) {
    this(handler, admissionOnly, caller, outbox, null);
  }

  /**
   * As above; {@code onProgress} (null: none) hears the job's progress reports (T2 in
   * docs/rules.md) on the caller's context, each before the answer, none after it.
   */
  public CallbackResponder(Handler<Outcome> handler, boolean admissionOnly, Context caller,
      Outbox outbox, Handler<JsonObject> onProgress) {
    this.onProgress = onProgress;
    this.handler = handler;
    this.admissionOnly = admissionOnly;
    this.caller = caller;
    this.outbox = outbox;
  }

  @Override
  public void respond(Outcome outcome) {
    respond(outcome, null);
  }

  @Override
  public void progress(Effect.Progress progress) {
    if (onProgress == null || answered) {
      return;
    }
    JsonObject report = progress.progress() instanceof JsonObject json ? json.copy()
        : new JsonObject().put("value", progress.progress());
    Runnable call = () -> onProgress.handle(report);
    if (caller == null) {
      call.run();
    } else {
      outbox.send(caller, call);
    }
  }

  @Override
  public void respond(Outcome outcome, Throwable cause) {
    if (answered || (outcome instanceof Outcome.Accepted && !admissionOnly)) {
      return;
    }
    answered = true;
    Runnable answer = handler instanceof WithCause withCause
        ? () -> withCause.answer(outcome, cause) : () -> handler.handle(outcome);
    if (caller == null) {
      answer.run();
    } else {
      outbox.send(caller, answer);
    }
  }
}
