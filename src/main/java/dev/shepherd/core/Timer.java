package dev.shepherd.core;

/**
 * A timer the pool asks the runtime to keep ({@link Effect.StartTimer}); when it expires the
 * runtime applies {@link PoolEvent.TimerFired} with it. Each carries what fences it: a fire that
 * no longer applies (the assignment ended, the slot moved on, the host came back) is ignored and
 * counted, so the runtime never has to be exact about cancelling.
 */
public sealed interface Timer {

  /**
   * P14 (docs/rules.md): assignment {@code assignment} of {@code worker} runs past its job timeout.
   */
  record JobDeadline(String worker, long assignment) implements Timer {
    /*
     * Written out, as the record's own would be: every job's deadline is started and cancelled,
     * each a map operation on it, and the generated methods (method handles) cost the in-JVM
     * pool's coordinator 3% of its loop (docs/benchmarks.md). The same values as the record's.
     */
    @Override
    public boolean equals(Object other) {
      return other instanceof JobDeadline d && assignment == d.assignment
          && java.util.Objects.equals(worker, d.worker);
    }

    @Override
    public int hashCode() {
      return 31 * java.util.Objects.hashCode(worker) + Long.hashCode(assignment);
    }
  }

  /**
   * T2 (docs/rules.md): assignment {@code assignment} of {@code worker} may have reported no
   * progress for its progress timeout: hung if nothing was heard for that long, else checked again
   * when the timeout would end.
   */
  record ProgressSilence(String worker, long assignment) implements Timer {}

  /**
   * S5 (docs/rules.md): the restart backoff of {@code worker} that was to end at {@code until} is
   * over.
   */
  record BackoffEnd(String worker, long until) implements Timer {}

  /** P16 (docs/rules.md): the graceful stop's drain is out of time. */
  record DrainDeadline() implements Timer {}

  /**
   * H5 (docs/rules.md): host {@code host}, UP since {@code since}, may have been silent for its lease: lost if
   * nothing was heard from it for {@code leaseMs}, else checked again when the lease would end.
   */
  record HostLease(String host, long since) implements Timer {}

  /** H6 (docs/rules.md): host {@code host}, lost at {@code since}, has been away for the grace. */
  record HostGrace(String host, long since) implements Timer {}

  /**
   * J3, J4 (docs/rules.md): jobs waiting for a due time at or before {@code at} (a retry's delay, a
   * delayed submit) may run. Only the latest one started applies.
   */
  record Due(long at) implements Timer {}

  /** A slot retired as incarnation {@code incarnation} is tried again ({@code reviveAfterMs}). */
  record Revive(String worker, int incarnation) implements Timer {}

  /**
   * F4 (docs/rules.md): group {@code group} (null: the pool) may start again at {@code at}: a token
   * refills, or a rate-limited hold ends. On firing, dispatch runs; only the latest one started
   * for a group applies.
   */
  record GroupReady(String group, long at) implements Timer {}
}
