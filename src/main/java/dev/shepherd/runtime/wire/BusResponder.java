package dev.shepherd.runtime.wire;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.slot.ResultCheck;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

/**
 * Answers a submit that came over the event bus. Without {@code replyTo} the single reply is the
 * terminal outcome (or the rejection); with it, the reply is the admission and the terminal
 * outcome is sent to {@code replyTo}.
 */
public final class BusResponder implements Responder {
  private final Message<?> message;
  private final String replyTo;
  private final Sender bus;
  private final Replier replier;

  public BusResponder(Message<?> message, String replyTo, Sender bus) {
    this(message, replyTo, bus, Replier.DIRECT);
  }

  /**
   * Answers through {@code replier} (the coordinator's, which writes a turn's answers to another
   * node together), in the order they come: the admission before the outcome.
   */
  public BusResponder(Message<?> message, String replyTo, Sender bus, Replier replier) {
    this.message = message;
    this.replyTo = replyTo;
    this.bus = bus;
    this.replier = replier;
  }

  @Override
  public String address() {
    return replyTo;
  }

  @Override
  public void respond(Outcome outcome) {
    if (outcome instanceof Outcome.Accepted) {
      if (replyTo != null) {
        replier.reply(message, OutcomeJson.encode(outcome));
      }
    } else if (outcome instanceof Outcome.Rejected || replyTo == null) {
      replier.reply(message, encode(outcome));
    } else {
      replier.send(message, bus, replyTo, encode(outcome));
    }
  }

  /**
   * A terminal outcome sent to {@code replyTo} tells {@code left} once the bus wrote it; any other
   * answer is a reply, which a successor could not send again anyway.
   */
  @Override
  public void respond(Outcome outcome, Throwable cause, Runnable left) {
    if (outcome instanceof Outcome.Accepted || outcome instanceof Outcome.Rejected
        || replyTo == null) {
      respond(outcome);
      left.run();
    } else {
      replier.send(message, bus, replyTo, encode(outcome), left);
    }
  }

  /** T2 (docs/rules.md): a progress message to {@code replyTo}, when the submitter gave one. */
  @Override
  public void progress(Effect.Progress progress) {
    if (replyTo != null) {
      replier.send(message, bus, replyTo, ProgressJson.message(progress));
    }
  }

  /** The outcome's JSON; never throws, so the submitter is answered whatever the result holds. */
  private static JsonObject encode(Outcome outcome) {
    try {
      return OutcomeJson.encode(outcome);
    } catch (RuntimeException | StackOverflowError e) {
      return OutcomeJson.encode(ResultCheck.unsendable(outcome, e));
    }
  }
}
