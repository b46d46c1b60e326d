package dev.shepherd.runtime.ha;

/**
 * The submitter's trace of one journaled job (T1 in docs/rules.md) as W3C strings, with the wall
 * time of its admission: written beside the job's {@code accepted} record and its checkpoint
 * image ({@link DurableJson}), and handed to the next term's leader, so the recovered job's spans
 * continue under the original caller's and its {@code queued} span starts where the first one
 * did. Runtime data, not the core's: the pool's rules never read it.
 *
 * @param traceparent the W3C {@code traceparent}, never null
 * @param tracestate the W3C {@code tracestate}, or null when the trace has none
 * @param admittedAt when the job was admitted, in epoch milliseconds of the admitting leader's
 *     wall clock; 0 when not known (a journal written before it was kept)
 */
public record JournalTrace(String traceparent, String tracestate, long admittedAt) {
  public JournalTrace {
    if (traceparent == null) {
      throw new IllegalArgumentException("traceparent is null");
    }
  }

  /** A trace whose admission time is not known. */
  public JournalTrace(String traceparent, String tracestate) {
    this(traceparent, tracestate, 0);
  }
}
