package dev.shepherd.runtime.slot;

import dev.shepherd.runtime.Job;
import io.vertx.core.Context;

/**
 * What an incarnation does to a {@link Job} that its handler may not: hand it the payload decoded
 * on the incarnation's context, say which context runs it, and mark it cancelled. {@code Job}
 * keeps these package-private (a handler sees only what it may use) and installs the one
 * implementation when it is loaded, as the JDK's {@code SharedSecrets} do.
 */
public abstract class JobControl {
  private static volatile JobControl installed;

  /** Installs {@code Job}'s implementation; once (a second call fails). */
  public static synchronized void install(JobControl control) {
    if (installed != null) {
      throw new IllegalStateException("the job control is installed already");
    }
    installed = control;
  }

  static JobControl get() {
    JobControl control = installed;
    if (control == null) {
      try {
        // Job installs it in its static initializer.
        Class.forName(Job.class.getName(), true, Job.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
      control = installed;
    }
    return control;
  }

  /** The payload decoded on the incarnation's context (it arrived as raw JSON bytes). */
  protected abstract void decodedAs(Job job, Object decoded);

  /** The incarnation's context, where {@link Job#cancelled()} calls back. */
  protected abstract void runsOn(Job job, Context context);

  /** Marks the job cancelled; from any thread. */
  protected abstract void cancel(Job job);

  /**
   * Gives the job its trace (T1 in docs/rules.md): the submitter's, then its attempt's span once
   * it runs; never called while tracing is off.
   */
  protected abstract void traced(Job job, Object trace);

  /** Remembers where its incarnation's {@link AssignedJobs} holds {@code job}. */
  protected abstract void heldAt(Job job, int at);

  /** Where its incarnation's {@link AssignedJobs} holds {@code job}; -1 before it was held. */
  protected abstract int heldAt(Job job);

  /** The job's trace, or null (always, while tracing is off). */
  protected abstract Object trace(Job job);

  /** {@link #traced}, from the packages that hand jobs to incarnations. */
  public static void trace(Job job, Object trace) {
    get().traced(job, trace);
  }

  /** Sends {@code job}'s progress reports to {@code sink} (T2 in docs/rules.md). */
  protected abstract void reportTo(Job job, ProgressSink sink);

  /** The latest report of {@code job} not taken yet, or null; from the sink's thread. */
  protected abstract ProgressReport take(Job job);

  /** {@link #reportTo}, for the slots that make jobs. */
  public static void reportProgressTo(Job job, ProgressSink sink) {
    get().reportTo(job, sink);
  }

  /** {@link #take}, for the sinks. */
  public static ProgressReport takeProgress(Job job) {
    return get().take(job);
  }
}
