package dev.shepherd.runtime;

import dev.shepherd.core.ConfigException;
import io.vertx.core.ThreadingModel;
import io.vertx.core.json.JsonObject;

/**
 * The {@code worker} object of a pool entry or a worker-host entry, validated: the {@link
 * JobHandler} class each slot runs, how many slots, how many assignments each runs at once, the
 * threading model of its incarnations, the {@code config} handed to them, and what an exception
 * thrown by the handler means ({@code onException}, J1: {@code FAIL_JOB} by default, or {@code
 * CRASH}).
 */
public record WorkerConfig(
    Class<? extends JobHandler> type,
    int instances,
    int maxConcurrency,
    ThreadingModel threading,
    JsonObject config,
    OnException onException) {

  /** Default {@code instances}. */
  public static final int DEFAULT_INSTANCES = 4;

  /**
   * Parses {@code worker} (its path names fields in errors); {@code minInstances} is 1, or 0 where
   * a pool may run on worker hosts alone.
   */
  public static WorkerConfig parse(ConfigReader worker, int minInstances) {
    worker.onlyFields("class", "instances", "maxConcurrency", "threading", "config",
        "onException");
    Class<? extends JobHandler> type = workerClass(worker);
    int instances = worker.intValue("instances", DEFAULT_INSTANCES, minInstances, 10_000);
    int maxConcurrency = worker.intValue("maxConcurrency", 1, 1, 1_000_000);
    ThreadingModel threading = worker.enumValue("threading", ThreadingModel.class,
        ThreadingModel.WORKER);
    if (threading != ThreadingModel.EVENT_LOOP && threading != ThreadingModel.WORKER
        && threading != ThreadingModel.VIRTUAL_THREAD) {
      throw new ConfigException(worker.field("threading"), threading.name(),
          "must be EVENT_LOOP, WORKER or VIRTUAL_THREAD");
    }
    if (threading == ThreadingModel.VIRTUAL_THREAD && Runtime.version().feature() < 21) {
      throw new ConfigException(worker.field("threading"), threading.name(),
          "needs Java 21 or newer (this JVM is " + Runtime.version().feature() + ")");
    }
    OnException onException = worker.enumValue("onException", OnException.class,
        OnException.FAIL_JOB);
    return new WorkerConfig(type, instances, maxConcurrency, threading,
        worker.rawObject("config"), onException);
  }

  /**
   * Whether one incarnation runs its assignments side by side on the worker pool (a WORKER
   * incarnation with {@code maxConcurrency} above 1) rather than one after another on its context.
   */
  public boolean unordered() {
    return unordered(threading, maxConcurrency);
  }

  static boolean unordered(ThreadingModel threading, Integer maxConcurrency) {
    return threading == ThreadingModel.WORKER && maxConcurrency != null && maxConcurrency > 1;
  }

  private static Class<? extends JobHandler> workerClass(ConfigReader worker) {
    String className = worker.string("class", null);
    if (className == null) {
      throw new ConfigException(worker.field("class"), null,
          "is required: the JobHandler implementation each slot runs");
    }
    Class<?> type;
    try {
      type = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigException(worker.field("class"), className, "no such class on the classpath");
    }
    if (!JobHandler.class.isAssignableFrom(type)) {
      throw new ConfigException(worker.field("class"), className,
          "must implement " + JobHandler.class.getName());
    }
    try {
      type.getConstructor();
    } catch (NoSuchMethodException e) {
      throw new ConfigException(worker.field("class"), className,
          "needs a public no-argument constructor");
    }
    return type.asSubclass(JobHandler.class);
  }
}
