package dev.shepherd.runtime.ha;

/**
 * The submitter's trace of one journaled job (T1 in docs/rules.md) as W3C strings: written beside
 * the job's {@code accepted} record and its checkpoint image ({@link DurableJson}), and handed to
 * the next term's leader, so the recovered job's spans continue under the original caller's.
 * Runtime data, not the core's: the pool's rules never read it.
 *
 * @param traceparent the W3C {@code traceparent}, never null
 * @param tracestate the W3C {@code tracestate}, or null when the trace has none
 */
public record JournalTrace(String traceparent, String tracestate) {
  public JournalTrace {
    if (traceparent == null) {
      throw new IllegalArgumentException("traceparent is null");
    }
  }
}
