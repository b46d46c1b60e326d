package dev.shepherd.runtime;

import dev.shepherd.core.JobProgress;
import dev.shepherd.runtime.slot.JobControl;
import dev.shepherd.runtime.slot.ProgressReport;
import dev.shepherd.runtime.slot.ProgressSink;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.AtomicReference;

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
 *
 * <p>A long job can report how far it got with {@link #progress(JsonObject)} (T2 in
 * docs/rules.md): the pool publishes it, tells the submitter, and keeps the last report as the
 * job's checkpoint, which a later attempt of the same job reads with {@link #checkpoint()} to
 * resume instead of starting again.
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
      protected void heldAt(Job job, int at) {
        job.heldAt = at;
      }

      @Override
      protected int heldAt(Job job) {
        return job.heldAt;
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

      @Override
      protected void reportTo(Job job, ProgressSink sink) {
        job.sink = sink;
      }

      @Override
      protected ProgressReport take(Job job) {
        return job.pending.getAndSet(null);
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
  /** Where its incarnation holds it while it runs; the owner's context only. */
  private int heldAt = -1;
  /** Its trace while tracing is on (T1 in docs/rules.md), else null; internal to the runtime. */
  private volatile Object trace;
  /** T2 (docs/rules.md): the last progress of an earlier attempt, or null. */
  private final JsonObject checkpoint;
  /** T2 (docs/rules.md): where reports go (null: nowhere, for a job made outside a slot) and the one waiting. */
  private volatile ProgressSink sink;
  private final AtomicReference<ProgressReport> pending = new AtomicReference<>();

  public Job(String id, Object payload, int attempt, String key, String worker, int incarnation,
      long assignment) {
    this(id, payload, attempt, key, worker, incarnation, assignment, null);
  }

  /**
   * A job whose earlier attempt reported {@code checkpoint} as its last progress (null: none, or
   * this is the first attempt).
   */
  public Job(String id, Object payload, int attempt, String key, String worker, int incarnation,
      long assignment, JsonObject checkpoint) {
    this.checkpoint = checkpoint;
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

  /**
   * T2 (docs/rules.md): the last progress an earlier attempt of this job reported, so this one can
   * resume from it; null on a first attempt or when no earlier attempt reported any. Each call
   * returns the same object.
   */
  public JsonObject checkpoint() {
    return checkpoint;
  }

  /**
   * T2 (docs/rules.md): reports how far the job got. The pool publishes it on its events address,
   * sends it to the submitter ({@code replyTo}, and {@link PoolClient} callers that asked for it)
   * and keeps it as the job's checkpoint: an attempt that runs after this one ends without an
   * answer (its incarnation crashed, hung, or its node was lost) gets it from {@link
   * #checkpoint()}. With a {@code progressTimeoutMs}, a report also proves the attempt alive.
   *
   * <p>Call it from the handler, from the incarnation's context or from any thread; it copies
   * {@code progress} (later changes to it are not seen) and returns at once. Reports that come
   * faster than the pool takes them are coalesced: the last one always arrives. A report after
   * the job's answer, or of a job cancelled while running, is ignored.
   *
   * @throws IllegalArgumentException when {@code progress} is null, holds a value JSON cannot
   *     carry, or is more than {@link JobProgress#MAX_BYTES} bytes of JSON; nothing is reported
   */
  public void progress(JsonObject progress) {
    if (progress == null) {
      throw new IllegalArgumentException("progress: must be a JSON object, not null");
    }
    Buffer encoded;
    try {
      encoded = progress.toBuffer();
    } catch (RuntimeException | StackOverflowError e) {
      throw new IllegalArgumentException("progress: cannot be written as JSON: "
          + e.getMessage(), e);
    }
    if (encoded.length() > JobProgress.MAX_BYTES) {
      throw new IllegalArgumentException("progress: " + encoded.length()
          + " bytes of JSON, more than the " + JobProgress.MAX_BYTES + " a report may have");
    }
    ProgressSink to = sink;
    if (to == null) {
      return;
    }
    if (pending.getAndSet(new ProgressReport(new JsonObject(encoded), encoded.length())) == null) {
      to.waiting(this);
    }
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

  /**
   * The incarnation's context, where {@link #cancelled()} calls back. Set by the coordinator before
   * it hands the job to that context, which publishes it to the handler and to any thread the
   * handler passes the job to, so the write needs no lock of its own (a lock per job was the
   * largest single cost of the coordinator's hand-over).
   */
  void runsOn(Context ctx) {
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
