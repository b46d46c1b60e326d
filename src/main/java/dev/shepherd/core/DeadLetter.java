package dev.shepherd.core;

import java.util.List;
import java.util.Objects;

/**
 * A job kept in the dead-letter set (J5 in docs/rules.md): answered {@code interrupted(POISON)},
 * {@code interrupted(ATTEMPTS_EXHAUSTED)} or, unless turned off, {@code failed} after its last
 * attempt. It holds what a replay needs (payload, key, timeout, byte cost, and its group, priority
 * and failure retry, F1, F3 and J3, so a replayed job is admitted as it was first) and what an
 * operator reads: the attempts that did not succeed (the latest {@link #MAX_ATTEMPTS} of them), the
 * answer, and when it was kept. {@code group} is null for the pool's default group, {@code retry}
 * null for the pool's own.
 */
public record DeadLetter(String job, String key, Object payload, long bytes, long timeoutMs,
    List<Attempt> attempts, Outcome answer, long at, String group, int priority,
    FailureRetry retry) {

  /** Attempts a dead letter lists at most (the latest). */
  public static final int MAX_ATTEMPTS = 16;

  public DeadLetter {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(answer, "answer");
    attempts = List.copyOf(attempts);
  }

  /** An entry of the default group and priority with the pool's failure retry. */
  public DeadLetter(String job, String key, Object payload, long bytes, long timeoutMs,
      List<Attempt> attempts, Outcome answer, long at) {
    this(job, key, payload, bytes, timeoutMs, attempts, answer, at, null,
        PoolEvent.Submit.DEFAULT_PRIORITY, null);
  }

  /** The answer's reason as the set names it: POISON, ATTEMPTS_EXHAUSTED or FAILED. */
  public String reason() {
    return answer instanceof Outcome.Interrupted i ? i.reason().kind() : "FAILED";
  }
}
