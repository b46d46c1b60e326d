package dev.shepherd.runtime.config;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.JobSettings;
import dev.shepherd.core.Retention;
import java.util.List;

/**
 * Reads the fields of a {@code pools} entry that say how jobs fail, wait and come back (section
 * 10) into {@link JobSettings}: {@code poisonAfter}, {@code retryBackoff}, {@code retryFailures},
 * {@code maxDelayMs}, {@code deadLetter}, {@code recentOutcomes} and {@code retrySeed}. An absent
 * field (or {@code null}) takes Shepherd's default ({@link JobSettings#DEFAULT}; docs/
 * configuration.md says why each is what it is); a bad one is a {@link
 * dev.shepherd.core.ConfigException} naming its full path and value.
 */
public final class JobSettingsConfig {
  /** The fields of a pool entry this class reads. */
  public static final List<String> FIELDS = List.of("poisonAfter", "retryBackoff", "retryFailures",
      "maxDelayMs", "deadLetter", "recentOutcomes", "retrySeed", "progressTimeoutMs");

  /**
   * The backoff of failure retries when none is given, in {@code retryFailures} and in a
   * submit's {@code retry}: the suspects' default (1 s, doubling up to a minute, ±20%), so a
   * failure that is retried never hammers a failing downstream.
   */
  public static final Backoff DEFAULT_FAILURE_BACKOFF = JobSettings.DEFAULT.retryBackoff();

  /** The most attempts a failure retry may ask for, in the pool or in a submit. */
  public static final int MAX_FAILURE_ATTEMPTS = 1_000_000;

  /** The longest delay, backoff or wait any of these fields may say: far beyond any use. */
  public static final long MAX_MS = Long.MAX_VALUE / 4;

  private JobSettingsConfig() {}

  /** The job settings of the pool entry {@code pool}. */
  public static JobSettings parse(ConfigReader pool) {
    JobSettings d = JobSettings.DEFAULT;
    int poisonAfter = pool.intValue("poisonAfter", d.poisonAfter(), 0, 1_000_000);
    Backoff retryBackoff = backoff(pool.object("retryBackoff"), d.retryBackoff());
    FailureRetry retryFailures = failureRetry(pool.object("retryFailures"));
    long maxDelayMs = pool.longValue("maxDelayMs", d.maxDelayMs(), 0, MAX_MS);
    ConfigReader dead = pool.object("deadLetter");
    dead.onlyFields("capacity", "maxBytes", "failed");
    Retention deadLetter = retention(dead, d.deadLetter());
    boolean keepFailed = dead.bool("failed", d.deadLetterFailed());
    ConfigReader recent = pool.object("recentOutcomes");
    recent.onlyFields("capacity", "maxBytes");
    Retention recentOutcomes = retention(recent, d.recentOutcomes());
    long seed = pool.longValue("retrySeed", d.seed(), Long.MIN_VALUE, Long.MAX_VALUE);
    // T2: an attempt silent this long is hung (0: none).
    long progressTimeoutMs = pool.longValue("progressTimeoutMs", d.progressTimeoutMs(), 0, MAX_MS);
    return new JobSettings(poisonAfter, retryBackoff, retryFailures, maxDelayMs, deadLetter,
        keepFailed, recentOutcomes, seed, progressTimeoutMs);
  }

  /**
   * A backoff object {@code {initialMs, multiplier, maxMs, jitter}}, each absent field from
   * {@code defaults} ({@code maxMs}: at least {@code initialMs}). {@code initialMs} 0 = no wait.
   */
  static Backoff backoff(ConfigReader b, Backoff defaults) {
    b.onlyFields("initialMs", "multiplier", "maxMs", "jitter");
    long initialMs = b.longValue("initialMs", defaults.initialMs(), 0, MAX_MS);
    double multiplier = b.doubleValue("multiplier", defaults.multiplier(), 1.0, 1000.0);
    long maxMs = b.longValue("maxMs", Math.max(initialMs, defaults.maxMs()), 0, MAX_MS);
    double jitter = b.doubleValue("jitter", defaults.jitter(), 0.0, 1.0);
    return Backoff.of(b.path(), initialMs, multiplier, maxMs, jitter);
  }

  /**
   * {@code retryFailures}: {@code {maxAttempts, backoff}}; {@code maxAttempts} 1 (the default)
   * answers a failure at once, as P8 (docs/rules.md) reads it.
   */
  private static FailureRetry failureRetry(ConfigReader r) {
    r.onlyFields("maxAttempts", "backoff");
    int maxAttempts = r.intValue("maxAttempts", JobSettings.DEFAULT.retryFailures().maxAttempts(),
        1, MAX_FAILURE_ATTEMPTS);
    return new FailureRetry(maxAttempts, backoff(r.object("backoff"), DEFAULT_FAILURE_BACKOFF));
  }

  private static Retention retention(ConfigReader r, Retention defaults) {
    return Retention.of(r.path(),
        r.intValue("capacity", defaults.capacity(), 0, 100_000_000),
        r.longValue("maxBytes", defaults.maxBytes(), 1, Long.MAX_VALUE));
  }
}
