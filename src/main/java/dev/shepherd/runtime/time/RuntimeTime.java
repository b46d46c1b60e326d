package dev.shepherd.runtime.time;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.core.shareddata.Shareable;
import java.util.Objects;
import java.util.function.Function;

/**
 * The time the pools, hosts and leaderships of one Vert.x instance run on: its {@link
 * RuntimeClock} and, for each context, a {@link Scheduler} measured on that clock. Every
 * component reads it with {@link #of} when it starts; {@link #system()} unless a test (or an
 * embedding application) {@linkplain #install installed} another before deploying anything.
 *
 * <p>It is kept in the instance's local shared data, so it lives and dies with the instance and
 * two instances in one JVM (a test's simulated nodes) can run on different clocks.
 */
public record RuntimeTime(RuntimeClock clock, Function<Context, Scheduler> schedulers)
    implements Shareable {
  private static final String MAP = "dev.shepherd.runtime.time";
  private static final String KEY = "time";
  private static final RuntimeTime SYSTEM = new RuntimeTime(RuntimeClock.system(),
      context -> new VertxScheduler(context, RuntimeClock.system()));

  public RuntimeTime {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(schedulers, "schedulers");
  }

  /** The timers of {@code context}, on this time's clock. */
  public Scheduler scheduler(Context context) {
    return schedulers.apply(context);
  }

  /** Production time: the JVM's clocks and the contexts' Vert.x timers. */
  public static RuntimeTime system() {
    return SYSTEM;
  }

  /** The time of {@code vertx}: the one installed, else {@link #system()}. */
  public static RuntimeTime of(Vertx vertx) {
    Object installed = map(vertx).get(KEY);
    return installed instanceof RuntimeTime time ? time : SYSTEM;
  }

  /**
   * Makes {@code time} the time of {@code vertx}, for what starts afterwards: install it before
   * deploying pools, hosts or the web server (what already runs keeps the time it read).
   */
  public static void install(Vertx vertx, RuntimeTime time) {
    map(vertx).put(KEY, Objects.requireNonNull(time, "time"));
  }

  private static LocalMap<String, Object> map(Vertx vertx) {
    return vertx.sharedData().getLocalMap(MAP);
  }
}
