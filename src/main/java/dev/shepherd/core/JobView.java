package dev.shepherd.core;

/**
 * Where a job is (J6 in docs/rules.md), as {@link Pool#lookup} finds it. Fields that do not apply
 * to the state are null.
 *
 * @param position QUEUED: how many queued jobs are ahead of it
 * @param dueAt WAITING: when it may run again (on the events' clock; the runtime hands views out
 *     in epoch milliseconds)
 * @param worker RUNNING: the slot running it; DEAD: the slot of its last attempt
 * @param attempts dispatches so far (RUNNING: this one included)
 * @param outcome ANSWERED and DEAD: its terminal answer
 * @param at ANSWERED and DEAD: when it was answered
 * @param deadLetter DEAD: the dead-letter entry
 * @param progress QUEUED, WAITING and RUNNING: the last progress an attempt reported, its
 *     checkpoint (T2), or null
 */
public record JobView(String job, JobState state, String key, Integer position, Long dueAt,
    String worker, Integer attempts, Outcome outcome, Long at, DeadLetter deadLetter,
    Object progress) {

  /** A view without progress. */
  public JobView(String job, JobState state, String key, Integer position, Long dueAt,
      String worker, Integer attempts, Outcome outcome, Long at, DeadLetter deadLetter) {
    this(job, state, key, position, dueAt, worker, attempts, outcome, at, deadLetter, null);
  }

  /** The states of {@link JobView}. */
  public enum JobState {
    /** Accepted and in the backlog, ready to run. */
    QUEUED,
    /** Accepted and held back until {@code dueAt}: a delayed submit or a retry's delay. */
    WAITING,
    /** Running on {@code worker}. */
    RUNNING,
    /** Answered; the outcome is remembered among the recent ones. */
    ANSWERED,
    /** Answered and kept in the dead-letter set. */
    DEAD
  }
}
