package dev.shepherd.runtime.wire;

import dev.shepherd.core.JobError;
import dev.shepherd.runtime.RetryOverride;
import dev.shepherd.runtime.payload.HeapCost;
import dev.shepherd.runtime.payload.RawJson;

/** Decoded protocol requests (section 6 in docs/rules.md); {@link RequestDecoder} builds them. */
public final class Requests {
  private Requests() {}

  /**
   * A submit; null fields are absent ({@code timeoutMs} 0 = the pool's default). {@code bytes} is
   * what the payload costs while queued (its length when it is {@link RawJson}, else an estimate
   * of its heap; whole G1 regions for a large array, see {@link HeapCost}), counted against the
   * pool's {@code backlogMaxBytes}. {@code delayMs} holds the job back that long after its
   * admission (J4 in docs/rules.md; 0 = none; the pool refuses more than its {@code maxDelayMs});
   * {@code retry} overrides the pool's failure retries (J3; null = the pool's). {@code group}
   * names the job's group (F1 in docs/rules.md; null = none) and {@code priority} orders it
   * within its group (F3; 0 first, {@link #DEFAULT_PRIORITY} when not given).
   */
  public record Submit(String job, Object payload, String key, String replyTo, long timeoutMs,
      long bytes, long delayMs, RetryOverride retry, String group, int priority,
      long progressTimeoutMs) {

    /** A submit with the pool's progress timeout (T2 in docs/rules.md). */
    public Submit(String job, Object payload, String key, String replyTo, long timeoutMs,
        long bytes, long delayMs, RetryOverride retry, String group, int priority) {
      this(job, payload, key, replyTo, timeoutMs, bytes, delayMs, retry, group, priority, 0);
    }

    /** The priority of a submit that names none (F3 in docs/rules.md). */
    public static final int DEFAULT_PRIORITY = 5;
    /** The highest (last served) priority. */
    public static final int MAX_PRIORITY = 9;

    /** A submit without a group, at the default priority. */
    public Submit(String job, Object payload, String key, String replyTo, long timeoutMs,
        long bytes, long delayMs, RetryOverride retry) {
      this(job, payload, key, replyTo, timeoutMs, bytes, delayMs, retry, null, DEFAULT_PRIORITY);
    }

    /** A submit to run as soon as it can, with the pool's failure retries. */
    public Submit(String job, Object payload, String key, String replyTo, long timeoutMs,
        long bytes) {
      this(job, payload, key, replyTo, timeoutMs, bytes, 0, null);
    }

    /** A submit whose payload is not counted against the byte budget. */
    public Submit(String job, Object payload, String key, String replyTo, long timeoutMs) {
      this(job, payload, key, replyTo, timeoutMs, 0);
    }

    /** This submit with the job id {@code id}. */
    public Submit withJob(String id) {
      return new Submit(id, payload, key, replyTo, timeoutMs, bytes, delayMs, retry, group,
          priority, progressTimeoutMs);
    }
  }

  /** A completion reported over the bus; {@code error} null means {@code result}. */
  public record Completed(String worker, long assignment, Object result, JobError error) {}

  /**
   * A worker's answer over the bus that its downstream is rate limited for {@code holdMs} (F4 in
   * docs/rules.md): {@code {"worker", "assignment", "rateLimitedMs"}}.
   */
  public record RateLimited(String worker, long assignment, long holdMs) {}

  public record Rebalance(String key, String worker) {}

  public record Cancel(String job) {}

  /** An operator's revive of a retired slot. */
  public record Revive(String worker) {}

  /**
   * F6 (docs/rules.md): an operator resizes the pool's own slots; a null field keeps what the pool
   * has. At least one is given, each within the configuration's limits.
   */
  public record Resize(Integer instances, Integer maxConcurrency) {}

  /**
   * Where {@code job} is (J6 in docs/rules.md); with {@code waits}, its terminal outcome once it
   * has one, waiting at most {@code timeoutMs} (always positive: the default is filled in when
   * decoded).
   */
  public record Lookup(String job, boolean waits, long timeoutMs) {}

  /** A page of the dead-letter set (J5 in docs/rules.md), newest first. */
  public record DeadLetters(int offset, int limit) {}

  /** One job of the dead-letter set (J5 in docs/rules.md): to read, replay or discard. */
  public record DeadJob(String job) {}

  /** An operator's pause (F5 in docs/rules.md) of {@code group}, or of the pool when null. */
  public record Pause(String group) {}

  /** An operator's resume (F5 in docs/rules.md) of {@code group}, or of the pool when null. */
  public record Resume(String group) {}

  /**
   * An operator's settings for {@code group} (F1, F2, F4, F5 in docs/rules.md): {@code change}
   * holds the fields the request gave (the others null), merged onto the group's override in
   * force.
   */
  public record SetGroup(String group, dev.shepherd.core.GroupSettings change) {}

  /** A look at one group's limits and load (F1 in docs/rules.md). */
  public record GroupLookup(String group) {}
}
