package dev.shepherd.core;

import java.util.Objects;

/** Why an accepted job ended without a result from a worker. */
public sealed interface Interruption {

  /** The protocol's name of this kind, as sent on the wire. */
  String kind();

  /**
   * The incarnation running the job stopped (P9 in docs/rules.md), or was replaced as a sibling
   * (S3).
   */
  record WorkerStopped(String worker, Exit exit, String cause) implements Interruption {
    public WorkerStopped {
      Objects.requireNonNull(worker, "worker");
      Objects.requireNonNull(exit, "exit");
    }

    @Override
    public String kind() {
      return "WORKER_STOPPED";
    }
  }

  /** The job was queued for a slot that retired (P10 in docs/rules.md). */
  record AffinityRetired(String worker, Retirement retirement) implements Interruption {
    @Override
    public String kind() {
      return "AFFINITY_RETIRED";
    }
  }

  /** Every slot retired while the job was queued (P11 in docs/rules.md). */
  record NoRecoverableWorkers() implements Interruption {
    @Override
    public String kind() {
      return "NO_RECOVERABLE_WORKERS";
    }
  }

  /**
   * A RETRY job was interrupted {@code attempts} times, the last time for {@code last} (P13 in
   * docs/rules.md).
   */
  record AttemptsExhausted(int attempts, Interruption last) implements Interruption {
    @Override
    public String kind() {
      return "ATTEMPTS_EXHAUSTED";
    }
  }

  /**
   * J2 (docs/rules.md): the incarnations running the job stopped {@code stops} times (exit CRASH or
   * TIMEOUT), the last time for {@code last}: the job is not run again, and it is kept in the
   * dead-letter set.
   */
  record Poison(int stops, WorkerStopped last) implements Interruption {
    public Poison {
      Objects.requireNonNull(last, "last");
    }

    @Override
    public String kind() {
      return "POISON";
    }
  }

  /** The pool stopped while it held the job (P16, S4 in docs/rules.md). */
  record PoolStopped() implements Interruption {
    @Override
    public String kind() {
      return "POOL_STOPPED";
    }
  }
}
