package dev.shepherd.runtime.wire;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Outcome;

/**
 * Answers a job that a coordinator took over from an earlier one (A4 in docs/rules.md): the
 * terminal outcome goes to the {@code replyTo} address the submitter gave, which lives on the
 * submitter's node; the admission was answered long ago. A job submitted without one ({@code
 * address} null) has nobody to tell here: its request was answered by the dead node or ended in the
 * submitter's timeout.
 */
public final class AddressResponder implements Responder {
  private final Sender bus;
  private final String address;

  public AddressResponder(Sender bus, String address) {
    this.bus = bus;
    this.address = address;
  }

  @Override
  public String address() {
    return address;
  }

  /** T2 (docs/rules.md): a progress message to the submitter's address. */
  @Override
  public void progress(Effect.Progress progress) {
    if (address != null) {
      bus.send(address, ProgressJson.message(progress));
    }
  }

  @Override
  public void respond(Outcome outcome) {
    if (sent(outcome)) {
      bus.send(address, OutcomeJson.encode(outcome));
    }
  }

  /** The terminal outcome tells {@code left} once the bus wrote it. */
  @Override
  public void respond(Outcome outcome, Throwable cause, Runnable left) {
    if (sent(outcome)) {
      bus.send(address, OutcomeJson.encode(outcome), left);
    } else {
      left.run();
    }
  }

  private boolean sent(Outcome outcome) {
    return address != null && outcome.terminal() && !(outcome instanceof Outcome.Rejected);
  }
}
