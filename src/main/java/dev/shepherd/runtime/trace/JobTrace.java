package dev.shepherd.runtime.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.Map;

/**
 * The submitter's trace context of one job (T1 in docs/rules.md): the parent of the job's {@code
 * queued} span and of each attempt's span. Captured at admission from the current context (the
 * in-JVM caller's, or the server span Vert.x opened for an event-bus or HTTP request), and
 * carried as W3C {@code traceparent}/{@code tracestate} strings where the job leaves the JVM.
 * Immutable.
 */
public final class JobTrace {
  private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(Map<String, String> carrier) {
      return carrier.keySet();
    }

    @Override
    public String get(Map<String, String> carrier, String key) {
      return carrier == null ? null : carrier.get(key);
    }
  };

  private final Context parent;
  private final String pool;

  private JobTrace(Context parent, String pool) {
    this.parent = parent;
    this.pool = pool;
  }

  /**
   * The current context's trace for a job of {@code pool}, or null when no valid span is current
   * (a job submitted outside any trace starts none).
   */
  public static JobTrace capture(String pool) {
    Context current = Context.current();
    Span span = Span.fromContextOrNull(current);
    return span != null && span.getSpanContext().isValid() ? new JobTrace(current, pool) : null;
  }

  /**
   * The trace carried as W3C strings ({@code tracestate} may be null), or null when {@code
   * traceparent} is null or not a valid one.
   */
  public static JobTrace fromW3c(String pool, String traceparent, String tracestate) {
    if (traceparent == null) {
      return null;
    }
    Map<String, String> carrier = new HashMap<>(2);
    carrier.put("traceparent", traceparent);
    if (tracestate != null) {
      carrier.put("tracestate", tracestate);
    }
    Context parent = W3CTraceContextPropagator.getInstance().extract(Context.root(), carrier,
        GETTER);
    return Span.fromContext(parent).getSpanContext().isValid() ? new JobTrace(parent, pool) : null;
  }

  /** The context holding the submitter's span. */
  public Context parent() {
    return parent;
  }

  public String pool() {
    return pool;
  }

  /** The submitter's span as a W3C {@code traceparent}. */
  public String traceparent() {
    return w3c().get("traceparent");
  }

  /** The submitter's W3C {@code tracestate}, or null when it has none. */
  public String tracestate() {
    return w3c().get("tracestate");
  }

  private Map<String, String> w3c() {
    Map<String, String> carrier = new HashMap<>(2);
    W3CTraceContextPropagator.getInstance().inject(parent, carrier, Map::put);
    return carrier;
  }

  @Override
  public String toString() {
    return "JobTrace[" + traceparent() + "]";
  }
}
