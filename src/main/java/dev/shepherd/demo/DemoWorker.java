package dev.shepherd.demo;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.JobRateLimitedException;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.LocalMap;
import java.util.Map;

/**
 * A worker that does what its payload says, so every behaviour of the pool can be shown from the
 * command line. Payload keys, applied in this order: {@code rateLimitedMs} (the first time the
 * job runs, answer "rate limited for that many ms" with a {@link JobRateLimitedException}, F4 in
 * docs/rules.md; the next time it runs, go on with the other keys), {@code sleepMs} (wait; a
 * blocking sleep on a WORKER or VIRTUAL_THREAD incarnation, a timer on an event loop; with {@code
 * progress} n, reporting {@code {"step": i, "of": n}} n times evenly over it, T2 in
 * docs/rules.md, and, on a retried attempt, resuming after the checkpoint's step), {@code
 * spinMs} (burn CPU),
 * {@code fail} (return a failed future), {@code throw} (throw a {@link RuntimeException} from
 * {@code handle}: the job fails, the worker stays, J1 in docs/rules.md), {@code crash} (crash the
 * incarnation with {@link WorkerContext#crash}), {@code hang} (never answer), {@code exit}
 * (undeploy itself after answering), {@code echo} (copied into the result). The result is {@code
 * {"worker", "incarnation", "echo"}}. A sleep ends early when its job is cancelled.
 *
 * <p>Worker config {@code failStart}: {@code never} (default), {@code always}, or {@code
 * replacements} (only incarnations after the first fail to start).
 */
public final class DemoWorker implements JobHandler {
  /** How often a blocking sleep looks whether its job was cancelled. */
  static final long CANCEL_CHECK_MS = 20;
  private static final String CANCELLED = "cancelled while sleeping";
  /**
   * The jobs answered "rate limited" and not yet run again, shared by every incarnation of the
   * node (the retry may run on another slot), by job id.
   */
  static final String RATE_LIMITED_JOBS = "shepherd.demo.rateLimitedJobs";
  /** More held jobs than this (cancelled while held, never run again) and the set starts over. */
  static final int MAX_RATE_LIMITED_JOBS = 100_000;
  private WorkerContext context;

  @Override
  public Future<Void> start(WorkerContext ctx) {
    this.context = ctx;
    String failStart = ctx.config().getString("failStart", "never");
    switch (failStart) {
      case "never" -> {
        return Future.succeededFuture();
      }
      case "always" -> {
        return Future.failedFuture("failStart=always: this worker refuses to start");
      }
      case "replacements" -> {
        return ctx.incarnation() == 1 ? Future.succeededFuture()
            : Future.failedFuture("failStart=replacements: incarnation " + ctx.incarnation()
                + " refuses to start");
      }
      default -> {
        return Future.failedFuture("worker.config.failStart must be never, always or"
            + " replacements (was \"" + failStart + "\")");
      }
    }
  }

  @Override
  public Future<Object> handle(Job job) {
    JsonObject payload = asObject(job.payload());
    try {
      payload.getLong("sleepMs");
      payload.getLong("spinMs");
      payload.getString("fail");
      payload.getString("throw");
      payload.getBoolean("crash");
      payload.getBoolean("hang");
      payload.getBoolean("exit");
      payload.getLong("rateLimitedMs");
      payload.getLong("progress");
    } catch (ClassCastException e) {
      return Future.failedFuture("payload: rateLimitedMs, sleepMs, spinMs and progress must be"
          + " numbers, fail and throw strings, crash, hang and exit booleans");
    }
    long steps = payload.getLong("progress", 0L);
    if (steps < 0 || steps > MAX_STEPS) {
      return Future.failedFuture("payload: progress must be between 0 and " + MAX_STEPS
          + " steps (was " + steps + ")");
    }
    long rateLimitedMs = payload.getLong("rateLimitedMs", 0L);
    if (rateLimitedMs > 0 && firstRun(job)) {
      return Future.failedFuture(new JobRateLimitedException(rateLimitedMs,
          "demo: rate limited for " + rateLimitedMs + " ms (rateLimitedMs)"));
    }
    long sleepMs = payload.getLong("sleepMs", 0L);
    if (steps > 0) {
      return stepped(job, payload, sleepMs, (int) steps);
    }
    if (sleepMs > 0 && context.context().threadingModel() == ThreadingModel.EVENT_LOOP) {
      Promise<Void> slept = Promise.promise();
      long timer = context.vertx().setTimer(sleepMs, id -> slept.tryComplete());
      job.cancelled().onComplete(v -> {
        if (context.vertx().cancelTimer(timer)) {
          slept.tryFail(CANCELLED);
        }
      });
      // compose: a throw after the sleep fails the job as a throw from handle would (J1).
      return slept.future().compose(v -> finish(job, payload));
    }
    if (sleepMs > 0 && !sleep(job, sleepMs)) {
      return Future.failedFuture(job.isCancelled() ? CANCELLED : "interrupted while sleeping");
    }
    return finish(job, payload);
  }

