package dev.shepherd.runtime.coordinator;

import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.RuntimeTime;
import dev.shepherd.runtime.time.Scheduler;
import dev.shepherd.runtime.wire.Sender;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * What a pool's coordinator takes from the world it runs in: its clock, its timers, its
 * context's next turn ({@code turns} runs a task on the pool's context after the tasks already
 * queued there, as {@link Context#runOnContext} does) and the bus it sends on. Production takes
 * them all from Vert.x ({@link #of}); the failover simulation gives deterministic ones, so that
 * the real coordinator runs on its seeded task queue.
 */
public record PoolPorts(RuntimeClock clock, Scheduler scheduler, Executor turns, Sender sender) {
  public PoolPorts {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(turns, "turns");
    Objects.requireNonNull(sender, "sender");
  }

  /** The ports of a pool on {@code context}: its Vert.x's time, context and event bus. */
  static PoolPorts of(Vertx vertx, Context context) {
    RuntimeTime time = RuntimeTime.of(vertx);
    return new PoolPorts(time.clock(), time.scheduler(context), turns(context),
        Sender.of(vertx.eventBus()));
  }

  /** {@code context}'s next turn as an executor. */
  static Executor turns(Context context) {
    return task -> context.runOnContext(v -> task.run());
  }
}
