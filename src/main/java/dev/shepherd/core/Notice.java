package dev.shepherd.core;

import java.util.List;

/**
 * A noteworthy change for observers. Per-job churn between IDLE and ASSIGNED is not a notice (the
 * snapshot shows it); supervision-level changes are.
 */
public sealed interface Notice {

  /** A slot moved to {@code phase} (INSTALLING, IDLE after creation, BACKING_OFF, RETIRED). */
  record PhaseChanged(
      String worker, Phase phase, int incarnation, Long backoffUntil, Retirement retirement)
      implements Notice {}

  /**
   * The supervisor replaces {@code replaced} (slot order) because {@code worker} stopped with
   * {@code exit} while running {@code jobs}; the replacements are deployed after {@code delayMs}.
   * {@code charged} is false when a suspect was running (J2 in docs/rules.md): the pool's budget
   * did not count it.
   */
  record RestartDecided(String worker, Exit exit, String cause, List<String> replaced,
      long delayMs, List<String> jobs, boolean charged) implements Notice {
    public RestartDecided {
      replaced = List.copyOf(replaced);
      jobs = List.copyOf(jobs);
    }

    /** A charged restart of a slot that ran nothing when it stopped. */
    public RestartDecided(String worker, Exit exit, String cause, List<String> replaced,
        long delayMs) {
      this(worker, exit, cause, replaced, delayMs, List.of(), true);
    }
  }

  /**
   * S2, J8 (docs/rules.md): a decision to replace {@code replacementsRequested} slots was refused
   * by the pool's budget, which already held {@code restartsInWindow} of its {@code
   * maximumRestarts} in its window; {@code worker} had stopped with {@code exit} ({@code cause})
   * while running {@code jobs}, and had been restarted {@code slotRestarts} times itself.
   */
  record BudgetExceeded(
      String worker,
      int restartsInWindow,
      int replacementsRequested,
      int maximumRestarts,
      BudgetReaction reaction,
      Exit exit,
      String cause,
      List<String> jobs,
      int slotRestarts)
      implements Notice {
    public BudgetExceeded {
      jobs = List.copyOf(jobs);
    }
  }

  /**
   * J5 (docs/rules.md): job {@code job} was answered {@code reason} ({@code POISON}, {@code
   * ATTEMPTS_EXHAUSTED} or {@code FAILED}) after {@code attempts} attempts, the last on {@code
   * worker}, and is kept in the dead-letter set, which now holds {@code size} jobs.
   */
  record DeadLettered(String job, String reason, String worker, int attempts, int size)
      implements Notice {}

  /** Why a job left the dead-letter set. */
  enum DeadLetterRemoval {
    /** Submitted again by an operator and accepted. */
    REPLAYED,
    /** Discarded by an operator. */
    DISCARDED,
    /** Pushed out by newer ones (capacity or bytes). */
    EVICTED
  }

  /**
   * J5 (docs/rules.md): job {@code job} left the dead-letter set, which now holds {@code size}
   * jobs.
   */
  record DeadLetterRemoved(String job, DeadLetterRemoval why, int size) implements Notice {}

  /**
   * A retired slot was put back in service as incarnation {@code incarnation}: by an operator, or
   * by the {@code reviveAfterMs} timer ({@code byOperator} false).
   */
  record Revived(String worker, int incarnation, Retirement was, boolean byOperator)
      implements Notice {}

  /**
   * A worker host registered (UP), was lost (LOST: {@code cause} says how it was found out), or
   * left (GONE) (H5, H7 in docs/rules.md); {@code cause} is null but for LOST.
   */
  record HostChanged(String host, String node, HostState state, String cause) implements Notice {}

  /**
   * The pool took over from the coordinator of {@code previousTerm} (A3 in docs/rules.md): it
   * rebuilt {@code jobs} accepted jobs, of which {@code interrupted} had been running.
   */
  record Recovered(long term, long previousTerm, int jobs, int interrupted) implements Notice {}

  /** The pool's lifecycle state changed. */
  record PoolStateChanged(PoolState state) implements Notice {}

  /**
   * F6 (docs/rules.md): the pool's own slots were resized to {@code instances} of capacity {@code
   * maxConcurrency}: {@code added} joined (INSTALLING), {@code draining} are leaving (slot order).
   */
  record Resized(int instances, int maxConcurrency, List<String> added, List<String> draining)
      implements Notice {
    public Resized {
      added = List.copyOf(added);
      draining = List.copyOf(draining);
    }
  }

  /**
   * F6 (docs/rules.md): the local slot {@code worker}, drained by a resize, left the pool (its
   * incarnation {@code incarnation} is stopped); it is gone from the status. Not a retirement.
   */
  record SlotRemoved(String worker, int incarnation) implements Notice {}
}
