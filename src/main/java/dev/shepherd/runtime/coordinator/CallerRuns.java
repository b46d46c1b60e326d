package dev.shepherd.runtime.coordinator;

/**
 * The switch for caller-runs turns ({@link Inbox}): off unless the system property {@value
 * #PROPERTY} is {@code true} (docs/benchmarks.md: on, an in-JVM job at one in flight costs half the
 * CPU and a fifth of the latency, and a saturated in-JVM pool answers as many jobs per second; but
 * over the event bus, the pool's main way in, a saturated pool measured 8-19% fewer).
 * With it on, every entry into a pool's state (submits, completions, bus messages, timers, the
 * outbox's and worker hosts' end-of-turn flushes) is a turn of the pool's {@link Inbox}, and the
 * thread that queues one runs it when no turn is under way and the pool holds at most a job per
 * slot; under load the coordinator's context runs the turns, as with
 * it off. A pool that is highly available or runs on a cluster keeps its turns on its context:
 * some of its entries (leadership and membership callbacks) are not turns yet.
 */
public final class CallerRuns {
  /** The system property that turns caller-runs on ({@code true}). */
  public static final String PROPERTY = "shepherd.callerRuns";

  private CallerRuns() {}

  /** Whether new pools run their turns on their callers' threads. */
  public static boolean enabled() {
    return Boolean.getBoolean(PROPERTY);
  }
}
