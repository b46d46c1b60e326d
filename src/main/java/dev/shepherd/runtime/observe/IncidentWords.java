package dev.shepherd.runtime.observe;

import dev.shepherd.core.BudgetReaction;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Notice;
import dev.shepherd.runtime.payload.LogText;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The sentences an incident is told in (J8 in docs/rules.md): a budget refusal, the retirement it
 * causes, a stop and a poisoned job, with the pool's budget said as the pool's, a slot's own
 * restarts as its own, and the jobs that were running named. Pure functions of the notices'
 * numbers. The live view says the same words ({@code webroot/js/reasons.js}); {@code
 * src/test/js/incident-words.json} holds cases both are tested against. {@code quote} is applied to
 * text from outside (job ids, causes): {@link LogText#quote} for a log line, identity to compare
 * with the page.
 */
final class IncidentWords {
  /** Jobs named in a sentence; more are counted. */
  static final int JOBS_NAMED = 3;

  private IncidentWords() {}

  /**
   * "the pool's restart budget is spent (5 of 5 restarts in the last 10 s across all slots; w-2
   * itself restarted 1 time)": {@code used} of the pool's {@code max} restarts in its window
   * ({@code windowMs}, {@link Long#MAX_VALUE} for the pool's lifetime) were taken when {@code
   * requested} more were wanted; {@code slotRestarts} are {@code worker}'s own.
   */
  static String budget(int used, int requested, int max, long windowMs, String worker,
      int slotRestarts) {
    String own = worker + " itself restarted " + plural(slotRestarts, "time");
    if (max == 0) {
      return "the pool's restart budget allows no restarts (maxRestarts 0; " + own + ")";
    }
    String window = windowMs == Long.MAX_VALUE ? "over the pool's lifetime"
        : "in the last " + duration(windowMs);
    String numbers = used + " of " + plural(max, "restart") + " " + window + " across all slots";
    String verdict = requested > 1 && used < max
        ? "has no room for " + requested + " restarts" : "is spent";
    return "the pool's restart budget " + verdict + " (" + numbers + "; " + own + ")";
  }

  /**
   * "it stopped (CRASH: boom) while running job j-17": how a slot's incarnation ended, and the
   * jobs it was running ({@code jobCount} of them, of which {@code jobs} are known by id).
   */
  static String stop(String exit, String cause, List<String> jobs, int jobCount,
      UnaryOperator<String> quote) {
    String how = cause == null ? exit : exit + ": " + quote.apply(cause);
    return "it stopped (" + how + ") " + running(jobs, jobCount, quote);
  }

  /** "while running job a", "… jobs a and b", "… 5 jobs: a, b, c, …", "with no job running". */
  static String running(List<String> jobs, int jobCount, UnaryOperator<String> quote) {
    int count = Math.max(jobCount, jobs.size());
    if (count == 0) {
      return "with no job running";
    }
    List<String> named = jobs.stream().limit(JOBS_NAMED).map(quote).toList();
    if (count == 1) {
      return "while running job " + named.get(0);
    }
    if (count <= JOBS_NAMED && named.size() == count) {
      return "while running jobs " + String.join(", ", named.subList(0, count - 1)) + " and "
          + named.get(count - 1);
    }
    return "while running " + count + " jobs: " + String.join(", ", named) + ", …";
  }

  /**
   * A budget refusal: "restart budget refused replacing w-2: {@link #budget}; {@link #stop};
   * w-2 retires" (or "the pool stops (onBudgetExceeded STOP_POOL)").
   */
  static String budgetRefusal(Notice.BudgetExceeded b, long windowMs,
      UnaryOperator<String> quote) {
    String then = b.reaction() == BudgetReaction.STOP_POOL
        ? "the pool stops (onBudgetExceeded STOP_POOL)" : b.worker() + " retires";
    return "restart budget refused replacing " + b.worker() + ": " + refusalWords(b, windowMs,
        quote) + "; " + then;
  }

  /** The retirement a budget refusal caused: "w-2 retired (REPLACEMENT_UNAVAILABLE): …". */
  static String retiredByBudget(Notice.BudgetExceeded b, long windowMs,
      UnaryOperator<String> quote) {
    return b.worker() + " retired (REPLACEMENT_UNAVAILABLE): " + refusalWords(b, windowMs, quote);
  }

  /** {@link #budget} then {@link #stop}, for a refusal. */
  static String refusalWords(Notice.BudgetExceeded b, long windowMs,
      UnaryOperator<String> quote) {
    return budget(b.restartsInWindow(), b.replacementsRequested(), b.maximumRestarts(), windowMs,
        b.worker(), b.slotRestarts()) + "; "
        + stop(b.exit().name(), b.cause(), b.jobs(), b.jobs().size(), quote);
  }

  /**
   * "job j-9 is poison: its worker stopped 2 times while running it (the last time w-1, CRASH:
   * boom); answered interrupted (POISON), not run again".
   */
  static String poisoned(String job, Interruption.Poison poison,
      UnaryOperator<String> quote) {
    Interruption.WorkerStopped last = poison.last();
    String how = last.cause() == null ? last.exit().name()
        : last.exit().name() + ": " + quote.apply(last.cause());
    return "job " + quote.apply(job) + " is poison: its worker stopped "
        + plural(poison.stops(), "time") + " while running it (the last time " + last.worker()
        + ", " + how + "); answered interrupted (POISON), not run again";
  }

  /**
   * A duration as the live view writes it: "250 ms", "1.5 s", "10 s", "2 min" (one decimal when
   * the unit does not divide it).
   */
  static String duration(long ms) {
    if (ms >= 60_000) {
      return fixed(ms / 60_000.0, ms % 60_000 != 0) + " min";
    }
    if (ms >= 1000) {
      return fixed(ms / 1000.0, ms % 1000 != 0) + " s";
    }
    return ms + " ms";
  }

  private static String fixed(double value, boolean decimal) {
    return String.format(Locale.ROOT, decimal ? "%.1f" : "%.0f", value);
  }

  static String plural(long n, String word) {
    return n + " " + word + (n == 1 ? "" : "s");
  }
}
