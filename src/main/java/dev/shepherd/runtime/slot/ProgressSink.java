package dev.shepherd.runtime.slot;

import dev.shepherd.runtime.Job;

/**
 * Where a running {@link Job}'s progress reports go (T2 in docs/rules.md): the slot that runs it.
 * Reports of one job are coalesced while they wait: {@link #waiting} is called, from the thread
 * that reported, only for the first report since the last one taken, and the sink then takes the
 * latest ({@link JobControl#takeProgress}) on its own thread, so the last report always arrives
 * and a burst costs one hand-over.
 */
@FunctionalInterface
public interface ProgressSink {
  /** {@code job} has a report waiting; take it on the sink's own thread. From any thread. */
  void waiting(Job job);
}
