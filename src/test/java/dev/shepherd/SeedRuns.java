package dev.shepherd;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Seeded runs that share nothing (property sequences, failover simulations), run side by side,
 * one per core ({@code shepherd.seed.threads}, by default every core): each run is
 * single-threaded and deterministic, so where it runs changes nothing of what it does. Results
 * come back in run order, and a failure is the one of the first failing run, as it was thrown,
 * so a report names the same seed as a run on one thread would.
 */
public final class SeedRuns {
  private SeedRuns() {}

  /** How many runs go side by side. */
  public static int threads() {
    return Math.max(1, Integer.getInteger("shepherd.seed.threads",
        Runtime.getRuntime().availableProcessors()));
  }

  /** Runs {@code run} for 0 to {@code count - 1}; their results, in that order. */
  public static <T> List<T> run(String name, int count, IntFunction<T> run) {
    int threads = Math.min(threads(), Math.max(1, count));
    if (threads == 1) {
      List<T> results = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        results.add(run.apply(i));
      }
      return results;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads, task -> {
      Thread thread = new Thread(task, "seeds-" + name);
      thread.setDaemon(true);
      return thread;
    });
    try {
      List<Future<T>> runs = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        int index = i;
        runs.add(pool.submit(() -> run.apply(index)));
      }
      List<T> results = new ArrayList<>(count);
      for (Future<T> one : runs) {
        results.add(result(one));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private static <T> T result(Future<T> run) {
    try {
      return run.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Error error) {
        throw error;
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new AssertionError(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
