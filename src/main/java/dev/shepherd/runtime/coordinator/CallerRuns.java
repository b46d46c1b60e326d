package dev.shepherd.runtime.coordinator;

/**
 * The switch for caller-runs turns ({@link Inbox}): on unless the system property {@value
 * #PROPERTY} is {@code false}. With it on, every entry into a pool's state (submits, completions,
 * bus messages, timers, the outbox's and worker hosts' end-of-turn flushes) is a turn of the
 * pool's {@link Inbox}, and the thread that queues one runs it when no turn is under way and the
 * pool holds at most a job per slot: an in-JVM job at one in flight then costs about half the CPU
 * and latency. Under load the coordinator's context runs the turns, as with it off, and a bus
 * message that arrives on that context runs in its own handler: five alternating runs each way
 * measured a saturated pool at least as fast with it on, in the JVM and over the bus
 * (docs/benchmarks.md). A pool that is highly available or runs on a cluster keeps its turns on
 * its context: some of its entries (leadership and membership callbacks) are not turns yet.
 */
public final class CallerRuns {
  /** The system property that turns caller-runs off ({@code false}). */
  public static final String PROPERTY = "shepherd.callerRuns";

  private CallerRuns() {}

  /** Whether new pools run their turns on their callers' threads: unless turned off. */
  public static boolean enabled() {
    return !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());
  }
}
