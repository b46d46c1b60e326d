package dev.shepherd.runtime.slot;

import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.payload.JsonCheck;
import dev.shepherd.runtime.payload.LogText;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failure a submitter gets instead of a result that no answer could carry: nested deeper than
 * {@link JsonCheck#MAX_RESULT_DEPTH} levels, containing itself, or holding a value JSON cannot
 * represent. It is decided once, where the result enters the pool, so the HTTP caller, the bus
 * caller, the in-JVM caller, the counters, the events and the metrics all see the same
 * {@code failed} outcome, and nothing downstream ever meets a value it cannot encode.
 */
public final class ResultCheck {
  /** The start of such a failure's message; its code is {@value #CODE}. */
  static final String NAME = "RESULT_NOT_ENCODABLE";
  static final int CODE = 500;
  private static final Logger LOG = LoggerFactory.getLogger(ResultCheck.class);

  private ResultCheck() {}

  /**
   * The failure to answer instead of {@code result}, or null when it can be answered. Every path
   * that hands a worker's result to the pool calls it first (local slots, bus completions).
   */
  public static JobError problem(Object result) {
    String problem = JsonCheck.resultProblem(result);
    return problem == null ? null : new JobError(CODE, NAME + ": " + problem);
  }

  /**
   * What {@code result}, which {@link #problem} passed, costs to remember among the recent
   * outcomes (J6 in docs/rules.md): its estimated heap bytes.
   */
  public static long bytes(Object result) {
    return Math.max(0, JsonCheck.resultBytes(result));
  }

  /**
   * For each completion, the failure that replaces its result, or null; null when every one can
   * be answered as it is. Each replacement is logged once, on one line. {@code bytes} receives
   * what each answerable result costs to remember (J6 in docs/rules.md), measured by the same walk.
   */
  public static JobError[] problems(String pool, String worker,
      List<Incarnation.Completion> done, long[] bytes) {
    JobError[] errors = null;
    for (int i = 0; i < done.size(); i++) {
      Incarnation.Completion c = done.get(i);
      JobError error = null;
      if (c.failure() == null) {
        bytes[i] = JsonCheck.resultBytes(c.result());
        if (bytes[i] < 0) {
          bytes[i] = 0;
          error = problem(c.result());
        }
      }
      if (error != null) {
        if (errors == null) {
          errors = new JobError[done.size()];
        }
        errors[i] = error;
        LOG.warn("pool {}: {} assignment {} returned a result that cannot be sent; answered"
            + " failed: {}", pool, LogText.quote(worker), c.assignment(),
            LogText.quote(error.message()));
      }
    }
    return errors;
  }

  /**
   * The answer to send when encoding {@code outcome} failed anyway (a last line of defence: the
   * check at completion should have caught it): a completion becomes {@code failed}, logged once.
   * Other outcomes carry nothing a check has not passed, so they are returned unchanged.
   */
  public static Outcome unsendable(Outcome outcome, Throwable failure) {
    if (!(outcome instanceof Outcome.Completed c)) {
      return outcome;
    }
    JobError error = new JobError(CODE, NAME + ": " + failure);
    LOG.warn("job {}: its result could not be encoded; answered failed: {}",
        LogText.quote(c.job()), LogText.quote(failure));
    return new Outcome.Failed(c.job(), error, c.worker(), c.attempts());
  }
}
