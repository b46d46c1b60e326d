package dev.shepherd.runtime.config;

import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.OnException;
import dev.shepherd.runtime.PoolVerticle;
import io.vertx.core.ThreadingModel;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * The {@code worker} object of a pool entry or a worker-host entry, validated: the {@link
 * JobHandler} class each slot runs (null when the pool's {@link PoolVerticle} was given a handler
 * factory instead), how many slots, how many assignments each runs at once, the threading model
 * of its incarnations, the {@code config} handed to them, and what an exception thrown by the
 * handler means ({@code onException}, J1 in docs/rules.md: {@code FAIL_JOB} by default, or {@code
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
    return parse(worker, minInstances, false);
  }

  /**
   * Parses {@code worker} where {@code factoryGiven} says whether the handlers come from a
   * factory given in code: then {@code class} must be absent (the type is null), else it is
   * required.
   */
  public static WorkerConfig parse(ConfigReader worker, int minInstances, boolean factoryGiven) {
    worker.onlyFields("class", "instances", "maxConcurrency", "threading", "config",
        "onException");
    Class<? extends JobHandler> type;
    if (factoryGiven) {
      String named = worker.string("class", null);
      if (named != null) {
        throw new ConfigException(worker.field("class"), named, "must be left out: this"
            + " PoolVerticle was given a handler factory, which makes the slots' handlers");
      }
      type = null;
    } else {
      type = workerClass(worker);
    }
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

  /**
   * What makes each incarnation's handler: a new instance of {@link #type} by its public
   * no-argument constructor.
   */
  public Supplier<JobHandler> handlers() {
    if (type == null) {
      throw new IllegalStateException("no worker.class: the handlers come from a factory");
    }
    return HandlerFactory.of(type);
  }

  public static boolean unordered(ThreadingModel threading, Integer maxConcurrency) {
    return threading == ThreadingModel.WORKER && maxConcurrency != null && maxConcurrency > 1;
  }

  private static Class<? extends JobHandler> workerClass(ConfigReader worker) {
    String className = worker.string("class", null);
    if (className == null) {
      throw new ConfigException(worker.field("class"), null,
          "is required: the JobHandler implementation each slot runs (or, in code, give the"
              + " PoolVerticle a handler factory: new PoolVerticle(() -> new MyHandler(...)))");
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
          "needs a public no-argument constructor (to give it arguments, leave worker.class out"
              + " and deploy new PoolVerticle(() -> new " + type.getSimpleName() + "(...)))");
    }
    return type.asSubclass(JobHandler.class);
  }
}
