package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.runtime.time.WallTimes;

/**
 * Watches one pool from its coordinator's context: the live view, metrics and logs implement it.
 * Calls must be quick; they run on the coordinator's thread. Times in what it receives (a
 * notice's {@code backoffUntil}, a snapshot's) are wall time, as people read them ({@link
 * WallTimes}).
 */
public interface PoolObserver {

  /** Every answer the pool gives (admissions included). */
  default void onOutcome(Outcome outcome) {}

  /** Every supervision-level notice. */
  default void onNotice(Notice notice) {}

  /**
   * The pool handed {@code job} to {@code worker} (attempt {@code attempt}, counting from 1): the
   * moment a job leaves the backlog, so observers can measure queue wait from its admission.
   */
  default void onAssigned(String worker, String job, int attempt) {}

  /** T2 (docs/rules.md): a running job reported progress. */
  default void onProgress(dev.shepherd.core.Effect.Progress progress) {}

  /** A job ran on a local slot for {@code runNanos} (its result is on the way). */
  default void onRun(String worker, long runNanos) {}

  /**
   * An incarnation of {@code worker} ended for {@code reason}: it crashed, exited, timed out, was
   * stopped beside a sibling, its node was lost, or the pool stopped it. Its cause, when it has
   * one, follows in the supervisor's {@link Notice.RestartDecided}.
   */
  default void onStop(String worker, int incarnation, Exit reason) {}

  /** A periodic snapshot (every {@code statsMs}). */
  default void onStats(PoolSnapshot snapshot) {}

  /**
   * F1 (docs/rules.md): the load of the configured groups that the next {@link #onStats}
   * snapshot does not list (it lists the busiest), so that metrics can give every configured
   * group its own series; called just before each {@code onStats}, with an empty list when every
   * configured group is listed.
   */
  default void onConfiguredGroups(java.util.List<PoolSnapshot.GroupStatus> groups) {}

  /**
   * An operator changed the pool's flow (F1, F5 in docs/rules.md): {@code change} is {@code
   * paused}, {@code resumed}, {@code group} (settings set) or {@code groupReset}; {@code group}
   * is null for the pool; {@code state} is what it is now, as the operator's answer says it.
   */
  default void onFlowChange(String change, String group, io.vertx.core.json.JsonObject state) {}
}
