package dev.shepherd.runtime.ha;

import dev.shepherd.core.HaStatus;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.time.RuntimeTime;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.Map;

/**
 * The cluster's side of a highly available pool (A1-A3 in docs/rules.md): who leads it, in which
 * term, and the replicated store its coordinator writes to. Found with {@link
 * java.util.ServiceLoader} (the cluster package provides one); one instance per pool and node. A
 * node that lists the pool stands by until it can claim the next term; the claim returns what the
 * store holds, which the new coordinator recovers from. Every write names its term and fails once a
 * newer one exists, or without a majority.
 *
 * <p>Time: the claim's moment is this node's monotonic time ({@link RuntimeTime#of} the
 * context's Vert.x), since the lease it starts is measured here only; the times inside batches,
 * bases and what a claim recovers are wall time, since another JVM reads them ({@link
 * JournalTimes}).
 */
public interface Leadership {

  /** What a {@link Leadership} tells the pool's verticle, on the verticle's context. */
  interface Candidate {
    /**
     * This node leads the pool in {@code term}: recover from {@code recovered}; {@code
     * claimedAt} is when the claim was sent (the start of the first lease), in this node's
     * monotonic milliseconds.
     */
    void lead(long term, DurableLog.Recovered recovered, long claimedAt);

    /**
     * {@link #lead(long, DurableLog.Recovered, long)}, with the traces the journal holds for its
     * jobs (T1 in docs/rules.md; job id to trace, empty when none), so that the recovered jobs'
     * spans continue under their submitters'. By default the traces are dropped.
     */
    default void lead(long term, DurableLog.Recovered recovered, Map<String, JournalTrace> traces,
        long claimedAt) {
      lead(term, recovered, claimedAt);
    }

    /** Stop acting at once: the majority is lost, or this member is merging. */
    void stepDown(String why);

    /**
     * This node stands by and the member of the pool's leader just left the cluster: a claim is
     * under way, which this node may win, so it may make ready to serve now rather than after
     * it (A3 in docs/rules.md). By default nothing.
     */
    default void claiming() {}

    /**
     * A claim of this node was refused: another node leads the pool, and whatever {@link
     * #claiming} made ready goes. By default nothing.
     */
    default void anotherLeads() {}
  }

  /** Starts standing for the pool of {@code config}; calls {@code candidate} on {@code context}. */
  Future<Void> start(Context context, PoolConfig config, Candidate candidate);

  /** Stops standing; a term still held is given up. */
  Future<Void> stop();

  /**
   * Writes {@code batch} under {@code term}; a checkpoint replaces the log with {@code base}.
   * Completes on any thread; fails when the term is no longer the pool's or there is no majority.
   */
  Future<Void> write(long term, DurableGate.Batch batch, DurableLog.Base base);

  /**
   * {@link #write(long, DurableGate.Batch, DurableLog.Base)}, with the traces of the jobs the
   * batch accepts or the base holds (T1 in docs/rules.md; job id to trace), for a store that
   * journals them ({@link DurableJson}). By default the traces are not kept.
   */
  default Future<Void> write(long term, DurableGate.Batch batch, DurableLog.Base base,
      Map<String, JournalTrace> traces) {
    return write(term, batch, base);
  }

  /**
   * How many batches may be in flight at once (A3 in docs/rules.md); above 1 only for a store
   * that keeps them in order of their ids whatever order they arrive in, and reads back only the
   * unbroken run after its checkpoint.
   */
  default int writesInFlight() {
    return 1;
  }

    /** Gives up {@code term} after a step-down, so that another node may claim the next one. */
  void resign(long term);

  /** The pool's high-availability status as this node sees it while leading {@code term}. */
  HaStatus status(long term);
}