  /** The most steps {@code progress} may ask for. */
  static final long MAX_STEPS = 10_000;

  /**
   * T2 (docs/rules.md): sleeps {@code sleepMs} in {@code steps} equal parts, reporting {@code {"step": i, "of":
   * steps}} after each; a retried attempt starts after the step its checkpoint names.
   */
  private Future<Object> stepped(Job job, JsonObject payload, long sleepMs, int steps) {
    JsonObject checkpoint = job.checkpoint();
    Object done = checkpoint == null ? null : checkpoint.getValue("step");
    int from = done instanceof Number n ? (int) Math.max(0, Math.min(steps, n.longValue())) : 0;
    long partMs = sleepMs / steps;
    if (context.context().threadingModel() == ThreadingModel.EVENT_LOOP) {
      Promise<Void> slept = Promise.promise();
      step(job, from + 1, steps, partMs, slept);
      return slept.future().compose(v -> finish(job, payload));
    }
    for (int i = from + 1; i <= steps; i++) {
      if (partMs > 0 && !sleep(job, partMs)) {
        return Future.failedFuture(job.isCancelled() ? CANCELLED : "interrupted while sleeping");
      }
      job.progress(new JsonObject().put("step", i).put("of", steps));
    }
    return finish(job, payload);
  }

  /** On the event loop: step {@code i} of {@code steps} after {@code partMs}, then the next. */
  private void step(Job job, int i, int steps, long partMs, Promise<Void> slept) {
    if (i > steps) {
      slept.tryComplete();
      return;
    }
    if (job.isCancelled()) {
      slept.tryFail(CANCELLED);
      return;
    }
    context.vertx().setTimer(Math.max(1, partMs), id -> {
      job.progress(new JsonObject().put("step", i).put("of", steps));
      step(job, i + 1, steps, partMs, slept);
    });
  }

  /**
   * Whether this is the first time {@code job} runs with {@code rateLimitedMs}: it is then
   * remembered, and the next run forgets it and goes on.
   */
  private boolean firstRun(Job job) {
    LocalMap<String, Boolean> held = context.vertx().sharedData().getLocalMap(RATE_LIMITED_JOBS);
    if (held.remove(job.id()) != null) {
      return false;
    }
    if (held.size() >= MAX_RATE_LIMITED_JOBS) {
      held.clear();
    }
    held.put(job.id(), Boolean.TRUE);
    return true;
  }

  /**
   * Blocks for {@code ms} unless the job is cancelled meanwhile (checked every {@value
   * #CANCEL_CHECK_MS} ms: a blocked thread cannot run a callback); true when it slept it all.
   */
  private static boolean sleep(Job job, long ms) {
    long end = System.nanoTime() + ms * 1_000_000;
    try {
      for (long left = ms; left > 0 && !job.isCancelled();
          left = (end - System.nanoTime() + 999_999) / 1_000_000) { // rounded up: never early
        Thread.sleep(Math.min(left, CANCEL_CHECK_MS));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return !job.isCancelled();
  }

  private Future<Object> finish(Job job, JsonObject payload) {
    long spinMs = payload.getLong("spinMs", 0L);
    if (spinMs > 0) {
      spin(spinMs);
    }
    String fail = payload.getString("fail");
    if (fail != null) {
      return Future.failedFuture(fail);
    }
    String thrown = payload.getString("throw");
    if (thrown != null) {
      throw new RuntimeException(thrown);
    }
    if (payload.getBoolean("crash", false)) {
      context.crash(new IllegalStateException("crash requested by job " + job.id()));
      return Promise.promise().future();
    }
    if (payload.getBoolean("hang", false)) {
      return Promise.promise().future();
    }
    if (payload.getBoolean("exit", false)) {
      context.context().runOnContext(v -> context.exit());
    }
    return Future.succeededFuture(new JsonObject()
        .put("worker", job.worker())
        .put("incarnation", job.incarnation())
        .put("echo", payload.getValue("echo")));
  }

  private static volatile long sink;

  private static void spin(long ms) {
    long end = System.nanoTime() + ms * 1_000_000;
    long x = 0;
    while (System.nanoTime() < end) {
      x += x * 31 + 7;
    }
    sink = x;
  }

  @SuppressWarnings("unchecked")
  private static JsonObject asObject(Object payload) {
    if (payload instanceof JsonObject json) {
      return json;
    }
    if (payload instanceof Map<?, ?> map) {
      return new JsonObject((Map<String, Object>) map);
    }
    return new JsonObject().put("echo", payload);
  }
}
