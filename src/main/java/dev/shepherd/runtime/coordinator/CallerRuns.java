package dev.shepherd.runtime.coordinator;

/**
 * The switch for caller-runs turns ({@link Inbox}): on unless the system property {@value
 * #PROPERTY} is {@code false} (docs/benchmarks.md: on, one job in flight costs half the CPU and a
 * fifth of the latency, and a saturated pool answers as many jobs per second as with it off).
 * With it on, every entry into a pool's state (submits, completions, bus messages, timers, the outbox's and worker hosts' end-of-turn flushes) is a turn of the
 * pool's {@link Inbox}, and the thread that queues one runs it when no turn is under way and the
 * pool holds at most a job per slot; under load the coordinator's context runs the turns, as with
 * it off. A pool that is highly available or runs on a cluster keeps its turns on its context:
 * some of its entries (leadership and membership callbacks) are not turns yet.
 */
public final class CallerRuns {
  /** The system property that turns caller-runs off ({@code false}). */
  public static final String PROPERTY = "shepherd.callerRuns";

  private CallerRuns() {}

  /** Whether new pools run their turns on their callers' threads. */
  public static boolean enabled() {
    return !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());
  }
}
