package dev.shepherd.core;

import dev.shepherd.SeedRuns;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Runs seeded random event sequences against a {@link Harness} (a pool plus its checks): {@code
 * shepherd.property.runs} sequences per property (default 1000), each from its own seed. A failure
 * is shrunk (events removed while the same rule still breaks) and reported with the seed, so
 * {@code -Dshepherd.seed=<n>} replays exactly that sequence. Sequences run side by side, one per
 * core ({@link SeedRuns}).
 *
 * <p>Every sequence ends the same way: drive to rest (complete everything, create what was
 * deployed, wait out backoffs), then a stop request and a tick past the drain deadline, then
 * {@link Harness#finish()}.
 */
final class SequenceRunner {
  private SequenceRunner() {}

  /** A pool under test with the checks of one test class. */
  interface Harness {
    List<Effect> start();

    /** Applies one event, checks the step, and returns the pool's transition. */
    Transition apply(PoolEvent event);

    /** Final checks, after the closing stop and drain. */
    void finish();
  }

  /** Summary of one property run. */
  record Summary(int sequences, long events) {}

  private static final long BASE = 0x5eed_5eedL;
  private static final int SETTLE_ROUNDS = 40;
  private static final int SHRINK_BUDGET = 1500;

  static int runs() {
    return Integer.getInteger("shepherd.property.runs", 1000);
  }

  /** Runs the property; throws an {@link AssertionError} naming the seed on the first failure. */
  static Summary check(String property, PoolDriver.Profile profile,
      Function<PoolSettings, Harness> harnesses) {
    Long replay = Long.getLong("shepherd.seed");
    int runs = replay != null ? 1 : runs();
    long events = 0;
    // Sequences share nothing (each has its pool, harness and random source), so they run side
    // by side; the first failing one, in seed order, is reported.
    for (int length : SeedRuns.run(property, runs, i -> runSeed(property, profile, harnesses,
        replay != null ? replay : seedOf(property, i)))) {
      events += length;
    }
    return new Summary(runs, events);
  }

  static long seedOf(String property, int index) {
    return Hashing.mix64(BASE + property.hashCode() * 0x9e3779b97f4a7c15L + index);
  }

  /** Runs the one sequence of {@code seed}; returns its number of events. */
  static int runSeed(String property, PoolDriver.Profile profile,
      Function<PoolSettings, Harness> harnesses, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    PoolSettings settings = PoolScenarios.settings(rnd, profile);
    PoolDriver driver = new PoolDriver(rnd, profile, settings);
    List<PoolEvent> events = new ArrayList<>();
    Harness harness = harnesses.apply(settings);
    try {
      driver.started(harness.start());
      int length = PoolScenarios.length(rnd);
      for (int i = 0; i < length; i++) {
        step(harness, driver, events, driver.next());
      }
      for (int round = 0; round < SETTLE_ROUNDS && driver.hasUnanswered(); round++) {
        for (PoolEvent event : driver.settleRound()) {
          step(harness, driver, events, event);
        }
      }
      for (PoolEvent event : driver.stopAndDrain()) {
        step(harness, driver, events, event);
      }
      harness.finish();
      return events.size();
    } catch (AssertionError | RuntimeException failure) {
      throw report(property, seed, settings, harnesses, events, failure);
    }
  }

  private static void step(Harness harness, PoolDriver driver, List<PoolEvent> events,
      PoolEvent event) {
    events.add(event);
    driver.observe(event, harness.apply(event));
  }

  // ---- failure reports and shrinking -----------------------------------------------------------

  private static AssertionError report(String property, long seed, PoolSettings settings,
      Function<PoolSettings, Harness> harnesses, List<PoolEvent> events, Throwable failure) {
    String rule = ruleOf(failure);
    List<PoolEvent> shrunk = shrink(settings, harnesses, events, rule);
    Throwable shrunkFailure = replay(settings, harnesses, shrunk);
    StringBuilder message = new StringBuilder()
        .append(property).append(" failed for seed ").append(seed)
        .append(" (replay: -Dshepherd.seed=").append(seed).append(")\n")
        .append("settings: ").append(PoolScenarios.describe(settings)).append('\n')
        .append("failure after ").append(events.size()).append(" events: ")
        .append(failure).append('\n')
        .append("shrunk to ").append(shrunk.size()).append(" events (then stop and drain):\n");
    for (int i = 0; i < shrunk.size(); i++) {
      message.append("  ").append(i).append(": ").append(shrunk.get(i)).append('\n');
    }
    message.append("shrunk failure: ").append(shrunkFailure);
    return new AssertionError(message.toString(), failure);
  }

  /** The rule a failure names: the text before the first ':' of its message. */
  private static String ruleOf(Throwable failure) {
    String message = String.valueOf(failure.getMessage());
    int colon = message.indexOf(':');
    return failure.getClass().getName() + "/" + (colon < 0 ? message : message.substring(0, colon));
  }

  /** Greedy delta debugging: remove chunks of events while the same rule still breaks. */
  private static List<PoolEvent> shrink(PoolSettings settings,
      Function<PoolSettings, Harness> harnesses, List<PoolEvent> events, String rule) {
    List<PoolEvent> current = new ArrayList<>(events);
    int budget = SHRINK_BUDGET;
    for (int chunk = Math.max(1, current.size() / 2); chunk >= 1 && budget > 0; chunk /= 2) {
      for (int from = current.size() - chunk; from >= 0 && budget > 0; from -= chunk) {
        List<PoolEvent> candidate = new ArrayList<>(current.subList(0, from));
        candidate.addAll(current.subList(Math.min(current.size(), from + chunk), current.size()));
        budget--;
        Throwable failure = replay(settings, harnesses, candidate);
        if (failure != null && ruleOf(failure).equals(rule)) {
          current = candidate;
        }
      }
    }
    return current;
  }

  /** Replays events on a fresh pool, then a stop and drain; returns the failure or null. */
  private static Throwable replay(PoolSettings settings,
      Function<PoolSettings, Harness> harnesses, List<PoolEvent> events) {
    try {
      Harness harness = harnesses.apply(settings);
      harness.start();
      long now = 0;
      for (PoolEvent event : events) {
        harness.apply(event);
        now = event.now();
      }
      harness.apply(new PoolEvent.StopRequested(now));
      harness.apply(new PoolEvent.TimerFired(new Timer.DrainDeadline(),
          now + settings.drainTimeoutMs() + 1));
      harness.finish();
      return null;
    } catch (AssertionError | RuntimeException failure) {
      return failure;
    }
  }
}
