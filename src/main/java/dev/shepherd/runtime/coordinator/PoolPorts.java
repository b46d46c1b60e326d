package dev.shepherd.runtime.coordinator;

import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.RuntimeTime;
import dev.shepherd.runtime.time.Scheduler;
import dev.shepherd.runtime.wire.Sender;
import dev.shepherd.runtime.slot.Deployments;
import dev.shepherd.runtime.slot.VertxDeployments;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * What a pool's coordinator takes from the world it runs in: its clock, its timers, its
 * context's next turn ({@code turns} runs a task on the pool's context after the tasks already
 * queued there, as {@link Context#runOnContext} does), the bus it sends on, and where its local
 * slots' incarnations are deployed ({@code deployments} makes the {@link Deployments} of one
 * slot). Production takes them all from Vert.x ({@link #of}); the failover simulation gives
 * deterministic ones, so that the real coordinator and its local slots run on its seeded task
 * queue.
 */
public record PoolPorts(RuntimeClock clock, Scheduler scheduler, Executor turns, Sender sender,
    Supplier<Deployments> deployments) {
  public PoolPorts {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(turns, "turns");
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(deployments, "deployments");
  }

  /**
   * The ports of a pool on {@code context}: its Vert.x's time, context and event bus. Each local
   * slot deploys its incarnations from a context of its own outside the PoolVerticle's
   * deployment, so incarnations are not its children. Vert.x undeploys children before their
   * parent, and a WORKER incarnation busy in a job runs its stop() only after that job:
   * undeploying the pool would then start the graceful stop late and keep dispatching queued
   * jobs meanwhile (P16 in docs/rules.md). As top-level deployments they are stopped by the pool
   * itself, after its drain.
   */
  static PoolPorts of(Vertx vertx, Context context) {
    RuntimeTime time = RuntimeTime.of(vertx);
    return new PoolPorts(time.clock(), time.scheduler(context), turns(context),
        Sender.of(vertx.eventBus()), () -> new VertxDeployments(vertx,
            ((VertxInternal) vertx).createEventLoopContext()));
  }

  /** {@code context}'s next turn as an executor. */
  static Executor turns(Context context) {
    return task -> context.runOnContext(v -> task.run());
  }
}
