package dev.shepherd.runtime.config;

import dev.shepherd.core.BackoffSettings;
import dev.shepherd.core.BudgetReaction;
import dev.shepherd.core.ConfigException;
import dev.shepherd.core.RestartPolicy;
import dev.shepherd.core.Strategy;
import dev.shepherd.core.SupervisionSettings;

/**
 * Reads a pool's {@code supervision} object (section 4 in docs/rules.md) into {@link
 * SupervisionSettings}, with the defaults that heal (J7): replacements back off ({@link
 * #DEFAULT_BACKOFF}) and a retired slot is probed again after {@link #DEFAULT_REVIVE_AFTER_MS}, the
 * wait doubling while probes fail up to {@link #DEFAULT_REVIVE_MAX_MS}. {@code "restartBackoff":
 * {"initialMs": 0}} replaces at once (the seed's reading, S5's "none"); {@code "reviveAfterMs": 0}
 * leaves a retired slot to an operator. docs/configuration.md says why these values.
 *
 * <p>The core's own {@link SupervisionSettings#defaults()} stay the seed's (no backoff, no
 * revive): these are the product's defaults, not the state machine's.
 */
public final class SupervisionConfig {
  /**
   * Restart backoff unless configured: 200 ms, doubling, up to 30 s, ±20%, starting again after
   * a slot ran 30 s. Short enough that a worker that crashes at once still exhausts the default
   * budget (5 in 10 s: replacements at 0, 0.2, 0.6, 1.4, 3.0 s, the sixth stop at about 6.2 s
   * is refused) and gets its reaction, as J2 (docs/rules.md) wants of a really broken worker.
   */
  static final BackoffSettings DEFAULT_BACKOFF =
      new BackoffSettings(200, 30_000, 2.0, 0.2, 30_000, 42);
  /** How long a retired slot waits for its first revive probe unless configured. */
  static final long DEFAULT_REVIVE_AFTER_MS = 10_000;
  /** The longest a retired slot waits between revive probes unless configured (5 minutes). */
  static final long DEFAULT_REVIVE_MAX_MS = 300_000;

  private static final long MAX_MS = Long.MAX_VALUE / 4;

  private SupervisionConfig() {}

  public static SupervisionSettings parse(ConfigReader sup) {
    sup.onlyFields("policy", "strategy", "maxRestarts", "restartWindowMs", "onBudgetExceeded",
        "restartBackoff", "reviveAfterMs", "reviveMaxMs");
    long window = "infinite".equals(sup.raw("restartWindowMs"))
        ? SupervisionSettings.INFINITE_WINDOW
        : sup.longValue("restartWindowMs", 10_000, 1, Long.MAX_VALUE);
    long reviveAfterMs = sup.longValue("reviveAfterMs", DEFAULT_REVIVE_AFTER_MS, 0, MAX_MS);
    long reviveMaxMs = sup.longValue("reviveMaxMs",
        Math.max(reviveAfterMs, DEFAULT_REVIVE_MAX_MS), 0, MAX_MS);
    if (reviveMaxMs < reviveAfterMs) {
      throw new ConfigException(sup.field("reviveMaxMs"), reviveMaxMs,
          "must be at least reviveAfterMs (" + reviveAfterMs + ")");
    }
    return new SupervisionSettings(
        sup.enumValue("policy", RestartPolicy.class, RestartPolicy.PERMANENT),
        sup.enumValue("strategy", Strategy.class, Strategy.ONE_FOR_ONE),
        sup.intValue("maxRestarts", 5, 0, 1_000_000),
        window,
        sup.enumValue("onBudgetExceeded", BudgetReaction.class, BudgetReaction.RETIRE_WORKER),
        backoff(sup.object("restartBackoff")),
        reviveAfterMs,
        reviveMaxMs);
  }

  /**
   * {@code restartBackoff}: each absent field from {@link #DEFAULT_BACKOFF} ({@code maxMs}: at
   * least {@code initialMs}); {@code initialMs} 0 turns it off (null: replace at once).
   */
  private static BackoffSettings backoff(ConfigReader b) {
    b.onlyFields("initialMs", "maxMs", "multiplier", "jitter", "resetAfterMs", "seed");
    BackoffSettings d = DEFAULT_BACKOFF;
    long initial = b.longValue("initialMs", d.initialMs(), 0, MAX_MS);
    long maxMs = b.longValue("maxMs", Math.max(initial, d.maxMs()), 0, MAX_MS);
    double multiplier = b.doubleValue("multiplier", d.multiplier(), 1.0, 1000.0);
    double jitter = b.doubleValue("jitter", d.jitter(), 0.0, 1.0);
    long resetAfterMs = b.longValue("resetAfterMs", d.resetAfterMs(), 1, MAX_MS);
    long seed = b.longValue("seed", d.seed(), Long.MIN_VALUE, Long.MAX_VALUE);
    if (initial == 0) {
      return null;
    }
    if (maxMs < initial) {
      throw new ConfigException(b.field("maxMs"), maxMs,
          "must be at least initialMs (" + initial + ")");
    }
    return new BackoffSettings(initial, maxMs, multiplier, jitter, resetAfterMs, seed);
  }
}
