package dev.shepherd.runtime;

import dev.shepherd.runtime.slot.JobControl;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;

/**
 * One assignment as a worker sees it: the job's id and payload, which attempt this is (from 1),
 * its affinity key (or null), and the slot and incarnation running it; and whether it has been
 * cancelled while running, so a long job can stop early ({@link #isCancelled()}, or {@link
 * #cancelled()} as a future completed on the incarnation's context). A cancelled job's answer is
 * discarded whatever it returns; its job timeout stays what it was.
 *
 * <p>A job ends by what {@link JobHandler#handle} returns or throws (J1 in docs/rules.md: a failure
 * or an exception fails it, an {@link Error} crashes its incarnation); to crash the incarnation on
 * purpose, call {@link WorkerContext#crash}.
 */
public final class Job {
  static {
    JobControl.install(new JobControl() {
      @Override
      protected void decodedAs(Job job, Object decoded) {
        job.decodedAs(decoded);
      }

      @Override
      protected void runsOn(Job job, Context context) {
        job.runsOn(context);
      }

      @Override
      protected void traced(Job job, Object trace) {
        job.trace = trace;
      }

      @Override
      protected Object trace(Job job) {
        return job.trace;
      }

      @Override
      protected void cancel(Job job) {
        job.cancel();
      }
    });
  }

  private final String id;
  /** Replaced once by its decoded form, on the incarnation's context, before the handler runs. */
  private Object payload;
  private final int attempt;
  private final String key;
  private final String worker;
  private final int incarnation;
  private final long assignment;
  private volatile boolean cancelled;
  /** Created on the first {@link #cancelled()} call; guarded by {@code this}. */
  private Promise<Void> cancellation;
  private Context context;
  /** Its trace while tracing is on (T1 in docs/rules.md), else null; internal to the runtime. */
  private volatile Object trace;

  public Job(String id, Object payload, int attempt, String key, String worker, int incarnation,
      long assignment) {
    this.id = id;
    this.payload = payload;
    this.attempt = attempt;
    this.key = key;
    this.worker = worker;
    this.incarnation = incarnation;
    this.assignment = assignment;
  }

  public String id() {
    return id;
  }

  public Object payload() {
    return payload;
  }

  public int attempt() {
    return attempt;
  }

  public String key() {
    return key;
  }

  public String worker() {
    return worker;
  }

  public int incarnation() {
    return incarnation;
  }

  public long assignment() {
    return assignment;
  }

  /** The payload decoded on the incarnation's context (it arrived as raw JSON bytes). */
  void decodedAs(Object decoded) {
    this.payload = decoded;
  }

  /** Whether the job was cancelled while running (its answer will be discarded). */
  public boolean isCancelled() {
    return cancelled;
  }

  /**
   * Completes when the job is cancelled while running, on the incarnation's context (callers on
   * other threads are called back there too). Never fails; never completes for a job that runs
   * to its end uncancelled.
   */
  public synchronized Future<Void> cancelled() {
    if (cancellation == null) {
      Context ctx = context;
      cancellation = ctx instanceof ContextInternal internal ? internal.promise()
          : Promise.promise();
      if (cancelled) {
        cancellation.tryComplete();
      }
    }
    return cancellation.future();
  }

  /** The incarnation's context, where {@link #cancelled()} calls back. */
  synchronized void runsOn(Context ctx) {
    this.context = ctx;
  }

  /** Marks the job cancelled; from any thread. */
  void cancel() {
    Promise<Void> toComplete;
    synchronized (this) {
      cancelled = true;
      toComplete = cancellation;
    }
    if (toComplete != null) {
      toComplete.tryComplete();
    }
  }

  @Override
  public String toString() {
    return "Job[" + id + " attempt " + attempt + " on " + worker + "#" + incarnation + "]";
  }
}
