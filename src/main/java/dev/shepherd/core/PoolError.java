package dev.shepherd.core;

import java.util.List;

/**
 * A typed refusal of an event that cannot apply to the current state. Returning one leaves the
 * pool exactly as it was. {@link #name()} is the protocol's error name, used on the wire.
 */
public sealed interface PoolError {

  /** The protocol's name for this error, e.g. {@code STALE_COMPLETION}. */
  String name();

  /** A one-line human description with the details. */
  String message();

  /** No slot has this id (P5, P8 in docs/rules.md). */
  record UnknownWorker(String worker) implements PoolError {
    @Override
    public String name() {
      return "UNKNOWN_WORKER";
    }

    @Override
    public String message() {
      return "no worker '" + worker + "' in this pool";
    }
  }

  /** A completion arrived for a slot that holds no live assignment at all (P8 in docs/rules.md). */
  record CompletionForUnavailableWorker(String worker, Phase phase) implements PoolError {
    @Override
    public String name() {
      return "COMPLETION_FOR_UNAVAILABLE_WORKER";
    }

    @Override
    public String message() {
      return "worker '" + worker + "' holds no assignment (phase " + phase + ")";
    }
  }

  /** A completion carried a token the slot does not hold (P8 in docs/rules.md). */
  record StaleCompletion(String worker, List<Long> expected, long received) implements PoolError {
    @Override
    public String name() {
      return "STALE_COMPLETION";
    }

    @Override
    public String message() {
      return "worker '" + worker + "' holds assignments " + expected + ", received " + received;
    }
  }

  /**
   * A stop was reported for a slot that is installing, backing off or retired (P9 in
   * docs/rules.md).
   */
  record WorkerStoppedWhileUnavailable(String worker, Phase phase) implements PoolError {
    @Override
    public String name() {
      return "WORKER_STOPPED_WHILE_UNAVAILABLE";
    }

    @Override
    public String message() {
      return "worker '" + worker + "' is " + phase + ", so it cannot stop";
    }
  }

  /** A creation result arrived for a slot that is not installing (P12 in docs/rules.md). */
  record CreationResolvedWhileUnavailable(String worker, Phase phase) implements PoolError {
    @Override
    public String name() {
      return "CREATION_RESOLVED_WHILE_UNAVAILABLE";
    }

    @Override
    public String message() {
      return "worker '" + worker + "' is " + phase + ", not INSTALLING";
    }
  }

  /** A rebalance named a retired slot (P5 in docs/rules.md). */
  record RebalanceToRetiredWorker(String worker, Retirement retirement) implements PoolError {
    @Override
    public String name() {
      return "REBALANCE_TO_RETIRED_WORKER";
    }

    @Override
    public String message() {
      return "worker '" + worker + "' is retired (" + retirement + ")";
    }
  }

  /** A fact named an incarnation other than the slot's current one: it is from the past. */
  record StaleIncarnation(String worker, int expected, int received) implements PoolError {
    @Override
    public String name() {
      return "STALE_INCARNATION";
    }

    @Override
    public String message() {
      return "worker '" + worker + "' is at incarnation " + expected + ", fact is for " + received;
    }
  }

  /** A registration named a slot id that is already registered. */
  record DuplicateWorker(String worker) implements PoolError {
    @Override
    public String name() {
      return "DUPLICATE_WORKER";
    }

    @Override
    public String message() {
      return "worker '" + worker + "' is already registered";
    }
  }

  /** A host registered under an id that a live host on another node holds (H1 in docs/rules.md). */
  record DuplicateHost(String host, String node) implements PoolError {
    @Override
    public String name() {
      return "DUPLICATE_HOST";
    }

    @Override
    public String message() {
      return "host '" + host + "' is already registered by node " + node;
    }
  }

  /** A fact about a host the pool does not know. */
  record UnknownHost(String host) implements PoolError {
    @Override
    public String name() {
      return "UNKNOWN_HOST";
    }

    @Override
    public String message() {
      return "no host '" + host + "' is registered";
    }
  }

  /** A host registration named a slot that belongs to another host, or no slot at all. */
  record InvalidHostSlots(String host, String detail) implements PoolError {
    @Override
    public String name() {
      return "INVALID_HOST_SLOTS";
    }

    @Override
    public String message() {
      return "host '" + host + "': " + detail;
    }
  }

  /** A revive named a slot that cannot be revived now; {@code reason} says why. */
  record ReviveRefused(String worker, String reason) implements PoolError {
    @Override
    public String name() {
      return "REVIVE_REFUSED";
    }

    @Override
    public String message() {
      return "worker '" + worker + "' cannot be revived: " + reason;
    }
  }

  /** A capacity of zero was advertised (C1 in docs/rules.md). */
  record InvalidCapacity(String worker, int maxConcurrency) implements PoolError {
    @Override
    public String name() {
      return "INVALID_CAPACITY";
    }

    @Override
    public String message() {
      return "maxConcurrency must be at least 1 (worker '" + worker + "' advertised "
          + maxConcurrency + "): a worker that runs nothing can never be selected";
    }
  }

  /**
   * A recovery (A3 in docs/rules.md) that cannot apply: the pool is not fresh or not newer, or the
   * image is bad.
   */
  record RecoveryRefused(String reason) implements PoolError {
    @Override
    public String name() {
      return "RECOVERY_REFUSED";
    }

    @Override
    public String message() {
      return "cannot recover: " + reason;
    }
  }

  /**
   * J5, J6 (docs/rules.md): no job {@code job} {@code where} (in the dead-letter set, or known at
   * all).
   */
  record UnknownJob(String job, String where) implements PoolError {
    @Override
    public String name() {
      return "UNKNOWN_JOB";
    }

    @Override
    public String message() {
      return "no job '" + job + "' " + where;
    }
  }

  /**
   * F6 (docs/rules.md): a resize that cannot apply: {@code field} ({@code instances} or {@code
   * maxConcurrency}) is wrong for this pool, or, with {@code field} null, the pool is stopping.
   */
  record ResizeRefused(String field, String reason) implements PoolError {
    @Override
    public String name() {
      return "RESIZE_REFUSED";
    }

    @Override
    public String message() {
      return (field == null ? "" : field + ": ") + reason;
    }
  }

  /**
   * F6 (docs/rules.md): a rebalance named a slot a resize is taking out of the pool (it is
   * DRAINING).
   */
  record WorkerLeaving(String worker) implements PoolError {
    @Override
    public String name() {
      return "WORKER_LEAVING";
    }

    @Override
    public String message() {
      return "worker '" + worker + "' is draining: a resize takes it out of the pool";
    }
  }
}
