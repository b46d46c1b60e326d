/**
 * Internal, with no compatibility promise (users import {@link dev.shepherd.runtime}): a job's
 * trace (T1 in docs/rules.md). The submitter's context captured at admission ({@code JobTrace}),
 * carried as W3C {@code traceparent}/{@code tracestate} strings wherever the job leaves the JVM
 * (a worker host's batch, the journal of a highly available pool); the {@code queued} span a
 * coordinator keeps per job ({@code JobTraces}); the span of one attempt, current on the worker
 * while its handler runs ({@code AttemptSpan}). Everything here is reached only when the Vert.x
 * instance has a tracer ({@code Tracing#on}): with tracing off no span, no capture, no map entry.
 *
 * <p>Uses the core's value types, Vert.x and the OpenTelemetry API only.
 */
package dev.shepherd.runtime.trace;
