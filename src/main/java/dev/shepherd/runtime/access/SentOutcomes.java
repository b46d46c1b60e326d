package dev.shepherd.runtime.access;

import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.BusWire;
import dev.shepherd.runtime.wire.JobViewJson;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;

/**
 * The outcome a pool says it sent for a job (J6 in docs/rules.md: {@code .job}, the job's view
 * read as {@link BusPoolHandle}'s lookups read it, with state {@code ANSWERED} and its {@code
 * outcome}), for a submitter whose copy never arrived ({@link ReplyAddress}, at a submit's
 * deadline).
 */
final class SentOutcomes {
  private SentOutcomes() {}

  /**
   * The terminal outcome the pool at {@code addresses} holds for {@code job}, or null: the job not
   * answered yet, unknown, the pool silent for {@code timeoutMs}, or an answer that is no outcome.
   * Never fails.
   */
  static Future<Outcome> find(Vertx vertx, Addresses addresses, String job, long timeoutMs) {
    return vertx.eventBus().request(addresses.job(), new JsonObject().put(BusWire.JOB, job),
            new DeliveryOptions().setSendTimeout(timeoutMs))
        .map(reply -> outcome(reply.body()))
        .otherwise((Outcome) null);
  }

  /** The terminal outcome in a lookup's answer, if the job was answered; else null. */
  static Outcome outcome(Object body) {
    if (!(body instanceof JsonObject json)) {
      return null;
    }
    try {
      JobView view = JobViewJson.decode(json);
      return view.state() != JobView.JobState.ANSWERED
          || view.outcome() instanceof Outcome.Accepted ? null : view.outcome();
    } catch (RuntimeException e) {
      return null;
    }
  }
}
