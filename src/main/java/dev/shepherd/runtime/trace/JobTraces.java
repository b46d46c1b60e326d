package dev.shepherd.runtime.trace;

import dev.shepherd.core.Outcome;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The traces of one pool's unanswered jobs (T1 in docs/rules.md), on its coordinator's context:
 * job id to the submitter's {@link JobTrace}, the wall time of its admission (which a highly
 * available pool journals, so a recovered job's {@code queued} span starts there), and the job's
 * {@code queued} span from admission to its first dispatch. An entry lives from the submit to the job's terminal answer; a job
 * submitted outside any trace has none. Only a coordinator whose Vert.x traces has one ({@link
 * #of}): with tracing off the coordinator holds null and pays one null check per effect.
 */
public final class JobTraces {
  private final String pool;
  /** Admitted jobs by id. */
  private final Map<String, Entry> jobs = new HashMap<>();
  /**
   * Submits not answered yet, by their responder: a submit may name no id (the pool makes one),
   * and its admission, which names the id, comes before its first dispatch.
   */
  private final Map<Object, Entry> admitting = new IdentityHashMap<>();

  private static final class Entry {
    final JobTrace trace;
    /** Epoch milliseconds of its admission; 0: not known. */
    final long admittedAt;
    Span queued;
    boolean dispatched;

    Entry(JobTrace trace, long admittedAt) {
      this.trace = trace;
      this.admittedAt = admittedAt;
    }
  }

  private final Vertx vertx;
  /** The wall clock, in epoch milliseconds: the coordinator's. */
  private final LongSupplier wallMs;

  private JobTraces(Vertx vertx, String pool, LongSupplier wallMs) {
    this.vertx = vertx;
    this.pool = pool;
    this.wallMs = wallMs;
  }

  /**
   * The traces of {@code pool}'s jobs, their admissions timed on {@code wallMs} (epoch
   * milliseconds), or null when {@code vertx} does not trace.
   */
  public static JobTraces of(Vertx vertx, String pool, LongSupplier wallMs) {
    return Tracing.on(vertx) ? new JobTraces(vertx, pool, wallMs) : null;
  }

  public String pool() {
    return pool;
  }

  /** The current context's trace, captured for a submit to this pool (null: none). */
  public JobTrace capture() {
    return JobTrace.capture(pool);
  }

  /**
   * A submit answered through {@code replyTo}, under {@code trace} (nothing when null); its
   * admission ({@link #answered}) names the job.
   */
  public void submitted(JobTrace trace, Object replyTo) {
    if (trace != null) {
      admitting.put(replyTo, new Entry(trace, wallMs.getAsLong()));
    }
  }

  /**
   * A job recovered from the journal of a highly available pool (A3 in docs/rules.md) with the
   * trace recorded at its admission, at {@code admittedAt} (epoch milliseconds; 0: not known):
   * its spans continue under the original submitter's, its {@code queued} span from that
   * admission (from now when it is not known).
   */
  public void recovered(String job, JobTrace trace, long admittedAt) {
    if (trace != null) {
      Entry entry = new Entry(trace, admittedAt);
      jobs.put(job, entry);
      entry.queued = queued(entry, job, admittedAt);
    }
  }

  /** The trace of {@code job}, or null. */
  public JobTrace trace(String job) {
    Entry entry = jobs.get(job);
    return entry == null ? null : entry.trace;
  }

  /**
   * The trace of {@code job}, admitted, or being admitted through {@code replyTo} (its admission
   * is written before it is answered), or null.
   */
  public JobTrace trace(String job, Object replyTo) {
    Entry entry = entry(job, replyTo);
    return entry == null ? null : entry.trace;
  }

  /**
   * When {@code job} (admitted, or being admitted through {@code replyTo}) was admitted, in epoch
   * milliseconds; 0 when it has no trace or the time is not known.
   */
  public long admittedAt(String job, Object replyTo) {
    Entry entry = entry(job, replyTo);
    return entry == null ? 0 : entry.admittedAt;
  }

  private Entry entry(String job, Object replyTo) {
    Entry entry = jobs.get(job);
    return entry == null ? admitting.get(replyTo) : entry;
  }

  /** The number of jobs with a trace, admitted or being admitted. */
  public int size() {
    return jobs.size() + admitting.size();
  }

  /** {@code job} is handed to a slot: its queued span ends at its first dispatch. */
  public JobTrace dispatched(String job) {
    Entry entry = jobs.get(job);
    if (entry == null) {
      return null;
    }
    if (!entry.dispatched) {
      entry.dispatched = true;
      if (entry.queued == null) {
        entry.queued = queued(entry, job, 0);
      }
      entry.queued.setAttribute(Tracing.OUTCOME, "dispatched");
      entry.queued.end();
    }
    return entry.trace;
  }

  /** An answer to {@code replyTo}: the admission starts the queued span, a terminal one ends it. */
  public void answered(Object replyTo, Outcome outcome) {
    String job = outcome.job();
    if (outcome instanceof Outcome.Accepted) {
      Entry admitted = admitting.remove(replyTo);
      if (admitted != null) {
        admitted.queued = queued(admitted, job, 0);
        jobs.put(job, admitted);
      }
      return;
    }
    if (outcome instanceof Outcome.Rejected) {
      admitting.remove(replyTo);
      return;
    }
    Entry entry = jobs.remove(job);
    if (entry == null) {
      return;
    }
    if (!entry.dispatched && entry.queued != null) {
      String reason = reason(outcome);
      entry.queued.setAttribute(Tracing.OUTCOME, name(outcome));
      if (reason != null) {
        entry.queued.setAttribute(Tracing.REASON, reason);
      }
      if (!(outcome instanceof Outcome.Cancelled)) {
        entry.queued.setStatus(StatusCode.ERROR, reason == null ? name(outcome) : reason);
      }
      entry.queued.end();
    }
  }

  /** A queued span for {@code job}, started at {@code startMs} (epoch milliseconds; 0: now). */
  private Span queued(Entry entry, String job, long startMs) {
    SpanBuilder builder = Tracing.tracer(vertx).spanBuilder(Tracing.QUEUED)
        .setParent(entry.trace.parent())
        .setSpanKind(SpanKind.INTERNAL)
        .setAttribute(Tracing.POOL, pool)
        .setAttribute(Tracing.JOB, job);
    if (startMs > 0) {
      builder.setStartTimestamp(startMs, TimeUnit.MILLISECONDS);
    }
    return builder.startSpan();
  }

  /** The outcome's name as the protocol spells it. */
  static String name(Outcome outcome) {
    return outcome.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
  }

  static String reason(Outcome outcome) {
    if (outcome instanceof Outcome.Rejected r) {
      return r.reason().name();
    }
    if (outcome instanceof Outcome.Interrupted i) {
      return i.reason().kind();
    }
    if (outcome instanceof Outcome.Failed f) {
      return String.valueOf(f.error().code());
    }
    return null;
  }
}
