package dev.shepherd.runtime.ha;

import java.util.function.Consumer;

/**
 * Where a standby's work ahead of a takeover runs (its classes loaded, its reading of the log
 * and its coordinator warmed up): a daemon thread of its own, not a Vert.x worker. That work has
 * nothing to hand back, and may outlive the Vert.x it was started from: a worker's task that
 * ends after its Vert.x closed hands its result to a terminated event loop, and the worker
 * thread dies of an uncaught {@code RejectedExecutionException}.
 */
public final class WarmUpThread {
  private WarmUpThread() {}

  /**
   * Runs {@code task} on a new daemon thread named {@code name}; {@code failed} hears, on that
   * thread, what it threw (an {@link AssertionError} too: an invariant checked under {@code -ea}).
   */
  public static Thread start(String name, Runnable task, Consumer<Throwable> failed) {
    Thread thread = new Thread(() -> {
      try {
        task.run();
      } catch (RuntimeException | AssertionError e) {
        failed.accept(e);
      }
    }, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
