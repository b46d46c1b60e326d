package dev.shepherd.core;

import java.util.List;
import java.util.Objects;

/**
 * A job kept in the dead-letter set (J5 in docs/rules.md): answered {@code interrupted(POISON)},
 * {@code interrupted(ATTEMPTS_EXHAUSTED)} or, unless turned off, {@code failed} after its last
 * attempt. It holds what a replay needs (payload, key, timeout, byte cost) and what an operator
 * reads: the attempts that did not succeed (the latest {@link #MAX_ATTEMPTS} of them), the answer,
 * and when it was kept.
 */
public record DeadLetter(String job, String key, Object payload, long bytes, long timeoutMs,
    List<Attempt> attempts, Outcome answer, long at) {

  /** Attempts a dead letter lists at most (the latest). */
  public static final int MAX_ATTEMPTS = 16;

  public DeadLetter {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(answer, "answer");
    attempts = List.copyOf(attempts);
  }

  /** The answer's reason as the set names it: POISON, ATTEMPTS_EXHAUSTED or FAILED. */
  public String reason() {
    return answer instanceof Outcome.Interrupted i ? i.reason().kind() : "FAILED";
  }
}
