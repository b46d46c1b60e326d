package dev.shepherd.runtime.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.vertx.core.internal.ContextInternal;
import io.vertx.tracing.opentelemetry.VertxContextStorageProvider.VertxContextStorage;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The span of one attempt of a job (T1 in docs/rules.md), a child of the submitter's span: started
 * where the attempt runs (a local slot's incarnation or a worker host's), current on a duplicate
 * of the incarnation's context while the handler runs, so the spans the handler starts (through
 * OpenTelemetry's current context or Vert.x's tracer) are its children; ended once, by the
 * attempt's answer or by the end of its incarnation.
 */
public final class AttemptSpan {
  private final Span span;
  private final ContextInternal context;
  private final AtomicBoolean ended = new AtomicBoolean();

  private AttemptSpan(Span span, ContextInternal context) {
    this.span = span;
    this.context = context;
  }

  /**
   * Starts the span of attempt {@code attempt} of {@code job} on {@code slot}, under {@code
   * trace}, and makes it current on a fresh duplicate of {@code incarnation}'s context.
   */
  public static AttemptSpan start(JobTrace trace, String job, int attempt, String slot,
      ContextInternal incarnation) {
    Span span = Tracing.tracer(incarnation.owner()).spanBuilder(Tracing.ATTEMPT)
        .setParent(trace.parent())
        .setSpanKind(SpanKind.CONSUMER)
        .setAttribute(Tracing.POOL, trace.pool())
        .setAttribute(Tracing.JOB, job)
        .setAttribute(Tracing.ATTEMPT_NUMBER, (long) attempt)
        .setAttribute(Tracing.SLOT, slot)
        .startSpan();
    ContextInternal duplicate = incarnation.duplicate();
    // Never detached: the duplicate serves this attempt alone and is dropped with it.
    VertxContextStorage.INSTANCE.attach(duplicate, Context.root().with(span));
    return new AttemptSpan(span, duplicate);
  }

  /** The duplicate context the handler runs on, with this span current. */
  public ContextInternal context() {
    return context;
  }

  /**
   * Calls {@code handler} on this thread with the attempt's context as Vert.x's current one, so
   * what the handler starts (spans, timers, event-bus sends) runs under this span.
   */
  public <T> T call(Callable<T> handler) throws Exception {
    ContextInternal previous = context.beginDispatch();
    try {
      return handler.call();
    } finally {
      context.endDispatch(previous);
    }
  }

  /** The handler's future succeeded. */
  public void completed() {
    end("completed", null, null);
  }

  /** The handler failed the attempt ({@code code}: the job error's code). */
  public void failed(String code, Throwable failure) {
    end("failed", code, failure);
  }

  /** The handler answered "rate limited" (F4 in docs/rules.md): the job waits and runs again. */
  public void rateLimited() {
    end("rate_limited", null, null);
  }

  /** The attempt's incarnation ended (crash, stop, timeout) before it answered. */
  public void interrupted(String reason, Throwable cause) {
    end("interrupted", reason, cause);
  }

  private void end(String outcome, String reason, Throwable failure) {
    if (!ended.compareAndSet(false, true)) {
      return;
    }
    span.setAttribute(Tracing.OUTCOME, outcome);
    if (reason != null) {
      span.setAttribute(Tracing.REASON, reason);
    }
    if (failure != null) {
      span.recordException(failure);
    }
    if (!"completed".equals(outcome) && !"rate_limited".equals(outcome)) {
      span.setStatus(StatusCode.ERROR, reason == null ? outcome : reason);
    }
    span.end();
  }
}
